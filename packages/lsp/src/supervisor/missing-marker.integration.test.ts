import { createRegistry, createRun, resultText } from "@tools/registry";
import { dirname, join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { packageBin, tempTree } from "../test-support/fixtures.js";
import { lspTool } from "../tools/lsp-tool.js";
import { createLspSupervisor } from "./supervisor.js";

/**
 * A file with no root marker above it: the answer says how to make one. Before, a C project
 * without a compilation database was told the marker's names only ("A server needs both a root
 * marker and its binary"), not what goes in compile_flags.txt or how to generate the database.
 */
describe("a file with no root marker", () => {
  const tree = tempTree("missing-marker", {
    "c/src/main.c": '#include "list.h"\nint main(void) { return 0; }\n',
    "go/main.go": "package main\n\nfunc main() {}\n",
  });
  const run = createRun({ workingDirectory: tree.dir });
  createLspSupervisor(run, { binDirectories: [packageBin] });
  const registry = createRegistry({ tools: [lspTool] });
  afterAll(async () => {
    await run.dispose();
    tree.remove();
  });

  it("says how to make a C project's compile_flags.txt or compilation database", async () => {
    const result = await registry.invoke(run, {
      tool: "lsp",
      args: { action: "definition", file: "c/src/main.c", line: 2, symbol: "main" },
    });
    expect(result.error?.code).toBe("LSP_NO_SERVER");
    expect(resultText(result)).toContain(
      "no root marker for c (compile_commands.json, compile_flags.txt, .clangd, build/compile_commands.json) in any folder from c/src/main.c up to the working directory (to make one: a compile_flags.txt in the project's top folder holding its compiler flags, one per line, such as -Iinclude; or a compile_commands.json from cmake -B build -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or bear -- make)",
    );
  });

  it("says how to make a Go module", async () => {
    const result = await registry.invoke(run, {
      tool: "lsp",
      args: { action: "diagnostics", file: "go/main.go" },
    });
    expect(result.error?.code).toBe("LSP_NO_SERVER");
    expect(resultText(result)).toContain(
      "in any folder from go/main.go up to the working directory (to make one: go mod init <module path> in the module's top folder)",
    );
  });

  // The calls on a file said how to make a marker, and status (with or without a file) did not:
  // it listed the marker names only.
  it("status says how to make a marker, with a file and without", async () => {
    const status = (args: Record<string, unknown>) =>
      registry.invoke(run, { tool: "lsp", args: { action: "status", ...args } }).then(resultText);
    const go = "to make one: go mod init <module path> in the module's top folder";
    const c =
      "to make one: a compile_flags.txt in the project's top folder holding its compiler flags, one per line, such as -Iinclude; or a compile_commands.json from cmake -B build -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or bear -- make";
    const all = (await status({})).split("\n");
    expect(all.find((line) => line.startsWith("go: "))).toMatch(
      /^go: no root marker \(go\.work, go\.mod\) within 4 folder levels .*, state not started \(cannot start without a root marker; to make one: go mod init <module path> in the module's top folder\)$/,
    );
    expect(all.find((line) => line.startsWith("go: "))).toContain(go);
    expect(all.find((line) => line.startsWith("c: "))).toContain(
      `(cannot start without a root marker; ${c})`,
    );
    // Where the marker's name says what goes in it, nothing more.
    expect(all.find((line) => line.startsWith("python: "))).toMatch(
      /\(cannot start without a root marker\)$/,
    );
    expect(await status({ file: "go/main.go" })).toMatch(
      /^go: no root \(none of go\.work, go\.mod between go\/main\.go and the working directory\), binary .*; to make one: go mod init <module path> in the module's top folder\)$/,
    );
    expect(await status({ file: "c/src/main.c" })).toContain(`; ${c})`);
  });

  it('says how to make a marker when diagnostics("*") finds C files and no root', async () => {
    const result = await registry.invoke(run, { tool: "lsp", args: { action: "diagnostics", file: "*" } });
    expect(resultText(result).split("\n")).toEqual([
      "no project root found within 4 folder levels below the working directory (hidden, dependency and build-output folders skipped) (no root marker of any language); nothing to check",
      "go: not checked: no root marker for go (go.work, go.mod) in any folder from go/main.go up to the working directory (to make one: go mod init <module path> in the module's top folder)",
      "c: not checked: no root marker for c (compile_commands.json, compile_flags.txt, .clangd, build/compile_commands.json) in any folder from c/src/main.c up to the working directory (to make one: a compile_flags.txt in the project's top folder holding its compiler flags, one per line, such as -Iinclude; or a compile_commands.json from cmake -B build -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or bear -- make)",
    ]);
  });

  it('says which languages have files but no root when diagnostics("*") checks other roots', async () => {
    const mixed = tempTree("marker-mixed", {
      "web/package.json": '{ "name": "web", "private": true }\n',
      "native/main.c": "int main(void) { return 0; }\n",
    });
    const inner = createRun({ workingDirectory: mixed.dir });
    createLspSupervisor(inner, { binDirectories: [packageBin] });
    try {
      const text = resultText(
        await registry.invoke(inner, { tool: "lsp", args: { action: "diagnostics", file: "*" } }),
      );
      expect(text).toContain(
        "c: not checked: no root marker for c (compile_commands.json, compile_flags.txt, .clangd, build/compile_commands.json) in any folder from native/main.c up to the working directory (to make one: a compile_flags.txt",
      );
    } finally {
      await inner.dispose();
      mixed.remove();
    }
  });

  it("does not say to make a marker that is above the working directory", async () => {
    // A run started in a Go module's subfolder: go.mod is there, only above the working
    // directory, and `go mod init` would fail there (or, run in the subfolder, nest a module).
    const above = tempTree("marker-above", {
      "mod/go.mod": "module example.com/mod\n\ngo 1.19\n",
      "mod/cmd/tool/main.go": "package main\n\nfunc main() {}\n",
      "proj/compile_flags.txt": "-Iinclude\n",
      "proj/src/main.c": "int main(void) { return 0; }\n",
    });
    try {
      for (const [dir, file, marker] of [
        ["mod/cmd", "tool/main.go", "mod/go.mod"],
        ["proj/src", "main.c", "proj/compile_flags.txt"],
      ] as const) {
        const inner = createRun({ workingDirectory: join(above.dir, dir) });
        createLspSupervisor(inner, { binDirectories: [packageBin] });
        try {
          const result = await registry.invoke(inner, { tool: "lsp", args: { action: "diagnostics", file } });
          expect(result.error?.code).toBe("LSP_NO_SERVER");
          const text = resultText(result);
          expect(text).not.toContain("to make one");
          expect(text).toContain(
            `(there is one above it, ${join(above.dir, marker)}: a server is rooted only inside the working directory, so start the run in ${dirname(join(above.dir, marker))} or below it)`,
          );
          // status without a file says so too, not how to make one.
          const status = resultText(
            await registry.invoke(inner, { tool: "lsp", args: { action: "status" } }),
          );
          const line = status
            .split("\n")
            .find((each) => each.startsWith(file.endsWith(".go") ? "go: " : "c: "));
          expect(line).toContain(
            `(cannot start without a root marker; there is one above it, ${join(above.dir, marker)}: a server is rooted only inside the working directory, so start the run in ${dirname(join(above.dir, marker))} or below it)`,
          );
        } finally {
          await inner.dispose();
        }
      }
    } finally {
      above.remove();
    }
  });
});
