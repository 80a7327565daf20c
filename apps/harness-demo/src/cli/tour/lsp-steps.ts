import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { callStep, expectText, sequenceStep, succeededWith, type TourSection } from "./tour-step.js";

/** The line part 3 breaks, moves and fixes (src/greet.ts line 3). */
const goodLine = "  return `Hello, ${name}!`;";
const brokenLine = "  return name.length;";

/** Part 2: the language servers answer by line + symbol, never a column. */
export const lspNavigationSection: TourSection = {
  title: "language servers: status, definition, hover, references (lsp)",
  note: "typescript-language-server and pyright are the app's own dependencies (node_modules/.bin); each starts once, on first use",
  steps: [
    callStep(
      "lsp status: which server serves which root, and why the others cannot start",
      { tool: "lsp", args: { action: "status" } },
      (result) => {
        for (const needle of [
          /typescript: root \. \(marker tsconfig\.json\), binary found/,
          /python: root python \(marker pyproject\.toml\), binary found/,
          /dart: root dart .*binary missing/,
        ]) {
          const verdict = succeededWith(needle)(result);
          if (verdict !== true) return verdict;
        }
        return true;
      },
    ),
    sequenceStep("TypeScript: definition and references of `greet`, hover of `sum`", async (call) => {
      expectText(
        await call("lsp", { action: "definition", file: "src/greet.ts", line: 8, symbol: "greet" }),
        "src/greet.ts:2:17  export function greet(name: string): string {",
      );
      expectText(
        await call("lsp", { action: "hover", file: "src/index.ts", line: 2, symbol: "sum" }),
        "function sum(values: readonly number[]): number",
      );
      expectText(
        await call("lsp", { action: "references", file: "src/greet.ts", line: 2, symbol: "greet" }),
        "src/index.ts:1:10  export { greet, greetAll }",
      );
      return true;
    }),
    sequenceStep("Python: definition, hover and references of `total` across files", async (call) => {
      expectText(
        await call("lsp", { action: "definition", file: "python/report.py", line: 8, symbol: "total" }),
        "python/stats.py:4:5  def total(values):",
      );
      expectText(
        await call("lsp", { action: "hover", file: "python/report.py", line: 8, symbol: "total" }),
        /def total\(\s*values/,
      );
      expectText(
        await call("lsp", { action: "references", file: "python/stats.py", line: 4, symbol: "total" }),
        "python/report.py:8:13  grand = total(sales)",
      );
      return true;
    }),
  ],
};

/** Part 3: diagnostics on write report only what is new; lsp_rename edits every file. */
export const lspDiagnosticsSection: TourSection = {
  title: "diagnostics on write and lsp_rename",
  note: "write, edit, apply_patch, resolve and lsp_rename append only the errors and warnings new to the run",
  steps: [
    callStep(
      "an edit that breaks the build: the write's result carries the new diagnostic",
      { tool: "edit", args: { path: "src/greet.ts", old_string: goodLine, new_string: brokenLine } },
      (result) => {
        const verdict = succeededWith("1 new diagnostic in src/greet.ts")(result);
        if (verdict !== true) return verdict;
        return succeededWith(/src\/greet\.ts:3:\d+ error \[TS2322\]/)(result);
      },
    ),
    callStep(
      "the broken line moves down: nothing new is reported",
      {
        tool: "edit",
        args: {
          path: "src/greet.ts",
          old_string: "/** A greeting for one person. */",
          new_string: "// Greetings.\n/** A greeting for one person. */",
        },
      },
      (result) => {
        const verdict = succeededWith(
          "no new diagnostics in src/greet.ts (1 reported earlier still present)",
        )(result);
        if (verdict !== true) return verdict;
        return /\[TS2322\]/.test(JSON.stringify(result.content))
          ? "the old diagnostic was reported again"
          : true;
      },
    ),
    sequenceStep("fixed: the file written back as it was is clean", async (call, { workspace }) => {
      const file = join(workspace, "src/greet.ts");
      const original = (await readFile(file, "utf8"))
        .replace("// Greetings.\n", "")
        .replace(brokenLine, goodLine);
      expectText(
        await call("write", { path: "src/greet.ts", content: original }),
        "src/greet.ts: clean (no errors or warnings)",
      );
      return true;
    }),
    sequenceStep("lsp_rename across files: greetAll → greetEveryone", async (call, { workspace }) => {
      const renamed = expectText(
        await call("lsp_rename", {
          file: "src/greet.ts",
          line: 7,
          symbol: "greetAll",
          new_name: "greetEveryone",
        }),
        "renamed 'greetAll' to 'greetEveryone'",
      );
      for (const needle of ["src/greet.ts: 1 edit", "src/index.ts: 1 edit"]) {
        if (!renamed.includes(needle)) return `the rename result does not say '${needle}'`;
      }
      const index = await readFile(join(workspace, "src/index.ts"), "utf8");
      return index.includes("greetEveryone") ? true : "src/index.ts does not use the new name";
    }),
    sequenceStep(
      "a file a shell command creates, never opened: gopls is told, and main.go's diagnostics show it",
      async (call) => {
        expectText(
          await call("lsp", { action: "diagnostics", file: "go/main.go" }),
          "no diagnostics in go/main.go",
        );
        // A second main in the package, written behind the language server's back.
        await call("shell", { command: "printf 'package main\\n\\nfunc main() {}\\n' > go/extra.go" });
        expectText(
          await call("lsp", { action: "diagnostics", file: "go/main.go" }),
          /go\/main\.go:\d+:\d+ error .*main redeclared/,
        );
        await call("shell", { command: "rm go/extra.go" });
        expectText(
          await call("lsp", { action: "diagnostics", file: "go/main.go" }),
          "no diagnostics in go/main.go",
        );
        return true;
      },
    ),
  ],
};

/** Parts 2 and 3 of the tour. */
export const lspTourSections: readonly TourSection[] = [lspNavigationSection, lspDiagnosticsSection];
