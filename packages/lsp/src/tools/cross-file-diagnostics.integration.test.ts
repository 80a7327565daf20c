import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRegistry, createRun, resultText } from "@tools/registry";
import { describe, expect, it } from "vitest";
import { findBinary } from "../servers/find-binary.js";
import { createLspSupervisor } from "../supervisor/supervisor.js";
import { ci, tempTree } from "../test-support/fixtures.js";
import { lspTool } from "./lsp-tool.js";

const servers = ["clangd", "gopls"] as const;

interface Case {
  server: string;
  files: Record<string, string>;
  dependency: string;
  changed: string;
  expected: RegExp;
}

/**
 * A file whose text did not change still gets new diagnostics when a file it depends on (a
 * header, the package's other file) changed on disk: clangd answers per document version and
 * gopls per edit, so its last publish would otherwise come back as fresh.
 */
describe.skipIf(servers.some((command) => !findBinary(command, [], []).found) && !ci)(
  "diagnostics of an unchanged file after a file it depends on changed",
  () => {
    it.each<Case>([
      {
        server: "clangd",
        files: {
          "compile_flags.txt": "-std=c11\n",
          "api.h": "int answer(void);\n",
          "main.c": '#include "api.h"\nint main(void) {\n  return answer();\n}\n',
        },
        dependency: "api.h",
        changed: "int answer(int seed);\n",
        expected: /main\.c:3:\d+ error .*(few arguments|expected 1)/i,
      },
      {
        server: "gopls",
        files: {
          "go.mod": "module example.com/cross\n\ngo 1.19\n",
          "api.go": 'package main\n\nfunc answer() string { return "42" }\n',
          "main.go": "package main\n\nfunc main() {\n\tprintln(answer())\n}\n",
        },
        dependency: "api.go",
        changed: 'package main\n\nfunc answer(seed int) string { return "42" }\n',
        expected: /main\.go:4:\d+ error .*not enough arguments/,
      },
    ])("$server", async ({ files, dependency, changed, expected }) => {
      const tree = tempTree("cross-file", files);
      const run = createRun({ workingDirectory: tree.dir });
      createLspSupervisor(run, { diagnosticsTimeoutMs: 20_000 });
      const registry = createRegistry({ tools: [lspTool] });
      const diagnostics = async (file: string) =>
        resultText(await registry.invoke(run, { tool: "lsp", args: { action: "diagnostics", file } }));
      const main = Object.keys(files).find((name) => name.startsWith("main."))!;
      try {
        expect(await diagnostics(main)).toBe(`no diagnostics in ${main}`);
        // The dependency is open on the server too (as after a navigation into it or a write).
        expect(await diagnostics(dependency)).toBe(`no diagnostics in ${dependency}`);
        writeFileSync(join(tree.dir, dependency), changed);
        const answer = await diagnostics(main);
        expect(answer).toMatch(expected);
        expect(answer).not.toContain("incomplete");
        // Nothing changed since: the same answer, without a new check.
        expect(await diagnostics(main)).toBe(answer);
      } finally {
        await run.dispose();
        tree.remove();
      }
    });
  },
);
