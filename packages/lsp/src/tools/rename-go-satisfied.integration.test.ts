import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createRegistry, createRun, resultText } from "@tools/registry";
import { describe, expect, it } from "vitest";
import { findBinary } from "../servers/find-binary.js";
import { createLspSupervisor } from "../supervisor/supervisor.js";
import { ci, tempTree } from "../test-support/fixtures.js";
import { lspRenameTool } from "./lsp-rename-tool.js";
import { lspTool } from "./lsp-tool.js";

/** What `go build ./... && go vet ./...` says in `dir`: empty when both pass. */
function goBroken(dir: string): string {
  try {
    execFileSync("go", ["build", "./..."], { cwd: dir, stdio: "pipe", timeout: 120_000 });
    execFileSync("go", ["vet", "./..."], { cwd: dir, stdio: "pipe", timeout: 120_000 });
    return "";
  } catch (error) {
    return String((error as { stderr?: Buffer }).stderr ?? error);
  }
}

// gopls renames a concrete method and its calls, and refuses when the type would stop satisfying
// an interface it is converted to in the packages it checks; a conversion in a package that
// never calls the method (main passes a circle.Circle as a shapes.Shape) is not looked at: the
// rename was written and the build broken, shown only in the diagnostics after it.
describe.skipIf(!findBinary("gopls", [], []).found && !ci)(
  "lsp_rename of a Go method that implements an interface of another package",
  () => {
    const files = {
      "go.mod": "module example.com/app\n\ngo 1.19\n",
      "shapes/shapes.go": [
        "package shapes",
        "",
        "// Shape is anything with an area.",
        "type Shape interface {",
        "\tArea() float64",
        "}",
        "",
        "// Rounded has a perimeter; nothing is used as one.",
        "type Rounded interface {",
        "\tPerimeter() float64",
        "}",
        "",
        "// Total adds up the areas.",
        "func Total(list ...Shape) float64 {",
        "\tsum := 0.0",
        "\tfor _, shape := range list {",
        "\t\tsum += shape.Area()",
        "\t}",
        "\treturn sum",
        "}",
        "",
      ].join("\n"),
      "circle/circle.go": [
        "package circle",
        "",
        "// Circle is a round shape.",
        "type Circle struct{ R float64 }",
        "",
        "// Area is its area.",
        "func (c Circle) Area() float64 { return 3 * c.R * c.R }",
        "",
        "// Diameter is twice the radius.",
        "func (c Circle) Diameter() float64 { return 2 * c.R }",
        "",
        "// Perimeter is the length around it.",
        "func (c Circle) Perimeter() float64 { return 6 * c.R }",
        "",
      ].join("\n"),
      "main.go": [
        "package main",
        "",
        "import (",
        '\t"fmt"',
        "",
        '\t"example.com/app/circle"',
        '\t"example.com/app/shapes"',
        ")",
        "",
        "func main() { fmt.Println(shapes.Total(circle.Circle{R: 1})) }",
        "",
      ].join("\n"),
    };

    /** A fresh tree with gopls on it; `use` gets `rename`, and the tree is removed after. */
    const withTree = async (
      use: (
        rename: (
          file: string,
          line: number,
          symbol: string,
          newName: string,
        ) => Promise<{ code?: string; lines: string[] }>,
        dir: string,
      ) => Promise<void>,
      treeFiles: Record<string, string> = files,
    ) => {
      const tree = tempTree("go-rename-satisfied", treeFiles);
      const brokenBefore = goBroken(tree.dir);
      const run = createRun({ workingDirectory: tree.dir });
      createLspSupervisor(run, { diagnosticsTimeoutMs: 20_000 });
      const registry = createRegistry({ tools: [lspTool, lspRenameTool], approval: "auto" });
      try {
        if (treeFiles === files) expect(brokenBefore).toBe("");
        await use(async (file, line, symbol, newName) => {
          const result = await registry.invoke(run, {
            tool: "lsp_rename",
            args: { file, line, symbol, new_name: newName },
          });
          return { code: result.error?.code, lines: resultText(result).split("\n") };
        }, tree.dir);
      } finally {
        await run.dispose();
        tree.remove();
      }
    };

    it("refuses renaming the concrete method, naming the interface it would stop satisfying and where", async () => {
      await withTree(async (rename, dir) => {
        const { code, lines } = await rename("circle/circle.go", 7, "Area", "Size");
        expect({ code, broken: goBroken(dir) }, lines.join("\n")).toEqual({
          code: "LSP_RENAME_FAILED",
          broken: "",
        });
        expect(readFileSync(join(dir, "circle/circle.go"), "utf8")).toBe(files["circle/circle.go"]);
        expect(lines[0]).toBe(
          "renaming 'Area' to 'Size' would break the code whatever the new name (this is no name clash): gopls's edit renames 'Area' here and its uses, but not the 1 declaration tied to it through an interface (implementations of it, or the interface method it implements), which would then no longer match (checked on the server in memory; nothing was written):",
        );
        expect(lines[1]).toBe("- shapes/shapes.go:5:2 (Area() float64): method of interface Shape");
        expect(lines[2]).toBe("The errors the edit would bring:");
        expect(lines[3]).toMatch(
          /^- main\.go:10:\d+ error .*circle\.Circle does not implement shapes\.Shape \(missing (?:method Area|Area method)\).* — the line: func main\(\) \{ fmt\.Println\(shapes\.Total\(circle\.Circle\{R: 1\}\)\) \}$/,
        );
        expect(lines.at(-1)).toBe(
          "Rename 'Area' to 'Size' at each of these declarations and at this one together with edit (or apply_patch); lsp references on each lists its uses.",
        );
      });
    });

    it("says which errors the new name's own clash brings, which another name could avoid", async () => {
      // Both embeds Circle and Sizer: Circle.Area renamed Size makes circle.B.Size ambiguous, a
      // clash of the new name besides the interface Circle would no longer implement.
      const clashing = {
        ...files,
        "circle/circle.go": [
          ...files["circle/circle.go"].split("\n").slice(0, -1),
          "// Sizer has a size.",
          "type Sizer struct{}",
          "",
          "// Size is one.",
          "func (Sizer) Size() float64 { return 1 }",
          "",
          "// Both is a Circle and a Sizer.",
          "type Both struct {",
          "\tCircle",
          "\tSizer",
          "}",
          "",
          "// B is one.",
          "var B = Both{}",
          "",
        ].join("\n"),
        "main.go": files["main.go"].replace(
          "fmt.Println(shapes.Total(circle.Circle{R: 1}))",
          "fmt.Println(shapes.Total(circle.Circle{R: 1}), circle.B.Size())",
        ),
      };
      await withTree(async (rename, dir) => {
        expect(goBroken(dir)).toBe("");
        const { code, lines } = await rename("circle/circle.go", 7, "Area", "Size");
        expect({ code, broken: goBroken(dir) }, lines.join("\n")).toEqual({
          code: "LSP_RENAME_FAILED",
          broken: "",
        });
        const text = lines.join("\n");
        expect(text).not.toContain("this is no name clash");
        expect(lines[0]).toBe(
          "renaming 'Area' to 'Size' would break the code: gopls's edit renames 'Area' here and its uses, but not the 1 declaration tied to it through an interface (implementations of it, or the interface method it implements), which would then no longer match, whatever the new name; and 'Size' also clashes with a name already there (1 error, which another name could avoid) (checked on the server in memory; nothing was written):",
        );
        expect(lines[1]).toBe("- shapes/shapes.go:5:2 (Area() float64): method of interface Shape");
        expect(lines[2]).toBe("The errors the declarations left out would bring, whatever the new name:");
        expect(lines[3]).toMatch(
          /^- main\.go:10:\d+ error .*circle\.Circle does not implement shapes\.Shape/,
        );
        expect(lines[4]).toBe("The errors of 'Size' clashing with a name already there:");
        expect(lines[5]).toMatch(
          /^- main\.go:10:\d+ error \[AmbiguousSelector\] ambiguous selector circle\.B\.Size/,
        );
        expect(lines.at(-1)).toBe(
          "Pick another name, one not declared in or visible from those places, and rename 'Area' to it at each of these declarations and at this one together with edit (or apply_patch); lsp references on each lists its uses.",
        );
      }, clashing);
    });

    it("takes no error for a clash for the words of the line it is on", async () => {
      // The line of the error (shown after it) says "already declared": words of the code, not
      // the error's, which is the interface Circle would no longer implement, whatever the name.
      const worded = {
        ...files,
        "main.go": files["main.go"].replace(
          "fmt.Println(shapes.Total(circle.Circle{R: 1}))",
          'fmt.Println("a shape already declared:", shapes.Total(circle.Circle{R: 1}))',
        ),
      };
      await withTree(async (rename, dir) => {
        expect(goBroken(dir)).toBe("");
        const { code, lines } = await rename("circle/circle.go", 7, "Area", "Size");
        expect(code, lines.join("\n")).toBe("LSP_RENAME_FAILED");
        expect(lines[0]).toContain("whatever the new name (this is no name clash)");
        expect(lines[2]).toBe("The errors the edit would bring:");
        expect(lines[3]).toMatch(
          /circle\.Circle does not implement shapes\.Shape.* — the line: .*already declared/,
        );
        expect(lines.join("\n")).not.toContain("Pick another name");
      }, worded);
    });

    it("refuses renaming the interface method, naming the implementation left out and where", async () => {
      // The edit renames the interface method and its call in shapes.go, not circle.Circle's
      // method: main.go breaks alike.
      await withTree(async (rename, dir) => {
        const { code, lines } = await rename("shapes/shapes.go", 5, "Area", "Size");
        expect({ code, broken: goBroken(dir) }, lines.join("\n")).toEqual({
          code: "LSP_RENAME_FAILED",
          broken: "",
        });
        expect(lines[1]).toBe(
          "- circle/circle.go:7:17 (func (c Circle) Area() float64 { return 3 * c.R * c.R })",
        );
        expect(lines[3]).toMatch(
          /^- main\.go:10:\d+ error .*does not implement shapes\.Shape \(missing (?:method Size|Size method)\)/,
        );
      });
    });

    it("renames a method no interface asks for, or of an interface nothing is used as", async () => {
      await withTree(async (rename, dir) => {
        const diameter = await rename("circle/circle.go", 10, "Diameter", "Width");
        expect(diameter.code, diameter.lines.join("\n")).toBeUndefined();
        // Circle implements Rounded, but is never used as one: renamed, nothing breaks.
        const perimeter = await rename("circle/circle.go", 13, "Perimeter", "Around");
        expect(perimeter.code, perimeter.lines.join("\n")).toBeUndefined();
        expect(perimeter.lines[0]).toBe("renamed 'Perimeter' to 'Around': 2 edits in 1 file");
        expect(goBroken(dir)).toBe("");
      });
    });

    it("renames the interface method when only a type already missing it is used as one", async () => {
      // square.go was broken before (Square lacks Area); renamed, it lacks Size: the same error,
      // worded with the new name, is no new one. circle.Circle is never used as a Shape.
      const broken = {
        ...files,
        "square/square.go": [
          "package square",
          "",
          'import "example.com/app/shapes"',
          "",
          "// Square is used as a Shape, and never had an area.",
          "type Square struct{}",
          "",
          "var _ shapes.Shape = Square{}",
          "",
        ].join("\n"),
        "main.go": [
          "package main",
          "",
          "import (",
          '\t"fmt"',
          "",
          '\t"example.com/app/circle"',
          ")",
          "",
          "func main() { fmt.Println(circle.Circle{R: 1}.Diameter()) }",
          "",
        ].join("\n"),
      };
      await withTree(async (rename, dir) => {
        expect(goBroken(dir)).toMatch(
          /Square does not implement shapes\.Shape \(missing (?:method Area|Area method)\)/,
        );
        const { code, lines } = await rename("shapes/shapes.go", 5, "Area", "Size");
        expect(code, lines.join("\n")).toBeUndefined();
        expect(lines[0]).toBe("renamed 'Area' to 'Size': 2 edits in 1 file");
        expect(goBroken(dir)).toMatch(
          /Square does not implement shapes\.Shape \(missing (?:method Size|Size method)\)/,
        );
      }, broken);
    });
  },
);
