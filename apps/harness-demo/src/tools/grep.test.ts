import { afterEach, describe, expect, it } from "vitest";
import { tempWorkspace, type TempWorkspace } from "../__fixtures__/temp-workspace.js";

let ws: TempWorkspace;
afterEach(async () => ws.cleanup());

describe("grep", () => {
  it("prints path:line: text for every match", async () => {
    ws = await tempWorkspace({
      "src/a.ts": "const a = 1;\nexport const b = 2;\n",
      "src/c.ts": "export {};\n",
    });
    const result = await ws.call("grep", { pattern: "^export" });
    expect(ws.text(result)).toBe("src/a.ts:2: export const b = 2;\nsrc/c.ts:1: export {};");
  });

  it("honours the root .gitignore and skips node_modules, .git and binary files", async () => {
    ws = await tempWorkspace({
      ".gitignore": "build/\n*.log\n!keep.log\n",
      "src/a.ts": "needle\n",
      "build/out.js": "needle\n",
      "debug.log": "needle\n",
      "keep.log": "needle\n",
      "node_modules/pkg/index.js": "needle\n",
      ".git/config": "needle\n",
      "blob.bin": new Uint8Array([...Buffer.from("needle\n"), 0]),
    });
    const result = await ws.call("grep", { pattern: "needle" });
    expect(ws.text(result)).toBe("keep.log:1: needle\nsrc/a.ts:1: needle");
  });

  it("filters by glob on names or on paths", async () => {
    ws = await tempWorkspace({ "src/a.ts": "x\n", "src/b.js": "x\n", "lib/c.ts": "x\n" });
    expect(ws.text(await ws.call("grep", { pattern: "x", glob: "*.ts" }))).toBe(
      "lib/c.ts:1: x\nsrc/a.ts:1: x",
    );
    expect(ws.text(await ws.call("grep", { pattern: "x", glob: "src/**/*.{ts,js}" }))).toBe(
      "src/a.ts:1: x\nsrc/b.js:1: x",
    );
  });

  it("searches one folder or one file when path is given", async () => {
    ws = await tempWorkspace({ "src/a.ts": "x\n", "lib/c.ts": "x\n" });
    expect(ws.text(await ws.call("grep", { pattern: "x", path: "lib" }))).toBe("lib/c.ts:1: x");
    expect(ws.text(await ws.call("grep", { pattern: "x", path: "src/a.ts" }))).toBe("src/a.ts:1: x");
  });

  it("bounds the output with a note of how many more matches there are", async () => {
    ws = await tempWorkspace({ "a.txt": "hit\n".repeat(7) });
    const text = ws.text(await ws.call("grep", { pattern: "hit", max_results: 3 }));
    expect(text.split("\n").slice(0, 3)).toEqual(["a.txt:1: hit", "a.txt:2: hit", "a.txt:3: hit"]);
    expect(text).toContain("… 4 more matches");
  });

  it("ignores case on request", async () => {
    ws = await tempWorkspace({ "a.txt": "Hello\n" });
    expect(ws.text(await ws.call("grep", { pattern: "hello" }))).toContain("no matches");
    expect(ws.text(await ws.call("grep", { pattern: "hello", case_insensitive: true }))).toBe(
      "a.txt:1: Hello",
    );
  });

  it("explains an invalid regular expression", async () => {
    ws = await tempWorkspace({ "a.txt": "x\n" });
    const result = await ws.call("grep", { pattern: "foo(" });
    expect(result.error?.code).toBe("INVALID_PATTERN");
    expect(result.error?.message).toContain("escape special characters");
  });

  it("is refused by containment for a path outside the working directory", async () => {
    ws = await tempWorkspace();
    expect((await ws.call("grep", { pattern: "x", path: "/etc" })).error?.code).toBe("GUARDRAIL_REFUSED");
  });

  it("says how many files it searched when nothing matches", async () => {
    ws = await tempWorkspace({ "a.txt": "x\n", "b.txt": "y\n" });
    expect(ws.text(await ws.call("grep", { pattern: "zzz" }))).toBe(
      "no matches for /zzz/ in .: 2 files searched",
    );
  });
});
