import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { KEEP_VERSIONS, newVersionDir, switchBuild, versionsDirOf } from "./build-switch.ts";

let dir: string;
let target: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "cartwheel-build-switch-"));
  target = join(dir, "build");
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** What `npm run build` writes: a server bundle naming its hashed asset, and the asset. */
function fakeBuild(label: string): string {
  const version = newVersionDir(target);
  mkdirSync(join(version, "server"), { recursive: true });
  mkdirSync(join(version, "client/assets"), { recursive: true });
  writeFileSync(join(version, "server/index.js"), `export const asset = "/assets/app-${label}.js";`);
  writeFileSync(join(version, "client/assets", `app-${label}.js`), label);
  return version;
}

describe("switching builds", () => {
  it("keeps the files of a server started on the previous build while a new one is switched in", () => {
    switchBuild(target, fakeBuild("one"));
    // a running server resolved the link when it started (server/main.ts)
    const running = realpathSync(target);
    switchBuild(target, fakeBuild("two"));

    expect(readFileSync(join(running, "server/index.js"), "utf8")).toContain("app-one.js");
    expect(readFileSync(join(running, "client/assets/app-one.js"), "utf8")).toBe("one");
    // a server started now gets the new build through the same path
    expect(readFileSync(join(target, "client/assets/app-two.js"), "utf8")).toBe("two");
  });

  it("keeps a build directory from before versions as a version", () => {
    mkdirSync(join(target, "server"), { recursive: true });
    writeFileSync(join(target, "server/index.js"), "old");
    switchBuild(target, fakeBuild("new"));
    expect(readFileSync(join(target, "server/index.js"), "utf8")).toContain("app-new.js");
    const kept = realpathSync(versionsDirOf(target));
    expect(
      readFileSync(
        join(kept, `${readdirSync(kept).find((n) => n.endsWith("-earlier"))}/server/index.js`),
        "utf8",
      ),
    ).toBe("old");
  });

  it("removes all but the newest versions besides the current one", () => {
    const made: string[] = [];
    for (let i = 0; i < KEEP_VERSIONS + 3; i++) {
      const version = fakeBuild(String(i));
      made.push(version);
      switchBuild(target, version);
    }
    const left = readdirSync(versionsDirOf(target)).map((n) => join(versionsDirOf(target), n));
    expect(left.sort()).toEqual(made.slice(-(KEEP_VERSIONS + 1)).sort());
    expect(realpathSync(target)).toBe(realpathSync(made.at(-1)!));
  });
});
