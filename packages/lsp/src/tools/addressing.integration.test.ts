import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { ci, packageBin } from "../test-support/fixtures.js";
import { useServerFixture } from "../test-support/server-suite.js";
import { lspTool } from "./lsp-tool.js";

const found = existsSync(join(packageBin, "typescript-language-server"));

/** How a symbol argument lands: the hints the answers print, a name in another normalization. */
describe.skipIf(!found && !ci)("addressing a symbol, against typescript-language-server", () => {
  beforeAll(() => {
    expect(found, `typescript-language-server missing in ${packageBin}; run pnpm install`).toBe(true);
  });
  const server = useServerFixture({
    fixture: "ts-project",
    server: "typescript-language-server",
    tools: [lspTool],
    binDirectories: [packageBin],
    diagnosticsTimeoutMs: 15_000,
    expectProcesses: true,
  });

  it("prints a hint for another occurrence that, passed back, lands on that occurrence", async () => {
    writeFileSync(
      join(server.dir, "src", "calls.ts"),
      [
        "export function foo(x: number): number { return x; }",
        "export const bar = 1;",
        "export const k = foo(bar) + foo(bar);",
        "",
      ].join("\n"),
    );
    const first = await server.text({ action: "hover", file: "src/calls.ts", line: 3, symbol: "bar" });
    const hint = /\(e\.g\. '([^']+)' for the one at column 33\)/.exec(first)?.[1];
    expect(hint, first).toBeDefined();
    const again = await server.text({ action: "hover", file: "src/calls.ts", line: 3, symbol: hint! });
    // About bar, not the callee foo the hint's '(' would point at.
    expect(again).not.toContain("the one called");
    expect(again).toContain("const bar: 1");
    expect(again).not.toContain("function foo");
  });

  it("finds a name written decomposed (cafe + U+0301) from its precomposed spelling, and the other way round", async () => {
    writeFileSync(
      join(server.dir, "src", "accents.ts"),
      [
        "export const cafe\u0301 = 1;",
        "export const k2 = cafe\u0301 + 1;",
        "export const cr\u00e8me = k2;",
        "",
      ].join("\n"),
    );
    const definition = await server.text({
      action: "definition",
      file: "src/accents.ts",
      line: 2,
      symbol: "caf\u00e9",
    });
    expect(definition.split("\n")).toEqual([
      "1 definition of 'caf\u00e9':",
      "src/accents.ts:1:14  export const cafe\u0301 = 1;",
    ]);
    const references = await server.text({
      action: "references",
      file: "src/accents.ts",
      line: 3,
      symbol: "cre\u0300me",
    });
    expect(references).toContain("src/accents.ts:3:14  export const cr\u00e8me = k2;");
  });

  it("names the identifier it used in the answer's header when the symbol is only part of it", async () => {
    writeFileSync(
      join(server.dir, "src", "loader.ts"),
      [
        "export function load(path: string): string {",
        "  return path;",
        "}",
        'export const read = load("a");',
        "declare const loose: any;",
        "export const v = loose.missingThing;",
        "",
      ].join("\n"),
    );
    const definition = await server.text({
      action: "definition",
      file: "src/loader.ts",
      line: 4,
      symbol: "lo",
    });
    expect(definition.split("\n")).toEqual([
      "no identifier is exactly 'lo' there; used 'load', which contains it",
      "1 definition of 'load':",
      "src/loader.ts:1:17  export function load(path: string): string {",
    ]);
    const references = await server.text({
      action: "references",
      file: "src/loader.ts",
      line: 4,
      symbol: "lo",
    });
    expect(references.split("\n").slice(0, 2)).toEqual([
      "no identifier is exactly 'lo' there; used 'load', which contains it",
      "2 references of 'load':",
    ]);
    // Nothing found for the longer identifier: the answer names it too.
    const unknown = await server.text({
      action: "definition",
      file: "src/loader.ts",
      line: 6,
      symbol: "missing",
    });
    expect(unknown.split("\n").at(-1)).toBe("no definition found for 'missingThing' at src/loader.ts:6:24");
  });
});
