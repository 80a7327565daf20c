import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createRegistry, createRun, resultText } from "@tools/registry";
import { beforeAll, describe, expect, it } from "vitest";
import { diagnosticsOnWrite } from "../diagnostics/diagnostics-on-write.js";
import { createLspSupervisor } from "../supervisor/supervisor.js";
import { ci, packageBin, tempTree } from "../test-support/fixtures.js";
import { useServerFixture } from "../test-support/server-suite.js";
import { deleteTool, writeTool } from "../test-support/write-tool.js";
import { lspRenameTool } from "./lsp-rename-tool.js";
import { lspTool } from "./lsp-tool.js";

const found = existsSync(join(packageBin, "typescript-language-server"));

describe.skipIf(!found && !ci)("lsp against typescript-language-server", () => {
  beforeAll(() => {
    expect(found, `typescript-language-server missing in ${packageBin}; run pnpm install`).toBe(true);
  });
  const server = useServerFixture({
    fixture: "ts-project",
    server: "typescript-language-server",
    tools: [lspTool, lspRenameTool, writeTool, deleteTool],
    binDirectories: [packageBin],
    diagnosticsTimeoutMs: 15_000,
    resultWrappers: [diagnosticsOnWrite({ boundMs: 30_000 })],
    expectProcesses: true,
  });
  const { text } = server;
  const lsp = (args: Record<string, unknown>) => server.invoke("lsp", args);

  it("finds the definition across files as path:line:col with the line's text", async () => {
    const answer = await text({ action: "definition", file: "src/app.ts", line: 3, symbol: "add" });
    expect(answer).toContain("src/math.ts:2:17  export function add(a: number, b: number): number {");
  });

  it("lists references with their lines", async () => {
    const answer = await text({ action: "references", file: "src/math.ts", line: 2, symbol: "add" });
    expect(answer).toContain("4 references");
    expect(answer).toContain('src/app.ts:1:10  import { add, Square } from "./math.js";');
    expect(answer).toContain("src/app.ts:3:22  export const total = add(1, 2);");
    expect(answer).toContain("src/app.ts:4:24  export const doubled = add(total, total);");
  });

  it("gives hover with signature and doc comment", async () => {
    const answer = await text({ action: "hover", file: "src/app.ts", line: 4, symbol: "add" });
    expect(answer).toContain("add(a: number, b: number): number");
    expect(answer).toContain("Adds two numbers.");
  });

  it("closes a code fence that the hover's bound cut open", async () => {
    const doc = Array.from({ length: 120 }, (_, index) => ` * step(${index});`);
    writeFileSync(
      join(server.dir, "src", "long-doc.ts"),
      [
        "/**",
        " * Runs every step.",
        " * ```ts",
        ...doc,
        " * ```",
        " */",
        "export function runAll(): void {}",
        "",
      ].join("\n"),
    );
    const answer = await text({ action: "hover", file: "src/long-doc.ts", line: 126, symbol: "runAll" });
    const lines = answer.split("\n");
    expect(lines.at(-1)).toMatch(/^… \d+ more lines$/);
    // Every fence opened is closed before the note saying what was cut.
    expect(lines.filter((line) => line.startsWith("```")).length % 2).toBe(0);
    expect(lines.at(-2)).toBe("```");
    expect(lines.at(-3)).toMatch(/^step\(\d+\);$/);
    // Within the bound: 80 lines of the hover, then the note.
    expect(lines.length).toBe(81);
  });

  it("finds implementations and type definitions", async () => {
    const impl = await text({ action: "implementation", file: "src/math.ts", line: 6, symbol: "Shape" });
    expect(impl).toContain("src/math.ts:10:14  export class Square implements Shape {");
    const type = await text({ action: "type_definition", file: "src/app.ts", line: 6, symbol: "square" });
    expect(type).toContain("src/math.ts:10:14");
  });

  it("lists document symbols and searches workspace symbols", async () => {
    const outline = await text({ action: "symbols", file: "src/math.ts" });
    expect(outline).toMatch(/function add/);
    expect(outline).toMatch(/class Square/);
    // In the file's order at each level (the server answers alphabetically: area, doubled, square …).
    const lineOf = (row: string) => Number(row.slice(row.lastIndexOf(":") + 1));
    const top = (await text({ action: "symbols", file: "src/app.ts" }))
      .split("\n")
      .slice(1)
      .filter((row) => !row.startsWith(" "))
      .map(lineOf);
    expect(top.length).toBeGreaterThan(2);
    expect(top).toEqual([...top].sort((a, b) => a - b));
    expect(outline).toMatch(/ {2}method area/);
    const search = await text({ action: "symbols", query: "Square", file: "src/app.ts" });
    expect(search).toContain("class Square");
    expect(search).toContain("src/math.ts:10:14  export class Square implements Shape {");
  });

  it("keeps a long file's outline to its declarations: the last function is not cut for the first ones' locals", async () => {
    // 80 functions with three locals each: 320 symbols, over the 200 listed.
    const source = Array.from(
      { length: 80 },
      (_, i) =>
        `export function step${i}(input: number): number {\n  const base = input + ${i};\n  const options = { scale: 2 };\n  return base * options.scale;\n}\n`,
    ).join("");
    writeFileSync(join(server.dir, "src", "steps.ts"), source);
    const rows = (await text({ action: "symbols", file: "src/steps.ts" })).split("\n");
    expect(rows[0]).toBe("320 symbols in src/steps.ts:");
    expect(rows.filter((row) => row.startsWith("function step"))).toHaveLength(80);
    expect(rows).toContain("function step79  :396");
    // What room is left goes to the first functions' locals, in the file's order.
    expect(rows.slice(1, 4)).toEqual(["function step0  :1", "  constant base  :2", "  constant options  :3"]);
    expect(rows.at(-1)).toBe(
      "… 120 more symbols (nested ones: every top-level declaration is listed; all 120 are locals of a function or initialiser)",
    );
  });

  it("uses a nearby line when the symbol moved, and says so", async () => {
    const answer = await text({ action: "definition", file: "src/app.ts", line: 2, symbol: "total" });
    expect(answer).toContain("used line 3");
    expect(answer).toContain("src/app.ts:3:14");
  });

  it("refuses a navigation action without symbol, and quotes the line for a wrong symbol", async () => {
    const missing = await lsp({ action: "definition", file: "src/app.ts", line: 3 });
    expect(missing.isError).toBe(true);
    expect(resultText(missing)).toContain("missing symbol");
    const wrong = await lsp({ action: "definition", file: "src/app.ts", line: 3, symbol: "nothere" });
    expect(wrong.error?.code).toBe("LSP_SYMBOL_NOT_FOUND");
    expect(resultText(wrong)).toContain('that line reads: "export const total = add(1, 2);"');
    for (const args of [
      { action: "definition", file: "src", line: 1, symbol: "add" },
      { action: "symbols", file: "src" },
      { action: "diagnostics", file: "src" },
    ]) {
      const folder = await lsp(args);
      expect(folder.error?.code, resultText(folder)).toBe("LSP_BAD_ARGUMENTS");
      expect(resultText(folder)).toContain("src is a folder; give a file in it");
    }
  });

  it("reports diagnostics of a file", async () => {
    const clean = await text({ action: "diagnostics", file: "src/math.ts" });
    expect(clean).toBe("no diagnostics in src/math.ts");
  });

  it("lists errors and warnings only, counting the hints it left out", async () => {
    // tsserver reports an unused local as a hint (6133), and a type error as an error.
    const extra = join(server.dir, "src", "extra.ts");
    writeFileSync(extra, "export function f(): number {\n  const unused = 1;\n  return 2;\n}\n");
    try {
      const hintsOnly = await text({ action: "diagnostics", file: "src/extra.ts" });
      expect(hintsOnly).toBe(
        "no errors or warnings in src/extra.ts (1 information or hint diagnostic not listed)",
      );
      writeFileSync(extra, "export function f(): number {\n  const unused = 1;\n  return 'two';\n}\n");
      const both = await text({ action: "diagnostics", file: "src/extra.ts" });
      expect(both).toMatch(/^1 diagnostic in src\/extra\.ts:\nsrc\/extra\.ts:3:3 error \[TS2322\]/);
      expect(both).toContain("(1 information or hint diagnostic not listed)");
      expect(both).not.toContain("6133");
    } finally {
      rmSync(extra, { force: true });
    }
  });

  it("appends only new diagnostics on write: break, move, fix", async () => {
    const app = join(server.dir, "src", "app.ts");
    const original = readFileSync(app, "utf8");
    const broken = original.replace("add(1, 2)", 'add(1, "two")');
    const write = async (content: string) =>
      resultText(
        await server.registry.invoke(server.run, { tool: "write", args: { file: "src/app.ts", content } }),
      );

    const first = await write(broken);
    expect(first).toContain("1 new diagnostic in src/app.ts");
    expect(first).toMatch(/src\/app\.ts:3:\d+ error \[TS2345\] Argument of type 'string' is not assignable/);

    const moved = await write(`// a comment that moves the broken line down\n${broken}`);
    expect(moved).toContain("no new diagnostics in src/app.ts (1 reported earlier still present)");
    expect(moved).not.toContain("2345");

    const fixed = await write(original);
    expect(fixed).toContain("src/app.ts: clean (no errors or warnings)");
  });

  it("points at the occurrence a write added when the same error is already there (not the last by position)", async () => {
    const write = async (content: string) =>
      resultText(
        await server.registry.invoke(server.run, {
          tool: "write",
          args: { file: "src/counting.ts", content },
        }),
      );
    const lines = [
      "const shapes = [1, 2];",
      "const total = 3;",
      "const count = 3;",
      "for (const s of shapes) {",
      "  console.log(s);",
      "}",
      "console.log(total, count);",
      "export {};",
    ];
    const source = (edit: (text: string) => string) => `${edit(lines.join("\n"))}\n`;
    try {
      expect(await write(source((text) => text))).toContain("src/counting.ts: clean");
      const one = (text: string) =>
        text.replace("const count = 3;", "const count = 3; console.log(missingA);");
      expect(await write(source(one))).toMatch(
        /1 new diagnostic in src\/counting\.ts:\nsrc\/counting\.ts:3:30 /,
      );
      const two = (text: string) =>
        one(text).replace("console.log(total, count);", "console.log(total, count, missingA);");
      expect(await write(source(two))).toMatch(
        /1 new diagnostic in src\/counting\.ts \(1 reported earlier still present\):\nsrc\/counting\.ts:7:27 /,
      );
      // A third use above the loop: the one on the last line moves down to line 8.
      const three = (text: string) =>
        two(text).replace("for (const s", "console.log(missingA);\nfor (const s");
      const third = await write(source(three));
      expect(third).toMatch(
        /1 new diagnostic in src\/counting\.ts \(2 reported earlier still present\):\nsrc\/counting\.ts:4:13 error \[TS2304\]/,
      );
      expect(third).not.toContain("src/counting.ts:8:27");
    } finally {
      await server.registry.invoke(server.run, { tool: "delete", args: { file: "src/counting.ts" } });
    }
  });

  it("does not call new on write what a file had before it: read from its server, or said to be unknown", async () => {
    const write = async (file: string, content: string) =>
      resultText(await server.registry.invoke(server.run, { tool: "write", args: { file, content } }));
    const broken = "export const early: number = true;\n";
    // Broken before the run saw it (a shell command, a checkout), then opened by a question.
    writeFileSync(join(server.dir, "src", "early.ts"), broken);
    writeFileSync(join(server.dir, "src", "unseen.ts"), broken);
    try {
      expect(await text({ action: "hover", file: "src/early.ts", line: 1, symbol: "early" })).toContain(
        "const early: number",
      );
      const touched = await write("src/early.ts", `// touched\n${broken}`);
      expect(touched).toContain(
        "no new diagnostics in src/early.ts (1 it had before this write still present)",
      );
      expect(touched).not.toContain("2322");
      const added = await write("src/early.ts", `// touched\n${broken}export const later: string = 1;\n`);
      expect(added).toContain("1 new diagnostic in src/early.ts (1 reported earlier still present):");
      expect(added).toMatch(
        /src\/early\.ts:3:\d+ error \[TS2322\] Type 'number' is not assignable to type 'string'/,
      );
      // Never open anywhere: what it had before cannot be read, so nothing is called new.
      const unseen = await write("src/unseen.ts", `// touched\n${broken}`);
      expect(unseen).toContain(
        "1 diagnostic in src/unseen.ts (checked for the first time in this run: some may predate this write):",
      );
      expect(unseen).not.toContain("new diagnostic in src/unseen.ts");
    } finally {
      for (const name of ["early.ts", "unseen.ts"]) {
        await server.registry.invoke(server.run, { tool: "delete", args: { file: `src/${name}` } });
      }
    }
  });

  it("reports an error again once lsp diagnostics showed its file clean, or the file was deleted", async () => {
    const broken = "export const wrong: number = true;\n";
    const write = async (content: string) =>
      resultText(
        await server.registry.invoke(server.run, { tool: "write", args: { file: "src/ledger.ts", content } }),
      );
    expect(await write(broken)).toContain("1 new diagnostic in src/ledger.ts");
    // Fixed behind the wrapper, and shown clean.
    writeFileSync(join(server.dir, "src", "ledger.ts"), "export const wrong: number = 1;\n");
    expect(await text({ action: "diagnostics", file: "src/ledger.ts" })).toBe(
      "no diagnostics in src/ledger.ts",
    );
    expect(await write(broken)).toContain("1 new diagnostic in src/ledger.ts");
    // Deleted, then made again with the same error.
    await server.registry.invoke(server.run, { tool: "delete", args: { file: "src/ledger.ts" } });
    expect(await write(broken)).toContain("1 new diagnostic in src/ledger.ts");
    // The project checker of a later test finds what the fixture had.
    await server.registry.invoke(server.run, { tool: "delete", args: { file: "src/ledger.ts" } });
  });

  it("reports on a later write the new diagnostics a write left out over its bound", async () => {
    const file = join(server.dir, "src", "many.ts");
    // 22 distinct errors (each name unknown): two more than the 20 listed per file.
    const broken = Array.from({ length: 22 }, (_, i) => `export const v${i} = missing${i};`).join("\n");
    const write = async (content: string) =>
      resultText(
        await server.registry.invoke(server.run, { tool: "write", args: { file: "src/many.ts", content } }),
      );
    try {
      const first = await write(`${broken}\n`);
      expect(first).toContain("22 new diagnostics in src/many.ts:");
      expect(first).toContain("… 2 more new diagnostics");
      const again = await write(`// touched\n${broken}\n`);
      expect(again).toContain("2 new diagnostics in src/many.ts (20 reported earlier still present):");
      expect(again.match(/src\/many\.ts:\d+:\d+ error \[TS2304\]/g)).toHaveLength(2);
      expect(await write(`// touched twice\n${broken}\n`)).toContain(
        "no new diagnostics in src/many.ts (22 reported earlier still present)",
      );
    } finally {
      rmSync(file, { force: true });
    }
  });

  it("checks a file against the disk text of the files open beside it, not the server's old copy", async () => {
    // math.ts is open on the server (a hover in it opens it); then a shell command, not a tool,
    // gives add a third parameter. app.ts's diagnostics must see the new signature.
    await text({ action: "hover", file: "src/math.ts", line: 2, symbol: "add" });
    const math = join(server.dir, "src", "math.ts");
    const original = readFileSync(math, "utf8");
    writeFileSync(
      math,
      original.replace("add(a: number, b: number)", "add(a: number, b: number, c: number)"),
    );
    try {
      expect(await text({ action: "diagnostics", file: "src/app.ts" })).toMatch(
        /src\/app\.ts:3:\d+ error \[TS2554\] Expected 3 arguments, but got 2\./,
      );
    } finally {
      writeFileSync(math, original);
    }
    expect(await text({ action: "diagnostics", file: "src/app.ts" })).toBe("no diagnostics in src/app.ts");
  });

  it("closes a file a tool deleted on its server", async () => {
    const file = join(server.dir, "src", "gone.ts");
    await server.invoke("write", { file: "src/gone.ts", content: "export const gone = 1;\n" });
    const client = server.supervisor.runningClients().find((c) => c.spec.language === "typescript")!;
    const uri = pathToFileURL(file).href;
    expect(client.isOpen(uri)).toBe(true);
    await server.invoke("delete", { file: "src/gone.ts" });
    await expect.poll(() => client.isOpen(uri), { timeout: 5_000 }).toBe(false);
  });

  it("does not report on write what lsp diagnostics already showed", async () => {
    const app = join(server.dir, "src", "app.ts");
    const original = readFileSync(app, "utf8");
    const broken = original.replace("add(total, total)", "add(total)");
    writeFileSync(app, broken);
    const shown = await text({ action: "diagnostics", file: "src/app.ts" });
    expect(shown).toMatch(/src\/app\.ts:4:\d+ error \[TS2554\] Expected 2 arguments, but got 1\./);
    const write = async (content: string) =>
      resultText(
        await server.registry.invoke(server.run, { tool: "write", args: { file: "src/app.ts", content } }),
      );
    expect(await write(`${broken}// touched\n`)).toContain(
      "no new diagnostics in src/app.ts (1 reported earlier still present)",
    );
    expect(await write(original)).toContain("src/app.ts: clean (no errors or warnings)");
  });

  it("answers from tsserver: a clean file staying clean, and a file broken by another's edit", async () => {
    // The server publishes nothing when a clean file stays clean, and nothing for a file whose
    // text did not change; the pull from tsserver answers both for the text sent before it.
    const math = join(server.dir, "src", "math.ts");
    const original = readFileSync(math, "utf8");
    const write = async (content: string) =>
      resultText(
        await server.registry.invoke(server.run, { tool: "write", args: { file: "src/math.ts", content } }),
      );
    expect(await text({ action: "diagnostics", file: "src/app.ts" })).toBe("no diagnostics in src/app.ts");
    // "clean" is said only of a fresh answer; a wait for a publish that never comes would end
    // at the bound with "not confirmed".
    const touched = await write(`// touched\n${original}`);
    expect(touched).toContain("src/math.ts: clean (no errors or warnings)");
    expect(touched).not.toMatch(/not (checked|confirmed)/);
    await write(original.replace("add(a: number, b: number)", "add(a: number)"));
    const app = await text({ action: "diagnostics", file: "src/app.ts" });
    expect(app).toMatch(/src\/app\.ts:3:\d+ error \[TS2554\] Expected 1 arguments, but got 2\./);
    await write(original);
    expect(await text({ action: "diagnostics", file: "src/app.ts" })).toBe("no diagnostics in src/app.ts");
  });

  it('runs the project checker for diagnostics "*"', async () => {
    const app = join(server.dir, "src", "app.ts");
    const original = readFileSync(app, "utf8");
    writeFileSync(app, original.replace("add(1, 2)", "add(1)"));
    try {
      const answer = await text({ action: "diagnostics", file: "*" });
      expect(answer).toMatch(/typescript \(tsc --noEmit --pretty false -p .*\): 1 problem\n/);
      expect(answer).toMatch(/src\/app\.ts:3:\d+ error \[TS2554\] Expected 2 arguments, but got 1\./);
    } finally {
      writeFileSync(app, original);
    }
  });

  it("offers code actions for a diagnostic", async () => {
    const app = join(server.dir, "src", "app.ts");
    await server.registry.invoke(server.run, {
      tool: "write",
      args: {
        file: "src/app.ts",
        content: `${readFileSync(app, "utf8")}export const missing = subtract(1, 2);\n`,
      },
    });
    const answer = await text({ action: "code_actions", file: "src/app.ts", line: 7, symbol: "subtract" });
    expect(answer).toMatch(/\[quickfix\]/);
  });

  it("renames across files, all or nothing, listing changed files", async () => {
    const result = await server.registry.invoke(server.run, {
      tool: "lsp_rename",
      args: { file: "src/math.ts", line: 2, symbol: "add", new_name: "sum" },
    });
    const answer = resultText(result);
    expect(result.isError, answer).toBe(false);
    expect(answer).toContain("renamed 'add' to 'sum'");
    expect(answer).toContain("src/math.ts: 1 edit");
    expect(answer).toContain("src/app.ts: 3 edits");
    expect(result.changedFiles.map((file) => file.slice(server.dir.length + 1)).sort()).toEqual([
      "src/app.ts",
      "src/math.ts",
    ]);
    expect(readFileSync(join(server.dir, "src", "math.ts"), "utf8")).toContain("export function sum(");
    expect(readFileSync(join(server.dir, "src", "app.ts"), "utf8")).toContain(
      "export const doubled = sum(total, total);",
    );
    const refs = await text({ action: "references", file: "src/app.ts", line: 4, symbol: "sum" });
    expect(refs).toContain("4 references");
    // Diagnostics on write ran over both files the rename wrote, in one line (nothing new: the
    // rename is clean; app.ts still calls the subtract an earlier test left undefined).
    expect(answer.slice(answer.indexOf("LSP diagnostics after this write:")).split("\n")).toEqual([
      "LSP diagnostics after this write:",
      "1 file clean; 1 with no new diagnostics (1 reported earlier still present): src/app.ts",
    ]);
  });

  it("refuses a rename that would bring errors, naming them, and writes nothing", async () => {
    const names =
      "export function alpha(): number {\n  return 1;\n}\nexport function beta(): number {\n  return 2;\n}\n";
    const written = await server.registry.invoke(server.run, {
      tool: "write",
      args: { file: "src/names.ts", content: names },
    });
    expect(resultText(written)).toContain("src/names.ts: clean (no errors or warnings)");
    const result = await server.registry.invoke(server.run, {
      tool: "lsp_rename",
      args: { file: "src/names.ts", line: 4, symbol: "beta", new_name: "alpha" },
    });
    const answer = resultText(result);
    expect(result.error?.code, answer).toBe("LSP_RENAME_CLASH");
    // Two declarations of alpha: TS2393 and TS2323 on each, found on the server before writing.
    expect(answer).toContain(
      "- src/names.ts:4:17 error [TS2393] Duplicate function implementation. (typescript) — the line would read: export function alpha(): number {",
    );
    expect(readFileSync(join(server.dir, "src", "names.ts"), "utf8")).toBe(names);
    rmSync(join(server.dir, "src", "names.ts"));
  });

  it("refuses a rename the server says is not renamable, writing nothing", async () => {
    const before = readFileSync(join(server.dir, "src", "app.ts"), "utf8");
    const result = await server.registry.invoke(server.run, {
      tool: "lsp_rename",
      args: { file: "src/app.ts", line: 3, symbol: "export", new_name: "exported" },
    });
    expect(result.error?.code).toBe("LSP_RENAME_FAILED");
    expect(resultText(result)).toContain("nothing was written");
    expect(readFileSync(join(server.dir, "src", "app.ts"), "utf8")).toBe(before);
  });

  it("refuses a new name that is not an identifier, writing nothing", async () => {
    const before = readFileSync(join(server.dir, "src", "app.ts"), "utf8");
    const result = await server.registry.invoke(server.run, {
      tool: "lsp_rename",
      args: { file: "src/app.ts", line: 3, symbol: "total", new_name: "1bad" },
    });
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain(
      "'1bad' is not a typescript identifier (a letter, _ or $ first, then letters, digits, _ or $)",
    );
    const keyword = await server.registry.invoke(server.run, {
      tool: "lsp_rename",
      args: { file: "src/app.ts", line: 3, symbol: "total", new_name: "class" },
    });
    expect(resultText(keyword)).toContain("'class' is a reserved word in typescript");
    const same = await server.registry.invoke(server.run, {
      tool: "lsp_rename",
      args: { file: "src/app.ts", line: 3, symbol: "total", new_name: "total" },
    });
    expect(same.error?.code).toBe("LSP_BAD_ARGUMENTS");
    expect(resultText(same)).toBe(
      "new_name 'total' is the name it has already: nothing to rename; nothing was written.",
    );
    expect(readFileSync(join(server.dir, "src", "app.ts"), "utf8")).toBe(before);
  });

  it("refuses a symbol that holds no name (spaces, brackets, a dot) instead of answering for a token next to it", async () => {
    for (const symbol of [" ", ".", "(", "();"]) {
      const result = await server.registry.invoke(server.run, {
        tool: "lsp",
        args: { action: "definition", file: "src/app.ts", line: 4, symbol },
      });
      expect(result.error?.code, JSON.stringify(symbol)).toBe("LSP_BAD_ARGUMENTS");
      expect(resultText(result)).toBe(
        `symbol ${JSON.stringify(symbol)} holds no name: give the identifier (or operator) to ask about, as written on line 4, e.g. 'parseConfig' or 'config.port'`,
      );
    }
    // A symbol or query the size of a file is refused as such, not echoed back whole.
    const huge = await server.registry.invoke(server.run, {
      tool: "lsp",
      args: { action: "symbols", query: "q".repeat(100_000) },
    });
    expect(huge.isError).toBe(true);
    expect(resultText(huge)).toContain("query: Too big: expected string to have <=1000 characters");
    expect(resultText(huge).length).toBeLessThan(1_000);
  });

  it("refuses to rename a substring of a longer identifier, writing nothing", async () => {
    const before = readFileSync(join(server.dir, "src", "app.ts"), "utf8");
    const result = await server.registry.invoke(server.run, {
      tool: "lsp_rename",
      args: { file: "src/app.ts", line: 3, symbol: "tot", new_name: "grand" },
    });
    expect(result.error?.code).toBe("LSP_SYMBOL_NOT_FOUND");
    expect(resultText(result)).toContain("the nearest match is 'total'");
    expect(readFileSync(join(server.dir, "src", "app.ts"), "utf8")).toBe(before);
  });

  it("re-syncs open files changed on disk behind the server: references and rename see the new text", async () => {
    // app.ts is open on the server (the definition opens it); then a shell command, not a tool,
    // adds a use of Square to it.
    await text({ action: "definition", file: "src/app.ts", line: 5, symbol: "Square" });
    const app = join(server.dir, "src", "app.ts");
    const before = readFileSync(app, "utf8");
    writeFileSync(app, `${before}export const second = new Square(2);\n`);
    const added = before.split("\n").length;
    const refs = await text({ action: "references", file: "src/math.ts", line: 10, symbol: "Square" });
    expect(refs).toContain(`src/app.ts:${added}:27  export const second = new Square(2);`);
    const result = await server.registry.invoke(server.run, {
      tool: "lsp_rename",
      args: { file: "src/math.ts", line: 10, symbol: "Square", new_name: "Box" },
    });
    expect(result.isError, resultText(result)).toBe(false);
    expect(readFileSync(app, "utf8")).toContain("export const second = new Box(2);");
    expect(readFileSync(app, "utf8")).toContain("const square: Box = new Box(3);");
  });

  it("refuses a rename whose name means two symbols on its line, or another line's, and takes text around it", async () => {
    const file = join(server.dir, "src", "counter.ts");
    const source =
      "export class Counter {\n  count = 0;\n  set(count: number): void {\n    this.count = count;\n  }\n}\n";
    writeFileSync(file, source);
    const rename = (line: number, symbol: string) =>
      server.registry.invoke(server.run, {
        tool: "lsp_rename",
        args: { file: "src/counter.ts", line, symbol, new_name: "value" },
      });
    try {
      const ambiguous = await rename(4, "count");
      expect(ambiguous.error?.code).toBe("LSP_SYMBOL_NOT_FOUND");
      expect(resultText(ambiguous)).toContain(
        "'count' occurs 2 times on line 4, and they are different symbols: renaming the one at column 10 would leave the one at column 18. Give text around the one meant (e.g. symbol 'count;' for the one at column 18, or '.count' for the one at column 10); nothing was written.",
      );
      const nearby = await rename(1, "set");
      expect(resultText(nearby)).toContain(
        "'set' is not on line 1; it is on line 3. A rename uses the exact line",
      );
      expect(readFileSync(file, "utf8")).toBe(source);
      const parameter = await rename(4, "= count");
      expect(resultText(parameter)).toContain("renamed 'count' to 'value': 2 edits in 1 file");
      expect(readFileSync(file, "utf8")).toBe(
        source.replace("set(count", "set(value").replace("= count", "= value"),
      );
    } finally {
      rmSync(file, { force: true });
    }
  });

  it("checks a file against a module created just before: its missing import is not reported", async () => {
    writeFileSync(
      join(server.dir, "src", "needs-helper.ts"),
      'import { helper } from "./helper-made-later.js";\nexport const used = helper();\n',
    );
    expect(await text({ action: "diagnostics", file: "src/needs-helper.ts" })).toContain(
      "Cannot find module './helper-made-later.js'",
    );
    writeFileSync(
      join(server.dir, "src", "helper-made-later.ts"),
      "export const helper = (): number => 1;\n",
    );
    expect(await text({ action: "diagnostics", file: "src/needs-helper.ts" })).toBe(
      "no diagnostics in src/needs-helper.ts",
    );
  });

  it("finds references in files created just before the call", async () => {
    // tsserver takes a new file into its project a second after its folder's last change.
    expect(await text({ action: "symbols", file: "src/app.ts" })).toMatch(/^\d+ symbols in src\/app\.ts:/);
    writeFileSync(join(server.dir, "src", "made.ts"), "export const madeValue = 1;\n");
    writeFileSync(
      join(server.dir, "src", "made-user.ts"),
      'import { madeValue } from "./made.js";\nexport const twiceMade = madeValue * 2;\n',
    );
    expect(await text({ action: "references", file: "src/made.ts", line: 1, symbol: "madeValue" })).toBe(
      [
        "3 references of 'madeValue':",
        'src/made-user.ts:1:10  import { madeValue } from "./made.js";',
        "src/made-user.ts:2:26  export const twiceMade = madeValue * 2;",
        "src/made.ts:1:14  export const madeValue = 1;",
      ].join("\n"),
    );
    // And a rename reaches a file created after that search.
    writeFileSync(
      join(server.dir, "src", "made-late.ts"),
      'import { madeValue } from "./made.js";\nmadeValue;\n',
    );
    expect(
      resultText(
        await server.registry.invoke(server.run, {
          tool: "lsp_rename",
          args: { file: "src/made.ts", line: 1, symbol: "madeValue", new_name: "builtValue" },
        }),
      ),
    ).toMatch(/^renamed 'madeValue' to 'builtValue': 5 edits in 3 files/);
    expect(readFileSync(join(server.dir, "src", "made-late.ts"), "utf8")).toBe(
      'import { builtValue } from "./made.js";\nbuiltValue;\n',
    );
  });

  it("answers for the next occurrence of a name on its line when the first has nothing, and says which it used", async () => {
    writeFileSync(
      join(server.dir, "src", "twice.ts"),
      [
        "export function tool(name: string): string {",
        "  return name;",
        "}",
        'export const label = "tool" + tool("x");',
        "export class Counter {",
        "  count = 0;",
        "  set(count: number) {",
        "    this.count = count;",
        "  }",
        "}",
        "",
      ].join("\n"),
    );
    // The first 'tool' on line 4 is a word in a string: the one in code is asked about first.
    expect(await text({ action: "definition", file: "src/twice.ts", line: 4, symbol: "tool" })).toBe(
      ["1 definition of 'tool':", "src/twice.ts:1:17  export function tool(name: string): string {"].join(
        "\n",
      ),
    );
    // Both occurrences mean something: the answer says which one it is for, and how to pick the other.
    const references = await text({ action: "references", file: "src/twice.ts", line: 8, symbol: "count" });
    expect(references.split("\n")[0]).toBe(
      "'count' occurs 2 times on line 8; answered for the one at column 10; for another, give text around it as symbol (e.g. 'count;' for the one at column 18)",
    );
    expect(references).toContain("src/twice.ts:6:3  count = 0;");
    expect(
      (await text({ action: "references", file: "src/twice.ts", line: 8, symbol: "= count" })).split("\n")[0],
    ).toBe("2 references of '= count':");
  });

  it("renames from a use in an importing file everywhere, not by adding an alias to its import", async () => {
    writeFileSync(
      join(server.dir, "src", "greeting.ts"),
      'export function greet(): string {\n  return "hi";\n}\n',
    );
    writeFileSync(
      join(server.dir, "src", "caller.ts"),
      'import { greet } from "./greeting.js";\nexport const said = greet();\nexport const again = async () => { const { greet: g } = await import("./greeting.js"); const { greet } = await import("./greeting.js"); return g() + greet(); };\n',
    );
    const answer = resultText(
      await server.registry.invoke(server.run, {
        tool: "lsp_rename",
        args: { file: "src/caller.ts", line: 2, symbol: "greet", new_name: "welcome" },
      }),
    );
    expect(answer).toMatch(/^renamed 'greet' to 'welcome': \d+ edits in 2 files/);
    expect(readFileSync(join(server.dir, "src", "greeting.ts"), "utf8")).toContain(
      "export function welcome()",
    );
    expect(readFileSync(join(server.dir, "src", "caller.ts"), "utf8")).toBe(
      'import { welcome } from "./greeting.js";\nexport const said = welcome();\nexport const again = async () => { const { welcome: g } = await import("./greeting.js"); const { welcome } = await import("./greeting.js"); return g() + welcome(); };\n',
    );
  });

  it("points a dotted symbol at its last name, and a rename of one refuses", async () => {
    const answer = await text({ action: "definition", file: "src/app.ts", line: 6, symbol: "square.area" });
    expect(answer).toContain("'square.area' holds 2 names; used 'area', the last");
    expect(answer).toContain("src/math.ts:12:3  area(): number {");
    const result = await server.registry.invoke(server.run, {
      tool: "lsp_rename",
      args: { file: "src/app.ts", line: 6, symbol: "square.area", new_name: "size" },
    });
    expect(result.error?.code).toBe("LSP_SYMBOL_NOT_FOUND");
    expect(resultText(result)).toBe(
      "'square.area' holds 2 names; give the one identifier to rename (e.g. 'area'; a member alone: 'port', not 'config.port').",
    );
    expect(readFileSync(join(server.dir, "src", "math.ts"), "utf8")).toContain("  area(): number {");
  });

  it("restarts a crashed server on the next use and reports the crash in status", async () => {
    const before = server.supervisor.processes().find((p) => p.language === "typescript");
    expect(before?.pid).toBeDefined();
    process.kill(-before!.pid!, "SIGKILL");
    await expect.poll(() => server.supervisor.processes()[0]?.state, { timeout: 10_000 }).toBe("crashed");
    expect(await text({ action: "status" })).toMatch(
      /typescript: root \. .*state crashed, reason: exited on SIGKILL/,
    );
    const answer = await text({ action: "definition", file: "src/app.ts", line: 4, symbol: "total" });
    expect(answer).toContain("src/app.ts:3:14");
    const after = server.supervisor.processes().find((p) => p.language === "typescript");
    expect(after?.state).toBe("running");
    expect(after?.pid).not.toBe(before?.pid);
  });
});

describe.skipIf(!found && !ci)("lsp diagnostics before typescript-language-server answered", () => {
  it("says the diagnostics are not known yet, never 'no diagnostics', when no answer came for the version", async () => {
    expect(found, `typescript-language-server missing in ${packageBin}`).toBe(true);
    // A script outside tsconfig's include: tsserver loads an inferred project for it first.
    const tree = tempTree("ts-unanswered", {
      "package.json": '{ "name": "unanswered", "private": true }\n',
      "tsconfig.json": '{ "compilerOptions": { "strict": true, "noEmit": true }, "include": ["src"] }\n',
      "src/main.ts": "export const main = 1;\n",
      "scripts/tool.ts": 'const x: number = "a";\nexport {};\n',
    });
    const run = createRun({ workingDirectory: tree.dir });
    // A 1 ms bound stands in for a cold server still loading its project: no answer can come
    // for the version within it (the answer below shows the file does have an error).
    const supervisor = createLspSupervisor(run, { binDirectories: [packageBin], diagnosticsTimeoutMs: 1 });
    const registry = createRegistry({ tools: [lspTool], approval: "auto" });
    try {
      const first = resultText(
        await registry.invoke(run, { tool: "lsp", args: { action: "diagnostics", file: "scripts/tool.ts" } }),
      );
      expect(first).toBe(
        "diagnostics of scripts/tool.ts not known yet: the server did not answer for this version within 1 ms (it may still be loading the project); ask again",
      );
      expect(first).not.toContain("no diagnostics");
      const answered = await supervisor.diagnostics(join(tree.dir, "scripts", "tool.ts"), {
        timeoutMs: 60_000,
      });
      expect(answered.fresh).toBe(true);
      expect(answered.diagnostics.map((d) => d.code)).toContain(2322);
    } finally {
      await run.dispose();
      tree.remove();
    }
  });
});
