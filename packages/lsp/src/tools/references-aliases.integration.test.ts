import { existsSync } from "node:fs";
import { join } from "node:path";
import { createRegistry, createRun, resultText } from "@tools/registry";
import { describe, expect, it } from "vitest";
import { findBinary } from "../servers/find-binary.js";
import { createLspSupervisor } from "../supervisor/supervisor.js";
import { ci, packageBin, tempTree } from "../test-support/fixtures.js";
import { lspTool } from "./lsp-tool.js";

/** The references answer for `symbol` on `line` of `file` in a fresh tree of `files`. */
async function references(
  name: string,
  files: Record<string, string>,
  asks: ReadonlyArray<{ file: string; line: number; symbol: string }>,
): Promise<string[]> {
  const tree = tempTree(name, files);
  const run = createRun({ workingDirectory: tree.dir });
  createLspSupervisor(run, { binDirectories: [packageBin], diagnosticsTimeoutMs: 20_000 });
  const registry = createRegistry({ tools: [lspTool], approval: "auto" });
  try {
    const answers: string[] = [];
    for (const args of asks) {
      answers.push(
        resultText(await registry.invoke(run, { tool: "lsp", args: { action: "references", ...args } })),
      );
    }
    return answers;
  } finally {
    await run.dispose();
    tree.remove();
  }
}

/** The rows (`path:line:col  text`) of an answer. */
function rowsOf(answer: string): string[] {
  return answer.split("\n").filter((row) => /^\S+:\d+:\d+ {2}/.test(row));
}

/** The package.json and tsconfig.json of a strict NodeNext TypeScript project named `name`. */
function tsProject(name: string): Record<string, string> {
  return {
    "package.json": `{ "name": "${name}", "private": true, "type": "module" }\n`,
    "tsconfig.json":
      '{ "compilerOptions": { "strict": true, "noEmit": true, "module": "NodeNext", "moduleResolution": "NodeNext", "types": [] }, "include": ["src"] }\n',
  };
}

const tsFound = existsSync(join(packageBin, "typescript-language-server"));

// tsserver lists both names of an import or export specifier (`add` and `plus` of
// `import { add as plus }`): shown, each such line came twice, counted twice in the header.
describe.skipIf(!tsFound && !ci)(
  "references of a TypeScript function imported and re-exported under aliases",
  () => {
    it("lists each alias line once, at the name it renames, and counts what it lists", async () => {
      const [fromDeclaration, fromAlias] = await references(
        "ts-alias-refs",
        {
          ...tsProject("alias-refs"),
          "src/math.ts":
            "export function add(a: number, b: number): number {\n  return a + b;\n}\nexport { add as addAgain };\n",
          "src/alias.ts": 'import { add as plus } from "./math.js";\nexport const p = plus(1, 2);\n',
          "src/again.ts": 'export { add as addThird } from "./math.js";\n',
        },
        [
          { file: "src/math.ts", line: 1, symbol: "add" },
          { file: "src/alias.ts", line: 1, symbol: "add" },
        ],
      );
      const want = [
        "5 references of 'add':",
        'src/again.ts:1:10  export { add as addThird } from "./math.js";',
        'src/alias.ts:1:10  import { add as plus } from "./math.js";',
        "src/alias.ts:2:18  export const p = plus(1, 2);",
        "src/math.ts:1:17  export function add(a: number, b: number): number {",
        "src/math.ts:4:10  export { add as addAgain };",
      ];
      expect(fromDeclaration!.split("\n")).toEqual(want);
      expect(fromAlias!.split("\n")).toEqual(want);
    });

    // A list over several lines: each specifier read across its lines, comments (with their
    // parentheses) and all, not only the alias's own line.
    it("lists each specifier of a multi-line import or export list once, its alias on a line of its own too", async () => {
      const [fromDeclaration, fromAlias] = await references(
        "ts-alias-lines-refs",
        {
          ...tsProject("alias-lines-refs"),
          "src/math.ts": [
            "export function add(a: number, b: number): number {",
            "  return a + b;",
            "}",
            "export function sub(a: number, b: number): number {",
            "  return a - b;",
            "}",
            "export {",
            "  sub as minus, // (a - b)",
            "  add as addAgain,",
            "};",
            "export {",
            "  add",
            "    as addThird,",
            "};",
            "",
          ].join("\n"),
          "src/alias.ts": [
            "import {",
            "  add as plus,",
            '} from "./math.js";',
            "import {",
            "  sub, // subtraction (a - b)",
            "  add as more,",
            '} from "./math.js";',
            "import {",
            "  add as",
            "    twice,",
            '} from "./math.js";',
            "export const p = plus(1, 2) + more(sub(1, 1), 2) + twice(3, 4);",
            "",
          ].join("\n"),
        },
        [
          { file: "src/math.ts", line: 1, symbol: "add" },
          { file: "src/alias.ts", line: 2, symbol: "add" },
        ],
      );
      const want = [
        "9 references of 'add':",
        "src/alias.ts:2:3  add as plus,",
        "src/alias.ts:6:3  add as more,",
        "src/alias.ts:9:3  add as",
        "src/alias.ts:12:18  export const p = plus(1, 2) + more(sub(1, 1), 2) + twice(3, 4);",
        "src/alias.ts:12:31  export const p = plus(1, 2) + more(sub(1, 1), 2) + twice(3, 4);",
        "src/alias.ts:12:52  export const p = plus(1, 2) + more(sub(1, 1), 2) + twice(3, 4);",
        "src/math.ts:1:17  export function add(a: number, b: number): number {",
        "src/math.ts:9:3  add as addAgain,",
        "src/math.ts:12:3  add",
      ];
      expect(fromDeclaration!.split("\n")).toEqual(want);
      expect(fromAlias!.split("\n")).toEqual(want);
    });

    it("keeps both names of a value cast to its type of the same name, each a use", async () => {
      const [answer] = await references(
        "ts-cast-refs",
        {
          ...tsProject("cast-refs"),
          "src/color.ts": "export const Color = 1;\nexport type Color = number;\n",
          "src/use.ts": [
            "import {",
            "  Color,",
            "  Color as Hue,",
            '} from "./color.js";',
            "export const all = [Hue, Color as Color];",
            "",
          ].join("\n"),
        },
        [{ file: "src/use.ts", line: 5, symbol: "Color" }],
      );
      expect(answer!.split("\n")).toEqual([
        "'Color' occurs 2 times on line 5; answered for the one at column 26; for another, give text around it as symbol (e.g. 'Color]' for the one at column 35)",
        "7 references of 'Color':",
        "src/color.ts:1:14  export const Color = 1;",
        "src/color.ts:2:13  export type Color = number;",
        "src/use.ts:2:3  Color,",
        "src/use.ts:3:3  Color as Hue,",
        "src/use.ts:5:21  export const all = [Hue, Color as Color];",
        "src/use.ts:5:26  export const all = [Hue, Color as Color];",
        "src/use.ts:5:35  export const all = [Hue, Color as Color];",
      ]);
    });

    // The lines above a cast were read back by a scan of each line alone: a template literal's
    // `import {` over lines, or a regular expression's `*/` (taken for a comment's end, the JSDoc
    // in the list above for its start), made the array look like an import list, and the cast's
    // second name (its type) was dropped as a specifier's alias.
    it("keeps both names of a cast below a multi-line template literal or a regular expression holding `*/`", async () => {
      const [answer] = await references(
        "ts-cast-literals-refs",
        {
          ...tsProject("cast-literals-refs"),
          "src/color.ts": "export const Color = 1;\nexport type Color = number;\n",
          "src/template.ts": [
            'import { Color } from "./color.js";',
            "export const doc = `",
            "import {",
            "`;",
            "export const all = [",
            "  doc,",
            "  Color as Color,",
            "];",
            "",
          ].join("\n"),
          "src/regex.ts": [
            "import {",
            "  /**",
            "   * The color.",
            "   */",
            "  Color,",
            '} from "./color.js";',
            "export const re = /a*/;",
            "export const all = [",
            "  re,",
            "  Color as Color,",
            "];",
            "",
          ].join("\n"),
        },
        [{ file: "src/template.ts", line: 1, symbol: "Color" }],
      );
      expect(answer!.split("\n")).toEqual([
        "8 references of 'Color':",
        "src/color.ts:1:14  export const Color = 1;",
        "src/color.ts:2:13  export type Color = number;",
        "src/regex.ts:5:3  Color,",
        "src/regex.ts:10:3  Color as Color,",
        "src/regex.ts:10:12  Color as Color,",
        'src/template.ts:1:10  import { Color } from "./color.js";',
        "src/template.ts:7:3  Color as Color,",
        "src/template.ts:7:12  Color as Color,",
      ]);
    });
  },
);

const pyFound = existsSync(join(packageBin, "pyright-langserver"));

describe.skipIf(!pyFound && !ci)("references of a Python function imported under an alias", () => {
  it("lists each line once (pyright lists the imported name, not the alias)", async () => {
    const [answer] = await references(
      "py-alias-refs",
      {
        "pyproject.toml": '[project]\nname = "alias-refs"\n',
        "pkg/__init__.py": "",
        "pkg/m.py": "def add(a: int, b: int) -> int:\n    return a + b\n",
        "pkg/alias.py": "from pkg.m import add as plus\nimport pkg.m as mm\np = plus(1, 2) + mm.add(1, 2)\n",
      },
      [{ file: "pkg/m.py", line: 1, symbol: "add" }],
    );
    const rows = rowsOf(answer!);
    expect(rows).toContain("pkg/alias.py:1:19  from pkg.m import add as plus");
    expect(rows).toContain("pkg/m.py:1:5  def add(a: int, b: int) -> int:");
    expect(new Set(rows).size).toBe(rows.length);
    expect(answer!.split("\n")[0]).toBe(`${rows.length} references of 'add':`);
  });
});

describe.skipIf(!findBinary("gopls", [], []).found && !ci)(
  "references of a Go function through an import alias",
  () => {
    it("lists each use once", async () => {
      const [answer] = await references(
        "go-alias-refs",
        {
          "go.mod": "module example.com/x\n\ngo 1.19\n",
          "m/m.go":
            "package m\n\n// Add adds.\nfunc Add(a, b int) int { return a + b }\n\n// Plus is Add.\nvar Plus = Add\n",
          "main.go":
            'package main\n\nimport mm "example.com/x/m"\n\nfunc main() { _ = mm.Add(1, 2) + mm.Plus(3, 4) }\n',
        },
        [{ file: "m/m.go", line: 4, symbol: "Add" }],
      );
      expect(answer!.split("\n")).toEqual([
        "3 references of 'Add':",
        "m/m.go:4:6  func Add(a, b int) int { return a + b }",
        "m/m.go:7:12  var Plus = Add",
        "main.go:5:22  func main() { _ = mm.Add(1, 2) + mm.Plus(3, 4) }",
      ]);
    });
  },
);

describe.skipIf(!findBinary("clangd", [], []).found && !ci)(
  "references of a C function named through a macro",
  () => {
    it("lists each use once, the macro's expansions at their place", async () => {
      const [answer] = await references(
        "c-alias-refs",
        {
          "compile_flags.txt": "-std=c11\n",
          "main.c":
            "int add(int a, int b) { return a + b; }\n#define plus add\n#define PLUS(a, b) add(a, b)\nint main(void) { return plus(1, 2) + PLUS(3, 4) + add(5, 6); }\n",
        },
        [{ file: "main.c", line: 1, symbol: "add" }],
      );
      const rows = rowsOf(answer!);
      expect(rows[0]).toBe("main.c:1:5  int add(int a, int b) { return a + b; }");
      expect(rows).toContain("main.c:4:51  int main(void) { return plus(1, 2) + PLUS(3, 4) + add(5, 6); }");
      expect(new Set(rows).size).toBe(rows.length);
      expect(answer!.split("\n")[0]).toBe(`${rows.length} references of 'add':`);
    });
  },
);
