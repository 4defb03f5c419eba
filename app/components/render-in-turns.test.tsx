import { PassThrough } from "node:stream";
import { renderToPipeableStream } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { INLINE_PARTS, InTurn } from "./render-in-turns.tsx";

/** The event loop's turns so far: a ticker that counts itself until stopped. */
function turnCounter() {
  let turns = 0;
  let running = true;
  const tick = () => {
    turns++;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    now: () => turns,
    stop: () => {
      running = false;
    },
  };
}

/** A page rendered as the server renders one (onAllReady, INLINE_PARTS): its HTML and the turn each part rendered in. */
async function render(inTurns: boolean): Promise<{ html: string; renderedAt: Record<string, number> }> {
  const counter = turnCounter();
  const renderedAt: Record<string, number> = {};
  const Part = ({ name }: { name: string }) => {
    renderedAt[name] = counter.now();
    // a part as large as a listing's facets: React would move it after the page otherwise
    return (
      <ul data-part={name}>
        {Array.from({ length: 600 }, (_, i) => (
          <li key={i}>{`${name} item ${i}`}</li>
        ))}
      </ul>
    );
  };
  const props = { id: "page" };
  const page = (
    <main>
      <h1>Shell</h1>
      {inTurns ? (
        <>
          <InTurn of={props} turn={1}>
            <Part name="facets" />
          </InTurn>
          <InTurn of={props} turn={2}>
            <Part name="cards" />
          </InTurn>
        </>
      ) : (
        <>
          <Part name="facets" />
          <Part name="cards" />
        </>
      )}
      <Part name="footer" />
    </main>
  );
  const html = await new Promise<string>((resolve, reject) => {
    const { pipe } = renderToPipeableStream(page, {
      ...INLINE_PARTS,
      onAllReady() {
        const out = new PassThrough();
        let text = "";
        out.on("data", (chunk: Buffer) => {
          text += chunk.toString();
        });
        out.on("end", () => resolve(text));
        pipe(out);
      },
      onShellError: reject,
      onError: reject,
    });
  });
  counter.stop();
  return { html, renderedAt };
}

describe("parts of a page rendered in turns (decision 041)", () => {
  it("renders each part in a later turn of the event loop, other work running between", async () => {
    const { renderedAt } = await render(true);
    expect(renderedAt.cards).toBeGreaterThan(renderedAt.facets!);
    expect(renderedAt.facets).toBeGreaterThan(renderedAt.footer!);
    // without turns the whole page is one stretch of work
    const control = await render(false);
    expect(new Set(Object.values(control.renderedAt)).size).toBe(1);
  });

  it("puts every part in the HTML where it belongs, with no fallback for a script to replace", async () => {
    const { html } = await render(true);
    const control = await render(false);
    const text = (page: string) => page.replace(/<!--\/?\$-->/g, "");
    expect(text(html)).toBe(text(control.html));
    expect(html).not.toContain("<template");
    expect(html).not.toContain("hidden");
    expect(html.indexOf('data-part="facets"')).toBeLessThan(html.indexOf('data-part="cards"'));
    expect(html.indexOf('data-part="cards"')).toBeLessThan(html.indexOf('data-part="footer"'));
  });
});
