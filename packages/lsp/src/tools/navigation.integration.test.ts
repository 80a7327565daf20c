import { createRegistry, createRun, resultText, type Run } from "@tools/registry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { referencesLimit } from "../actions/navigation.js";
import { documentSymbolsLimit } from "../actions/symbols.js";
import { findBinary } from "../servers/find-binary.js";
import { createLspSupervisor, type LspSupervisor } from "../supervisor/supervisor.js";
import { ci, groupGoneWithin, tempTree } from "../test-support/fixtures.js";
import { useServerFixture } from "../test-support/server-suite.js";
import { lspTool } from "./lsp-tool.js";

/** Navigation actions on gopls and clangd (definition and diagnostics: gopls-clangd.integration.test.ts). */
function requireServer(command: string): boolean {
  const found = findBinary(command, [], []).found;
  beforeAll(() => {
    expect(found, `${command} not found on PATH`).toBe(true);
  });
  return found;
}

describe.skipIf(!findBinary("gopls", [], []).found && !ci)("navigation on gopls", () => {
  requireServer("gopls");
  const { text } = useServerFixture({
    fixture: "go-project",
    server: "gopls",
    tools: [lspTool],
    diagnosticsTimeoutMs: 20_000,
    expectProcesses: true,
  });

  it("lists references of a type and of a method", async () => {
    expect(await text({ action: "references", file: "shapes.go", line: 6, symbol: "Shape" })).toBe(
      [
        "3 references of 'Shape':",
        "shapes.go:6:6  type Shape interface {",
        "shapes.go:20:21  func total(shapes []Shape) float64 {",
        "shapes.go:28:20  var unit = total([]Shape{Circle{Radius: 1}})",
      ].join("\n"),
    );
    expect(await text({ action: "references", file: "shapes.go", line: 16, symbol: "Area" })).toBe(
      [
        "2 references of 'Area':",
        "shapes.go:16:17  func (c Circle) Area() float64 {",
        "shapes.go:23:16  sum += shape.Area()",
      ].join("\n"),
    );
  });

  it("gives hover with the declaration and doc comment", async () => {
    const answer = await text({ action: "hover", file: "shapes.go", line: 28, symbol: "Circle" });
    expect(answer).toContain("type Circle struct {\n\tRadius float64\n}");
    expect(answer).toContain("Circle is a round Shape.");
  });

  it("finds implementations of an interface and of its method, and a type definition", async () => {
    expect(await text({ action: "implementation", file: "shapes.go", line: 6, symbol: "Shape" })).toBe(
      "1 implementation of 'Shape':\nshapes.go:11:6  type Circle struct {",
    );
    expect(await text({ action: "implementation", file: "shapes.go", line: 7, symbol: "Area" })).toBe(
      "1 implementation of 'Area':\nshapes.go:16:17  func (c Circle) Area() float64 {",
    );
    expect(await text({ action: "type_definition", file: "shapes.go", line: 22, symbol: "shape" })).toBe(
      "1 type definition of 'shape':\nshapes.go:6:6  type Shape interface {",
    );
  });

  it("lists document symbols with their members, and searches workspace symbols", async () => {
    expect(await text({ action: "symbols", file: "shapes.go" })).toBe(
      [
        "7 symbols in shapes.go:",
        "interface Shape interface{...}  :6",
        "  method Area func() float64  :7",
        "struct Circle struct{...}  :11",
        "  field Radius float64  :12",
        "method (Circle).Area func() float64  :16",
        "function total func(shapes []Shape) float64  :20",
        "variable unit  :28",
      ].join("\n"),
    );
    const search = await text({ action: "symbols", query: "Circle", file: "main.go" });
    expect(search).toContain("struct Circle (in example.com/fixture)  shapes.go:11:6  type Circle struct {");
    expect(search).toContain("method Circle.Area (in example.com/fixture)  shapes.go:16:17");
    // gopls also searches the standard library, fuzzily: the project's symbols come first, the
    // library's follow with absolute paths when their names hold the query, the rest are counted.
    const area = (await text({ action: "symbols", query: "Area", file: "main.go" })).split("\n");
    expect(area[0]).toMatch(
      /^\d+ symbols match 'Area' \(\d+ outside the working directory, listed after the project's close matches; \d+ loose matches there not listed\):$/,
    );
    expect(area.slice(1, 3).sort()).toEqual([
      "method Circle.Area (in example.com/fixture)  shapes.go:16:17  func (c Circle) Area() float64 {",
      "method Shape.Area (in example.com/fixture)  shapes.go:7:2  Area() float64",
    ]);
    const library = area.slice(3);
    expect(library.length).toBeGreaterThan(0);
    for (const row of library) expect(row).toMatch(/^\S+ \S*AREA\S* \(in [^)]+\) {2}\/\S+\.go:\d+:\d+ {2}/i);
    // The query is taken trimmed: a stray space does not make every name a loose match.
    expect(await text({ action: "symbols", query: " greet ", file: "main.go" })).toMatch(
      /^1 symbol matches 'greet'( \(\d+ loose matches outside the working directory not listed\))?:\nfunction greet \(in example\.com\/fixture\) {2}main\.go:5:6 {2}func greet\(name string\) string \{$/,
    );
  });
});

describe.skipIf(!findBinary("clangd", [], []).found && !ci)("navigation on clangd", () => {
  requireServer("clangd");
  const { text } = useServerFixture({
    fixture: "c-project",
    server: "clangd",
    tools: [lspTool],
    diagnosticsTimeoutMs: 20_000,
    expectProcesses: true,
  });

  it("lists references, gives hover and document symbols", async () => {
    expect(await text({ action: "references", file: "main.c", line: 1, symbol: "twice" })).toBe(
      "2 references of 'twice':\nmain.c:1:12  static int twice(int value) {\nmain.c:6:10  return twice(21) - 42;",
    );
    const hover = await text({ action: "hover", file: "main.c", line: 6, symbol: "twice" });
    expect(hover).toContain("function `twice`");
    expect(hover).toContain("static int twice(int value)");
    expect(await text({ action: "symbols", file: "main.c" })).toBe(
      "2 symbols in main.c:\nfunction twice int (int)  :1\nfunction main int (void)  :5",
    );
  });
});

describe.skipIf(!findBinary("clangd", [], []).found && !ci)("result limits (clangd)", () => {
  requireServer("clangd");
  // One function used by 210 others: 211 references and 211 document symbols.
  const uses = 210;
  const source = [
    "static int used(int value) { return value; }",
    ...Array.from({ length: uses }, (_, i) => `int f${i}(void) { return used(${i}); }`),
    "",
  ].join("\n");
  let tree: ReturnType<typeof tempTree>;
  let run: Run;
  let supervisor: LspSupervisor;
  const registry = createRegistry({ tools: [lspTool] });
  const lsp = async (args: Record<string, unknown>) =>
    resultText(await registry.invoke(run, { tool: "lsp", args }));
  beforeAll(() => {
    tree = tempTree("limits", { "compile_flags.txt": "-std=c11\n", "many.c": source });
    run = createRun({ workingDirectory: tree.dir });
    supervisor = createLspSupervisor(run, { diagnosticsTimeoutMs: 20_000 });
  });
  afterAll(async () => {
    const pids = supervisor.processes().flatMap((p) => (p.pid ? [p.pid] : []));
    await run.dispose();
    tree.remove();
    expect(pids).toHaveLength(1);
    for (const pid of pids) expect(await groupGoneWithin(pid)).toBe(true);
  });

  it(`lists at most ${referencesLimit} references and says how many more`, async () => {
    const lines = (await lsp({ action: "references", file: "many.c", line: 1, symbol: "used" })).split("\n");
    expect(lines[0]).toBe(`${uses + 1} references of 'used':`);
    expect(lines.slice(1, -1)).toHaveLength(referencesLimit);
    expect(lines[1]).toBe("many.c:1:12  static int used(int value) { return value; }");
    expect(lines.at(-1)).toBe(`… ${uses + 1 - referencesLimit} more references`);
  });

  it(`lists at most ${documentSymbolsLimit} document symbols and says how many more`, async () => {
    const lines = (await lsp({ action: "symbols", file: "many.c" })).split("\n");
    expect(lines[0]).toBe(`${uses + 1} symbols in many.c:`);
    expect(lines.slice(1, -1)).toHaveLength(documentSymbolsLimit);
    expect(lines[1]).toBe("function used int (int)  :1");
    expect(lines.at(-1)).toBe(`… ${uses + 1 - documentSymbolsLimit} more symbols`);
  });
});
