import { type EntryContext, RouterContextProvider } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import handleRequest from "./entry.server.tsx";
import { requestInfoContext } from "./lib/request-context.ts";

// The stylesheet vanished (a concurrent build removed it): inlineCss throws before the render starts.
vi.mock("./http/inline-css.server.ts", () => ({
  inlineCss: () => {
    throw new Error("ENOENT: no such file or directory, open 'build/client/assets/app.css'");
  },
}));

describe("document render", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("answers a synchronous throw while starting the render with an error, and leaves no timer to crash the process later", async () => {
    vi.useFakeTimers();
    const context = new RouterContextProvider();
    context.set(requestInfoContext, { nonce: "n", requestId: "r", clientIp: "127.0.0.1" });
    const rendering = handleRequest(
      new Request("http://shop.test/"),
      200,
      new Headers(),
      { isSpaMode: false } as EntryContext,
      context,
    );
    await expect(rendering).rejects.toThrow(/ENOENT/);
    // React Router turns the rejection into one 500 page; nothing may fire after it (the stream
    // timeout used to call an `abort` that never existed, and the ReferenceError ended the process).
    expect(vi.getTimerCount()).toBe(0);
    expect(() => vi.advanceTimersByTime(60_000)).not.toThrow();
  });
});
