import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { createRegistry, createRun, resultText, type ToolResult } from "@tools/registry";
import { describe, expect, it } from "vitest";
import { findBinary } from "../servers/find-binary.js";
import { createLspSupervisor } from "../supervisor/supervisor.js";
import { ci, packageBin, tempTree } from "../test-support/fixtures.js";
import { lspRenameTool } from "./lsp-rename-tool.js";
import { lspTool } from "./lsp-tool.js";

/**
 * A name asked about where a comment or a string names it: on the asked line (the nearby lines
 * are tried, as for a name not on the line), or next to it (the line where it is code is used).
 */
async function withTree(
  files: Record<string, string>,
  use: (
    call: (tool: string, args: Record<string, unknown>) => Promise<ToolResult>,
    dir: string,
  ) => Promise<void>,
): Promise<void> {
  const tree = tempTree("comments", files);
  const run = createRun({ workingDirectory: tree.dir });
  createLspSupervisor(run, { diagnosticsTimeoutMs: 20_000, binDirectories: [packageBin] });
  const registry = createRegistry({ tools: [lspTool, lspRenameTool], approval: "auto" });
  try {
    await use((tool, args) => registry.invoke(run, { tool, args }), tree.dir);
  } finally {
    await run.dispose();
    tree.remove();
  }
}

const util = [
  "export interface Shape {",
  "  area(): number;",
  "}",
  "export class Square implements Shape {",
  "  constructor(public side: number) {}",
  "  area(): number { return this.side * this.side; }",
  "}",
  "",
  "export function describe(shape: Shape): string {",
  "  // describe returns the label of a shape",
  '  const label = "shape area";',
  "  return `${label}: ${shape.area()}`;",
  "}",
  "",
].join("\n");

const tsProject = {
  "package.json": '{ "name": "comments", "private": true }\n',
  "tsconfig.json": '{ "compilerOptions": { "strict": true, "noEmit": true } }\n',
  "src/util.ts": util,
  "src/labels.ts": 'export const first = "alpha";\n',
};

describe.skipIf(!existsSync(join(packageBin, "typescript-language-server")) && !ci)(
  "a name in a comment or string on typescript-language-server",
  () => {
    it("takes the nearby line where the name is code, not a nearer comment naming it", async () => {
      await withTree(tsProject, async (call, dir) => {
        const lsp = async (args: Record<string, unknown>) => resultText(await call("lsp", args));
        const used =
          "'describe' is not on line 11; used line 9: export function describe(shape: Shape): string {";
        expect(
          (await lsp({ action: "definition", file: "src/util.ts", line: 11, symbol: "describe" })).split(
            "\n",
          ),
        ).toEqual([
          used,
          "1 definition of 'describe':",
          "src/util.ts:9:17  export function describe(shape: Shape): string {",
        ]);
        const hover = await lsp({ action: "hover", file: "src/util.ts", line: 11, symbol: "describe" });
        expect(hover.split("\n")[0]).toBe(used);
        expect(hover).toContain("function describe(shape: Shape): string");
        // A rename names the line to call again with: the declaration's, not the comment's.
        const renamed = await call("lsp_rename", {
          file: "src/util.ts",
          line: 11,
          symbol: "describe",
          new_name: "summarize",
        });
        expect(renamed.error?.code).toBe("LSP_SYMBOL_NOT_FOUND");
        expect(resultText(renamed)).toContain("'describe' is not on line 11; it is on line 9.");
        expect(readFileSync(join(dir, "src", "util.ts"), "utf8")).toBe(util);
      });
    });

    it("answers for the nearby code when the name is on the asked line only in a string literal", async () => {
      await withTree(tsProject, async (call) => {
        const lsp = async (args: Record<string, unknown>) => resultText(await call("lsp", args));
        const at = { file: "src/util.ts", line: 11, symbol: "shape" };
        const moved = (noun: string) =>
          `'shape' is on line 11 only in a comment or string, where the server found no ${noun}; used line 12: return \`\${label}: \${shape.area()}\`;`;
        const parameter = "src/util.ts:9:26  export function describe(shape: Shape): string {";
        expect((await lsp({ action: "definition", ...at })).split("\n")).toEqual([
          moved("definition"),
          "1 definition of 'shape':",
          parameter,
        ]);
        expect((await lsp({ action: "type_definition", ...at })).split("\n")).toEqual([
          moved("type definition"),
          "1 type definition of 'shape':",
          "src/util.ts:1:18  export interface Shape {",
        ]);
        const hover = await lsp({ action: "hover", ...at });
        expect(hover.split("\n")[0]).toBe(moved("hover information"));
        expect(hover).toContain("shape: Shape");
        // The server lists the string literal as the one reference: it is no use of the name.
        expect((await lsp({ action: "references", ...at })).split("\n")).toEqual([
          moved("reference"),
          "2 references of 'shape':",
          parameter,
          "src/util.ts:12:23  return `${label}: ${shape.area()}`;",
        ]);
        // With no code nearby, nothing found, and why the server's answer was not listed.
        expect(await lsp({ action: "references", file: "src/labels.ts", line: 1, symbol: "alpha" })).toBe(
          "no reference found for 'alpha' at src/labels.ts:1:23; the server listed only the string literal asked at, which is no use of it",
        );
      });
    });
  },
);

describe.skipIf(!existsSync(join(packageBin, "typescript-language-server")) && !ci)(
  "a name in a comment or string running over lines, on typescript-language-server",
  () => {
    const files = {
      ...tsProject,
      "src/calls.ts": [
        "export function helper(): number {",
        "  return 1;",
        "}",
        "/*",
        " helper",
        " */",
        "export const b = helper();",
        'const msg = "b"; export const c = b;',
        "const re = /x/g; re.lastIndex++ / 2; // helper",
        "const spacer = 1;",
        "export const d = helper() + spacer + re.lastIndex + msg.length;",
        "",
      ].join("\n"),
    };

    it("takes a line inside a block comment for no code, and tries the next line when the server finds nothing", async () => {
      await withTree(files, async (call) => {
        const lsp = async (args: Record<string, unknown>) => resultText(await call("lsp", args));
        // Line 6 closes the comment that line 5 is in: line 7, two lines off, has the call.
        expect(
          (await lsp({ action: "definition", file: "src/calls.ts", line: 6, symbol: "helper" })).split("\n"),
        ).toEqual([
          "'helper' is not on line 6; used line 7: export const b = helper();",
          "1 definition of 'helper':",
          "src/calls.ts:1:17  export function helper(): number {",
        ]);
        // A line this scan cannot read for sure (after `++`, a `/` may divide or open a regular
        // expression) is read whole as code, its comment too: the server finds nothing there,
        // and the next nearby line is asked.
        expect(
          (await lsp({ action: "definition", file: "src/calls.ts", line: 10, symbol: "helper" })).split("\n"),
        ).toEqual([
          "'helper' is not on line 10; used line 11: export const d = helper() + spacer + re.lastIndex + msg.length; (line 9, tried first, has no definition)",
          "1 definition of 'helper':",
          "src/calls.ts:1:17  export function helper(): number {",
        ]);
        // hover goes on to the next nearby line the same way.
        const hover = await lsp({ action: "hover", file: "src/calls.ts", line: 10, symbol: "helper" });
        expect(hover.split("\n")[0]).toBe(
          "'helper' is not on line 10; used line 11: export const d = helper() + spacer + re.lastIndex + msg.length; (line 9, tried first, has no hover information)",
        );
        expect(hover).toContain("function helper(): number");
      });
    });

    it("renames the name's occurrence in code when the line names it first in a string", async () => {
      await withTree(files, async (call, dir) => {
        const renamed = await call("lsp_rename", {
          file: "src/calls.ts",
          line: 8,
          symbol: "b",
          new_name: "bee",
        });
        expect(renamed.error, resultText(renamed)).toBeUndefined();
        expect(resultText(renamed)).toContain("renamed 'b' to 'bee': 2 edits in 1 file");
        const after = readFileSync(join(dir, "src", "calls.ts"), "utf8").split("\n");
        expect(after[6]).toBe("export const bee = helper();");
        expect(after[7]).toBe('const msg = "b"; export const c = bee;');
      });
    });
  },
);

describe.skipIf(!existsSync(join(packageBin, "pyright-langserver")) && !ci)(
  "a name in a docstring on pyright",
  () => {
    it("takes a docstring's middle line for no code: the call on the next line is used", async () => {
      const files = {
        "pyproject.toml": '[project]\nname = "docs"\nversion = "0.1.0"\n',
        "d.py": [
          "def helper() -> int:",
          "    return 1",
          "",
          "",
          "def compute() -> int:",
          '    """',
          "    compute calls helper",
          '    """',
          "    return helper()",
          "",
        ].join("\n"),
      };
      await withTree(files, async (call) => {
        const answer = resultText(
          await call("lsp", { action: "definition", file: "d.py", line: 8, symbol: "helper" }),
        );
        expect(answer.split("\n")).toEqual([
          "'helper' is not on line 8; used line 9: return helper()",
          "1 definition of 'helper':",
          "d.py:1:5  def helper() -> int:",
        ]);
      });
    });
  },
);

const goProject = {
  "go.mod": "module example.com/rep\n\ngo 1.19\n",
  "shapes/shapes.go": [
    "package shapes",
    "",
    "// Total sums the values.",
    "func Total(values []float64) float64 {",
    "\tsum := 0.0",
    "\tfor _, v := range values {",
    "\t\tsum += v",
    "\t}",
    "\treturn sum",
    "}",
    "",
  ].join("\n"),
  "shapes/doc.go": "// Package shapes sums Widgets.\npackage shapes\n",
  "report/report.go": [
    "package report",
    "",
    "import (",
    '\t"fmt"',
    "",
    '\t"example.com/rep/shapes"',
    ")",
    "",
    "// Describe prints a shape; see shapes.Total for the sum.",
    "func Describe(values []float64) {",
    "\tfmt.Println(shapes.Total(values))",
    "}",
    "",
  ].join("\n"),
};

describe.skipIf(!findBinary("gopls", [], []).found && !ci)("a name in a comment on gopls", () => {
  it("takes gopls's 'no identifier/object found' on a comment for nothing found and tries the nearby code", async () => {
    expect(findBinary("gopls", [], []).found, "gopls not found on PATH").toBe(true);
    await withTree(goProject, async (call) => {
      const lsp = async (args: Record<string, unknown>) => {
        const result = await call("lsp", args);
        expect(result.error, resultText(result)).toBeUndefined();
        return resultText(result);
      };
      // gopls: "no object found".
      expect(
        (await lsp({ action: "references", file: "report/report.go", line: 9, symbol: "Describe" })).split(
          "\n",
        ),
      ).toEqual([
        "'Describe' is on line 9 only in a comment or string, where the server found no reference; used line 10: func Describe(values []float64) {",
        "1 reference of 'Describe':",
        "report/report.go:10:6  func Describe(values []float64) {",
      ]);
      // gopls: "no identifier found".
      expect(
        (await lsp({ action: "definition", file: "report/report.go", line: 9, symbol: "Total" })).split("\n"),
      ).toEqual([
        "'Total' is on line 9 only in a comment or string, where the server found no definition; used line 11: fmt.Println(shapes.Total(values))",
        "1 definition of 'Total':",
        "shapes/shapes.go:4:6  func Total(values []float64) float64 {",
      ]);
      // Nothing nearby: nothing found, not the server's error.
      expect(await lsp({ action: "references", file: "shapes/doc.go", line: 1, symbol: "Widgets" })).toBe(
        "no reference found for 'Widgets' at shapes/doc.go:1:24",
      );
    });
  });
});
