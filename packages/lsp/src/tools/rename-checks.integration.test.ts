import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { resultText } from "@tools/registry";
import { beforeAll, describe, expect, it } from "vitest";
import { diagnosticsOnWrite } from "../diagnostics/diagnostics-on-write.js";
import { ci, packageBin } from "../test-support/fixtures.js";
import { useServerFixture } from "../test-support/server-suite.js";
import { lspRenameTool } from "./lsp-rename-tool.js";
import { lspTool } from "./lsp-tool.js";

const found = existsSync(join(packageBin, "typescript-language-server"));

describe.skipIf(!found && !ci)("lsp_rename's checks against typescript-language-server", () => {
  beforeAll(() => {
    expect(found, `typescript-language-server missing in ${packageBin}; run pnpm install`).toBe(true);
  });
  const server = useServerFixture({
    fixture: "ts-project",
    server: "typescript-language-server",
    tools: [lspTool, lspRenameTool],
    binDirectories: [packageBin],
    diagnosticsTimeoutMs: 15_000,
    resultWrappers: [diagnosticsOnWrite({ boundMs: 30_000 })],
    expectProcesses: true,
  });
  const write = (path: string, content: string): void => writeFileSync(join(server.dir, path), content);
  const read = (path: string): string => readFileSync(join(server.dir, path), "utf8");
  const section = (answer: string): string[] =>
    answer.slice(answer.indexOf("LSP diagnostics after this write:")).split("\n");

  // Must stay the suite's first call: no file was looked at and the server is not running yet.
  it("refuses a rename that brings errors into a file never looked at, as its first call, and writes one that brings none", async () => {
    const lib = "export function helper(n: number): number { return n * 2; }\n";
    const use = 'import { helper } from "./lib.js";\nconst util = 10;\nexport const v = helper(util);\n';
    write("src/lib.ts", lib);
    write("src/use.ts", use);
    const result = await server.invoke("lsp_rename", {
      file: "src/lib.ts",
      line: 1,
      symbol: "helper",
      new_name: "util",
    });
    const answer = resultText(result);
    expect(result.error?.code, answer).toBe("LSP_RENAME_CLASH");
    expect(answer.split("\n")).toEqual([
      "renaming 'helper' to 'util' would clash with a name already declared or visible where it is used (checked on the server in memory; nothing was written):",
      "- src/use.ts:2:7 (const util = 10;): 'util' is declared here already, and the server would take it for the renamed 'helper'",
      "- src/use.ts:3:25 (export const v = helper(util);): this 'util' means the one declared at src/use.ts:2:7 (const util = 10;), and would mean the renamed 'helper' instead",
      "- src/use.ts:1:10 error [TS2440] Import declaration conflicts with local declaration of 'util'. (typescript) — the line would read: import { util } from \"./lib.js\";",
      "- src/use.ts:3:18 error [TS2349] This expression is not callable. Type 'Number' has no call signatures. (typescript) — the line would read: export const v = util(util);",
      "Pick another name, one not declared in or visible from those places, and call lsp_rename again.",
    ]);
    expect(read("src/lib.ts")).toBe(lib);
    expect(read("src/use.ts")).toBe(use);
    const fine = await server.invoke("lsp_rename", {
      file: "src/lib.ts",
      line: 1,
      symbol: "helper",
      new_name: "doubled",
    });
    expect(fine.isError, resultText(fine)).toBe(false);
    expect(read("src/use.ts")).toContain("export const v = doubled(util);");
    expect(section(resultText(fine))).toEqual(["LSP diagnostics after this write:", "2 files clean"]);
  });

  it("refuses it after a hover and diagnostics of the renamed file too", async () => {
    write("src/lib2.ts", "export function helper2(n: number): number { return n * 2; }\n");
    write(
      "src/use2.ts",
      'import { helper2 } from "./lib2.js";\nconst util2 = 10;\nexport const v2 = helper2(util2);\n',
    );
    expect(await server.text({ action: "hover", file: "src/lib2.ts", line: 1, symbol: "helper2" })).toContain(
      "function helper2",
    );
    expect(await server.text({ action: "diagnostics", file: "src/lib2.ts" })).toBe(
      "no diagnostics in src/lib2.ts",
    );
    const result = await server.invoke("lsp_rename", {
      file: "src/lib2.ts",
      line: 1,
      symbol: "helper2",
      new_name: "util2",
    });
    const answer = resultText(result);
    expect(result.error?.code, answer).toBe("LSP_RENAME_CLASH");
    expect(answer).toContain(
      "src/use2.ts:1:10 error [TS2440] Import declaration conflicts with local declaration of 'util2'.",
    );
    expect(read("src/use2.ts")).toContain("export const v2 = helper2(util2);");
  });

  it("refuses a rename whose server range is not the identifier asked (a module path), writing nothing", async () => {
    write("src/a.ts", "export const foo = 1;\nexport const x = 2;\nexport const bar = 3;\n");
    write("src/b.ts", 'import { foo, x, bar } from "./a.js";\nexport const sum = foo + x + bar;\n');
    const result = await server.invoke("lsp_rename", {
      file: "src/b.ts",
      line: 1,
      symbol: "a",
      new_name: "alpha",
    });
    expect(result.error?.code).toBe("LSP_RENAME_FAILED");
    expect(resultText(result)).toBe(
      `cannot rename 'a' on line 1: what the server would rename there is "a.js" (columns 32–35), not the identifier 'a' (it is part of a string, such as a module path, or of a longer token). Give the line of a declaration or use of the identifier itself, or edit the text by hand; nothing was written`,
    );
    expect(read("src/b.ts")).toBe(
      'import { foo, x, bar } from "./a.js";\nexport const sum = foo + x + bar;\n',
    );
  });

  it("renames a member to a reserved word (a method may be named 'delete'), not a variable", async () => {
    write(
      "src/store.ts",
      "export class Store {\n  remove(key: string): void {}\n  add(k: string, v: number): void {}\n}\n",
    );
    write(
      "src/keep.ts",
      'import { Store } from "./store.js";\nconst store = new Store();\nstore.remove("x");\nstore.add("y", 1);\nexport const count = 1;\n',
    );
    const fromUse = await server.invoke("lsp_rename", {
      file: "src/keep.ts",
      line: 3,
      symbol: "remove",
      new_name: "delete",
    });
    expect(fromUse.isError, resultText(fromUse)).toBe(false);
    const fromDeclaration = await server.invoke("lsp_rename", {
      file: "src/store.ts",
      line: 3,
      symbol: "add",
      new_name: "default",
    });
    expect(fromDeclaration.isError, resultText(fromDeclaration)).toBe(false);
    expect(read("src/store.ts")).toBe(
      "export class Store {\n  delete(key: string): void {}\n  default(k: string, v: number): void {}\n}\n",
    );
    expect(read("src/keep.ts")).toContain('store.delete("x");\nstore.default("y", 1);');
    const variable = await server.invoke("lsp_rename", {
      file: "src/keep.ts",
      line: 5,
      symbol: "count",
      new_name: "delete",
    });
    expect(variable.error?.code).toBe("LSP_BAD_ARGUMENTS");
    expect(resultText(variable)).toBe(
      "'delete' is a reserved word in typescript (only a property or method may be named so): every file using the name would stop parsing; give another name; nothing was written.",
    );
    expect(read("src/keep.ts")).toContain("export const count = 1;");
  });
});

describe.skipIf(!found && !ci)("lsp_rename of a symbol exported under an alias", () => {
  // Its own server: tsserver, started after the files are written, sees the importer of the alias.
  const server = useServerFixture({
    fixture: "ts-project",
    server: "typescript-language-server",
    tools: [lspTool, lspRenameTool],
    binDirectories: [packageBin],
    diagnosticsTimeoutMs: 15_000,
    resultWrappers: [diagnosticsOnWrite({ boundMs: 30_000 })],
    expectProcesses: true,
  });
  const write = (path: string, content: string): void => writeFileSync(join(server.dir, path), content);
  const read = (path: string): string => readFileSync(join(server.dir, path), "utf8");

  it("refuses a rename that would also rename an alias (export { helper as helpMe }), saying what it replaces, where, and what to do", async () => {
    write("src/helpers.ts", "function helper(): number {\n  return 1;\n}\nexport { helper as helpMe };\n");
    write("src/use-helpers.ts", 'import { helpMe } from "./helpers.js";\nexport const one = helpMe();\n');
    const result = await server.invoke("lsp_rename", {
      file: "src/helpers.ts",
      line: 1,
      symbol: "helper",
      new_name: "assist",
    });
    expect(result.error?.code).toBe("LSP_RENAME_FAILED");
    expect(resultText(result)).toBe(
      `the server's edit for 'helper' also replaces "helpMe", which is not that name, with "assist" at src/use-helpers.ts:1 (import { helpMe } from "./helpers.js";): the server ties another name to this symbol (an alias, as in 'export { x as y }', with its importers, or a module path) and would rename it too. To rename only 'helper', edit its uses by hand (lsp references lists them); to rename "helpMe" as well, rename it on its own (lsp_rename from a line where it is written) or by hand; nothing was written`,
    );
    expect(read("src/helpers.ts")).toContain("export { helper as helpMe };");
  });
});
