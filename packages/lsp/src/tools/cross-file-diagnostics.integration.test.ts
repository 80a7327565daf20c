import { existsSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRegistry, createRun, resultText } from "@tools/registry";
import { describe, expect, it } from "vitest";
import { findBinary } from "../servers/find-binary.js";
import { createLspSupervisor } from "../supervisor/supervisor.js";
import { ci, packageBin, tempTree } from "../test-support/fixtures.js";
import { lspTool } from "./lsp-tool.js";

const servers = ["clangd", "gopls"] as const;

interface Case {
  server: string;
  files: Record<string, string>;
  dependency: string;
  changed: string;
  expected: RegExp;
}

/** A C file using a header. */
const clangdCase: Case = {
  server: "clangd",
  files: {
    "compile_flags.txt": "-std=c11\n",
    "api.h": "int answer(void);\n",
    "main.c": '#include "api.h"\nint main(void) {\n  return answer();\n}\n',
  },
  dependency: "api.h",
  changed: "int answer(int seed);\n",
  expected: /main\.c:3:\d+ error .*(few arguments|expected 1)/i,
};

/** A Go file using a function of the package's other file. */
const goplsCase: Case = {
  server: "gopls",
  files: {
    "go.mod": "module example.com/cross\n\ngo 1.19\n",
    "api.go": 'package main\n\nfunc answer() string { return "42" }\n',
    "main.go": "package main\n\nfunc main() {\n\tprintln(answer())\n}\n",
  },
  dependency: "api.go",
  changed: 'package main\n\nfunc answer(seed int) string { return "42" }\n',
  expected: /main\.go:4:\d+ error .*not enough arguments/,
};

/**
 * A file whose text did not change still gets new diagnostics when a file it depends on (a
 * header, the package's other file) changed on disk: clangd answers per document version and
 * gopls per edit, so its last publish would otherwise come back as fresh.
 */
describe.skipIf(servers.some((command) => !findBinary(command, [], []).found) && !ci)(
  "diagnostics of an unchanged file after a file it depends on changed",
  () => {
    it.each<Case>([clangdCase, goplsCase])("$server", async ({ files, dependency, changed, expected }) => {
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

describe.skipIf(!findBinary("clangd", [], []).found && !ci)(
  "diagnostics of an unchanged file after an unrelated file changed (clangd)",
  () => {
    it("answers fresh at once: clangd publishes nothing for a same-text change, so it is reopened", async () => {
      const tree = tempTree("unrelated", {
        "compile_flags.txt": "-std=c11\n",
        "main.c": "int main(void) {\n  return 0;\n}\n",
        "other.c": "int other(void) {\n  return 1;\n}\n",
      });
      const run = createRun({ workingDirectory: tree.dir });
      // A stuck wait would run into this bound and say "incomplete".
      createLspSupervisor(run, { diagnosticsTimeoutMs: 20_000 });
      const registry = createRegistry({ tools: [lspTool] });
      const diagnostics = async (file: string) =>
        resultText(await registry.invoke(run, { tool: "lsp", args: { action: "diagnostics", file } }));
      try {
        expect(await diagnostics("main.c")).toBe("no diagnostics in main.c");
        expect(await diagnostics("other.c")).toBe("no diagnostics in other.c");
        writeFileSync(join(tree.dir, "other.c"), "int other(void) {\n  return missing;\n}\n");
        expect(await diagnostics("other.c")).toMatch(/other\.c:2:\d+ error .*missing/);
        expect(await diagnostics("main.c")).toBe("no diagnostics in main.c");
        expect(await diagnostics("main.c")).toBe("no diagnostics in main.c");
      } finally {
        await run.dispose();
        tree.remove();
      }
    });
  },
);

const nodeServers = ["pyright-langserver", "typescript-language-server"] as const;

/**
 * The same when the file depended on was never opened on the server and a shell command changed
 * it: the server is told through its file watchers (`workspace/didChangeWatchedFiles`), or, for
 * clangd (which registers none), the unchanged file is checked again and clangd re-reads it.
 */
describe.skipIf(
  (servers.some((command) => !findBinary(command, [], []).found) ||
    nodeServers.some((command) => !existsSync(join(packageBin, command)))) &&
    !ci,
)("diagnostics and definitions after a file never opened changed on disk", () => {
  it.each<Case>([
    clangdCase,
    goplsCase,
    {
      server: "pyright",
      files: {
        "pyproject.toml": '[project]\nname = "cross"\n',
        "api.py": "def answer() -> int:\n    return 42\n",
        "main.py": "from api import answer\n\nprint(answer())\n",
      },
      dependency: "api.py",
      changed: "def answer(seed: int) -> int:\n    return seed\n",
      expected: /main\.py:3:\d+ error .*seed/,
    },
    {
      server: "typescript",
      files: {
        "tsconfig.json": '{ "compilerOptions": { "strict": true } }\n',
        "api.ts": "export function answer(): number {\n  return 42;\n}\n",
        "main.ts": 'import { answer } from "./api";\nconsole.log(answer());\n',
      },
      dependency: "api.ts",
      changed: "export function answer(seed: number): number {\n  return seed;\n}\n",
      expected: /main\.ts:2:\d+ error .*Expected 1 arguments/,
    },
  ])("$server", async ({ files, dependency, changed, expected }) => {
    const tree = tempTree("unopened", files);
    const run = createRun({ workingDirectory: tree.dir });
    createLspSupervisor(run, { diagnosticsTimeoutMs: 20_000, binDirectories: [packageBin] });
    const registry = createRegistry({ tools: [lspTool] });
    const lsp = async (args: Record<string, unknown>) =>
      resultText(await registry.invoke(run, { tool: "lsp", args }));
    const main = Object.keys(files).find((name) => name.startsWith("main."))!;
    const callLine = main === "main.ts" ? 2 : main === "main.py" ? 3 : main === "main.c" ? 3 : 4;
    try {
      expect(await lsp({ action: "diagnostics", file: main })).toBe(`no diagnostics in ${main}`);
      const declared = files[dependency]!.split("\n").findIndex((text) => text.includes("answer")) + 1;
      const at = (line: number) => new RegExp(`\\n${dependency.replace(".", "\\.")}:${line}:\\d+ `);
      expect(await lsp({ action: "definition", file: main, line: callLine, symbol: "answer" })).toMatch(
        at(declared),
      );
      // Two lines above the function, and a new signature: never opened on the server.
      writeFileSync(join(tree.dir, dependency), `${main === "main.py" ? "#" : "//"} moved\n\n${changed}`);
      const answer = await lsp({ action: "diagnostics", file: main });
      expect(answer).toMatch(expected);
      expect(answer).not.toContain("incomplete");
      // Navigation into it follows the new text too.
      expect(await lsp({ action: "definition", file: main, line: callLine, symbol: "answer" })).toMatch(
        at(changed.split("\n").findIndex((text) => text.includes("answer")) + 3),
      );
    } finally {
      await run.dispose();
      tree.remove();
    }
  });
});

describe.skipIf(!findBinary("gopls", [], []).found && !ci)("workspace symbols after a shell command", () => {
  it("status says when a symlinked folder leaves part of the root unwatched", async () => {
    const outside = tempTree("symlinked-lib", { "lib.go": "package lib\n" });
    const tree = tempTree("symlinked-root", {
      "go.mod": "module example.com/linked\n\ngo 1.19\n",
      "main.go": "package main\n\nfunc main() {}\n",
    });
    symlinkSync(outside.dir, join(tree.dir, "lib"));
    const run = createRun({ workingDirectory: tree.dir });
    createLspSupervisor(run);
    const registry = createRegistry({ tools: [lspTool] });
    const lsp = async (args: Record<string, unknown>) =>
      resultText(await registry.invoke(run, { tool: "lsp", args }));
    try {
      expect(await lsp({ action: "symbols", file: "main.go" })).toContain("function main");
      expect(await lsp({ action: "status" })).toMatch(
        /^go: root \. \(marker go\.mod\), binary found .*state running \(pid \d+\); changes on disk watched in 1 folder only \(the folder bound, or a symlinked folder not followed\)/m,
      );
    } finally {
      await run.dispose();
      tree.remove();
      outside.remove();
    }
  });

  it("finds a function added to a file never opened, and no longer one it removed", async () => {
    const tree = tempTree("symbols-on-disk", {
      "go.mod": "module example.com/symbols\n\ngo 1.19\n",
      "api.go": "package main\n\nfunc oldHelper() int { return 1 }\n",
      "main.go": "package main\n\nfunc main() {\n\tprintln(oldHelper())\n}\n",
    });
    const run = createRun({ workingDirectory: tree.dir });
    createLspSupervisor(run, { diagnosticsTimeoutMs: 20_000 });
    const registry = createRegistry({ tools: [lspTool] });
    const search = async (query: string) =>
      resultText(
        await registry.invoke(run, { tool: "lsp", args: { action: "symbols", query, file: "main.go" } }),
      );
    try {
      expect(await search("oldHelper")).toContain("api.go:3:6  func oldHelper() int { return 1 }");
      writeFileSync(
        join(tree.dir, "api.go"),
        "package main\n\n// newHelper replaces oldHelper.\nfunc newHelper() int { return 2 }\n",
      );
      expect(await search("newHelper")).toContain("api.go:4:6  func newHelper() int { return 2 }");
      expect(await search("oldHelper")).not.toContain("api.go");
    } finally {
      await run.dispose();
      tree.remove();
    }
  });
});
