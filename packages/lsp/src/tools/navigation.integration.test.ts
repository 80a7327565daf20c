import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRegistry, createRun, resultText, type Run } from "@tools/registry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { referencesLimit } from "../actions/navigation.js";
import { documentSymbolsLimit, workspaceSymbolsLimit } from "../actions/symbols.js";
import { findBinary } from "../servers/find-binary.js";
import { createLspSupervisor, type LspSupervisor } from "../supervisor/supervisor.js";
import { ci, groupGoneWithin, packageBin, tempTree } from "../test-support/fixtures.js";
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
  const goFixture = useServerFixture({
    fixture: "go-project",
    server: "gopls",
    tools: [lspTool],
    diagnosticsTimeoutMs: 20_000,
    expectProcesses: true,
  });
  const { text } = goFixture;

  it("finds references in a package created after the server started", async () => {
    const dir = goFixture.dir;
    // The server running, two packages appear on disk (gopls loads a package found in a new
    // folder only once one of its files is opened: before, the use was never found).
    expect(await text({ action: "definition", file: "main.go", line: 10, symbol: "greet" })).toMatch(
      /^1 definition/,
    );
    mkdirSync(join(dir, "lib"));
    mkdirSync(join(dir, "use"));
    writeFileSync(join(dir, "lib", "lib.go"), "package lib\n\nfunc Helper() int { return 1 }\n");
    writeFileSync(
      join(dir, "use", "use.go"),
      'package use\n\nimport "example.com/fixture/lib"\n\nvar X = lib.Helper()\n',
    );
    expect(await text({ action: "references", file: "lib/lib.go", line: 3, symbol: "Helper" })).toBe(
      [
        "2 references of 'Helper':",
        "lib/lib.go:3:6  func Helper() int { return 1 }",
        "use/use.go:5:13  var X = lib.Helper()",
      ].join("\n"),
    );
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
    // Asked about a concrete type or its method, gopls answers with the interfaces it implements.
    expect(await text({ action: "implementation", file: "shapes.go", line: 11, symbol: "Circle" })).toBe(
      "1 interface 'Circle' implements:\nshapes.go:6:6  type Shape interface {",
    );
    expect(await text({ action: "implementation", file: "shapes.go", line: 16, symbol: "Area" })).toBe(
      "1 interface method 'Area' implements:\nshapes.go:7:2  Area() float64",
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

describe.skipIf(!findBinary("clangd", [], []).found && !ci)("workspace symbols on a fresh clangd", () => {
  requireServer("clangd");
  // clangd (--background-index=false) indexes an open file only once its AST is built, which
  // didOpen does not wait for: the query itself must wait for the file's analysis.
  const fixture = useServerFixture({
    fixture: "c-project",
    server: "clangd",
    tools: [lspTool],
    diagnosticsTimeoutMs: 20_000,
    expectProcesses: true,
  });

  it("finds a name of the file on the first query, with file", async () => {
    expect(await fixture.text({ action: "symbols", query: "twice", file: "main.c" })).toBe(
      "1 symbol matches 'twice':\nfunction twice  main.c:1:12  static int twice(int value) {",
    );
  });

  it("finds a name of a file just opened, without file", async () => {
    // Opened (by a rename or a write, say) but not analysed yet: a query to all running servers.
    await fixture.supervisor.open(join(fixture.dir, "checked.c"));
    expect(await fixture.text({ action: "symbols", query: "demo" })).toBe(
      "1 symbol matches 'demo':\nfunction demo  checked.c:2:5  int demo(void) {",
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
  const lsp = useTempTree("limits", { "compile_flags.txt": "-std=c11\n", "many.c": source });

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

/** A run with a supervisor on a temp tree, disposed (every server group gone) after the suite. */
function useTempTree(name: string, files: Readonly<Record<string, string>>, binDirectories: string[] = []) {
  let tree: ReturnType<typeof tempTree>;
  let run: Run;
  let supervisor: LspSupervisor;
  const registry = createRegistry({ tools: [lspTool] });
  beforeAll(() => {
    tree = tempTree(name, files);
    run = createRun({ workingDirectory: tree.dir });
    supervisor = createLspSupervisor(run, { diagnosticsTimeoutMs: 20_000, binDirectories });
  });
  afterAll(async () => {
    const pids = supervisor.processes().flatMap((p) => (p.pid ? [p.pid] : []));
    await run.dispose();
    tree.remove();
    expect(pids).toHaveLength(1);
    for (const pid of pids) expect(await groupGoneWithin(pid)).toBe(true);
  });
  return async (args: Record<string, unknown>) =>
    resultText(await registry.invoke(run, { tool: "lsp", args }));
}

describe.skipIf(!findBinary("clangd", [], []).found && !ci)(
  "type definition, implementation and workspace symbols on clangd",
  () => {
    requireServer("clangd");
    const lsp = useTempTree("clangd-nav", {
      "compile_flags.txt": "-std=c++17\n",
      "shapes.cpp": [
        "struct Point {",
        "  int x;",
        "};",
        "",
        "struct Shape {",
        "  virtual ~Shape() = default;",
        "  virtual int area() const = 0;",
        "};",
        "",
        "struct Square : Shape {",
        "  int side = 2;",
        "  int area() const override { return side * side; }",
        "};",
        "",
        "int main() {",
        "  Point origin{0};",
        "  Square square;",
        "  const Shape &shape = square;",
        "  return shape.area() + origin.x;",
        "}",
        "",
      ].join("\n"),
    });

    it("type_definition of a variable is its struct", async () => {
      expect(await lsp({ action: "type_definition", file: "shapes.cpp", line: 16, symbol: "origin" })).toBe(
        "1 type definition of 'origin':\nshapes.cpp:1:8  struct Point {",
      );
      // Through a reference to the base: the declared type, not the object's dynamic type.
      expect(await lsp({ action: "type_definition", file: "shapes.cpp", line: 19, symbol: "shape" })).toBe(
        "1 type definition of 'shape':\nshapes.cpp:5:8  struct Shape {",
      );
    });

    it("implementation of a virtual method is its override, of a base class its subclass", async () => {
      expect(await lsp({ action: "implementation", file: "shapes.cpp", line: 7, symbol: "area" })).toBe(
        "1 implementation of 'area':\nshapes.cpp:12:7  int area() const override { return side * side; }",
      );
      expect(await lsp({ action: "implementation", file: "shapes.cpp", line: 5, symbol: "Shape" })).toBe(
        "1 implementation of 'Shape':\nshapes.cpp:10:8  struct Square : Shape {",
      );
    });

    it("workspace symbols with a query list each match with its container and line", async () => {
      const area = (await lsp({ action: "symbols", query: "area", file: "shapes.cpp" })).split("\n");
      expect(area[0]).toBe("2 symbols match 'area':");
      expect(area.slice(1).sort()).toEqual([
        "method area (in Shape)  shapes.cpp:7:15  virtual int area() const = 0;",
        "method area (in Square)  shapes.cpp:12:7  int area() const override { return side * side; }",
      ]);
      expect(await lsp({ action: "symbols", query: "Square", file: "shapes.cpp" })).toBe(
        "1 symbol matches 'Square':\nclass Square  shapes.cpp:10:8  struct Square : Shape {",
      );
      expect(await lsp({ action: "symbols", query: "nosuchname", file: "shapes.cpp" })).toBe(
        "no workspace symbols match 'nosuchname'",
      );
    });
  },
);

const pyright = existsSync(join(packageBin, "pyright-langserver"));

describe.skipIf(!pyright && !ci)("workspace symbols limit (pyright)", () => {
  beforeAll(() => {
    expect(pyright, `pyright-langserver missing in ${packageBin}; run pnpm install`).toBe(true);
  });
  // pyright returns every match (clangd and gopls stop at 100 themselves), so the tool's own
  // bound is what cuts this list.
  const functions = workspaceSymbolsLimit + 30;
  const lsp = useTempTree(
    "workspace-symbols-limit",
    {
      "pyproject.toml": "",
      "many.py": Array.from({ length: functions }, (_, i) => `def foo${i}():\n    return ${i}\n`).join("\n"),
    },
    [packageBin],
  );

  it(`lists at most ${workspaceSymbolsLimit} workspace symbols and says how many more`, async () => {
    const lines = (await lsp({ action: "symbols", query: "foo", file: "many.py" })).split("\n");
    expect(lines[0]).toBe(`${functions} symbols match 'foo':`);
    const rows = lines.slice(1, -1);
    expect(rows).toHaveLength(workspaceSymbolsLimit);
    for (const row of rows) {
      const [, name, line] = /^function (foo\d+) {2}many\.py:(\d+):5 {2}def \1\(\):$/.exec(row) ?? [];
      expect(name, row).toBeDefined();
      // Each row quotes its own definition: foo<i> is on line 3i+1.
      expect(Number(line)).toBe(3 * Number(name!.slice(3)) + 1);
    }
    expect(new Set(rows).size).toBe(workspaceSymbolsLimit);
    expect(lines.at(-1)).toBe(`… ${functions - workspaceSymbolsLimit} more symbols`);
  });
});
