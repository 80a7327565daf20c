import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { createRegistry, createRun, resultText } from "@tools/registry";
import { describe, expect, it } from "vitest";
import { findBinary } from "../servers/find-binary.js";
import { createLspSupervisor } from "../supervisor/supervisor.js";
import { ci, tempTree } from "../test-support/fixtures.js";
import { lspTool } from "./lsp-tool.js";

/**
 * A project whose root is reached through a symlinked folder (`proj` → `target`, both in the
 * working directory; `beside` are files outside the project): answers show the files as the
 * agent reached them, and the real folder is not taken for another root.
 */
function linkedRun(files: Record<string, string>, target = "real", beside: Record<string, string> = {}) {
  const tree = tempTree("symlinked-root", {
    ...beside,
    ...Object.fromEntries(Object.entries(files).map(([k, v]) => [`${target}/${k}`, v])),
  });
  symlinkSync(join(tree.dir, target), join(tree.dir, "proj"));
  const run = createRun({ workingDirectory: tree.dir });
  createLspSupervisor(run, { diagnosticsTimeoutMs: 20_000 });
  const registry = createRegistry({ tools: [lspTool], approval: "auto" });
  const lsp = async (args: Record<string, unknown>) => {
    const result = await registry.invoke(run, { tool: "lsp", args });
    const text = resultText(result);
    expect(result.error, text).toBeUndefined();
    return text.split("\n");
  };
  return {
    lsp,
    end: async () => {
      await run.dispose();
      tree.remove();
    },
  };
}

describe.skipIf(!findBinary("clangd", [], []).found && !ci)(
  "a C project reached through a symlinked folder (clangd)",
  () => {
    it("shows the locations clangd answers with real paths through the link the file was asked by", async () => {
      const { lsp, end } = linkedRun({
        "compile_flags.txt": "-std=c11\n",
        "main.c":
          "static int twice(int value) {\n  return value * 2;\n}\n\nint main(void) {\n  return twice(21) - 42;\n}\n",
      });
      try {
        expect(await lsp({ action: "definition", file: "proj/main.c", line: 6, symbol: "twice" })).toEqual([
          "1 definition of 'twice':",
          "proj/main.c:1:12  static int twice(int value) {",
        ]);
        expect(await lsp({ action: "references", file: "proj/main.c", line: 6, symbol: "twice" })).toEqual([
          "2 references of 'twice':",
          "proj/main.c:1:12  static int twice(int value) {",
          "proj/main.c:6:10  return twice(21) - 42;",
        ]);
        expect(await lsp({ action: "symbols", query: "twice" })).toEqual([
          "1 symbol matches 'twice':",
          "function twice  proj/main.c:1:12  static int twice(int value) {",
        ]);
      } finally {
        await end();
      }
    });

    it("shows a file beside the project by its real path when the link is named like its folder", async () => {
      // `proj` → `vendor/proj`: the link is `proj`, not the working directory; vendor/zlib is
      // not reached through it.
      const { lsp, end } = linkedRun(
        {
          "compile_flags.txt": "-std=c11\n-I../zlib\n",
          "main.c": '#include "z.h"\n\nint main(void) {\n  return zfun();\n}\n',
        },
        "vendor/proj",
        { "vendor/zlib/z.h": "int zfun(void);\n" },
      );
      try {
        expect(await lsp({ action: "definition", file: "proj/main.c", line: 4, symbol: "zfun" })).toEqual([
          "1 definition of 'zfun':",
          "vendor/zlib/z.h:1:5  int zfun(void);",
        ]);
      } finally {
        await end();
      }
    });
  },
);

describe.skipIf(!findBinary("gopls", [], []).found && !ci)(
  "a Go module reached through a symlinked folder (gopls)",
  () => {
    it("does not list the module's own files, by their real folder, as another root's", async () => {
      const { lsp, end } = linkedRun({
        "go.mod": "module example.com/linked\n\ngo 1.19\n",
        "main.go":
          "package main\n\ntype Circle struct{ Radius float64 }\n\nfunc main() { _ = Circle{Radius: 1}.Radius }\n",
      });
      try {
        expect(await lsp({ action: "references", file: "proj/main.go", line: 3, symbol: "Radius" })).toEqual([
          "3 references of 'Radius':",
          "proj/main.go:3:21  type Circle struct{ Radius float64 }",
          "proj/main.go:5:26  func main() { _ = Circle{Radius: 1}.Radius }",
          "proj/main.go:5:37  func main() { _ = Circle{Radius: 1}.Radius }",
        ]);
        const symbols = await lsp({ action: "symbols", query: "Circle" });
        expect(symbols).toContainEqual(expect.stringMatching(/^struct Circle .*proj\/main\.go:3:6 /));
        expect(symbols.join("\n")).not.toContain("not searched");
      } finally {
        await end();
      }
    });
  },
);
