import { existsSync } from "node:fs";
import { join } from "node:path";
import { createRegistry, createRun, resultText } from "@tools/registry";
import { beforeAll, describe, expect, it } from "vitest";
import { createLspSupervisor } from "../supervisor/supervisor.js";
import { ci, packageBin, tempTree } from "../test-support/fixtures.js";
import { lspTool } from "../tools/lsp-tool.js";
import { findBinary } from "./find-binary.js";

describe.skipIf(!findBinary("gopls", [], []).found && !ci)("gopls in a go.work workspace", () => {
  beforeAll(() => {
    expect(findBinary("gopls", [], []).found, "gopls not found on PATH").toBe(true);
  });

  it("runs one gopls for both modules, and navigates from one into the other", async () => {
    // Module a imports module b, which only go.work makes resolvable (no require, no replace).
    const tree = tempTree("go-work", {
      "go.work": "go 1.19\n\nuse (\n\t./a\n\t./b\n)\n",
      "a/go.mod": "module example.com/a\n\ngo 1.19\n",
      "a/a.go":
        'package a\n\nimport "example.com/b"\n\n// Use calls into module b.\nfunc Use() int { return b.Value() }\n',
      "b/go.mod": "module example.com/b\n\ngo 1.19\n",
      "b/b.go": "package b\n\n// Value is one.\nfunc Value() int { return 1 }\n",
    });
    const run = createRun({ workingDirectory: tree.dir });
    const supervisor = createLspSupervisor(run, { diagnosticsTimeoutMs: 20_000 });
    const registry = createRegistry({ tools: [lspTool] });
    const lsp = async (args: Record<string, unknown>) =>
      resultText(await registry.invoke(run, { tool: "lsp", args }));
    try {
      expect(await lsp({ action: "definition", file: "a/a.go", line: 6, symbol: "Value" })).toContain(
        "b/b.go:4:6  func Value() int { return 1 }",
      );
      // A question about a file of module b goes to the same server, which sees module a's use.
      expect(await lsp({ action: "references", file: "b/b.go", line: 4, symbol: "Value" })).toContain(
        "a/a.go:6:",
      );
      const processes = supervisor.processes();
      expect(processes, JSON.stringify(processes)).toHaveLength(1);
      expect(processes[0]).toMatchObject({ language: "go", root: tree.dir, state: "running" });
      expect(await lsp({ action: "status" })).toMatch(/^go: root \. \(marker go\.work\), binary found/m);
      // A search without file asks the workspace's server, and names no module as not searched.
      expect(await lsp({ action: "symbols", query: "Value" })).toBe(
        "1 symbol matches 'Value':\nfunction Value (in example.com/b)  b/b.go:4:6  func Value() int { return 1 }",
      );
    } finally {
      await run.dispose();
      tree.remove();
    }
  });

  it("references name the uses in a module nested in the answering one, which its gopls does not search", async () => {
    // No go.work: the nested module is a root of its own, with its own gopls.
    const tree = tempTree("go-nested", {
      "go.mod": "module example.com/top\n\ngo 1.19\n",
      "top.go": 'package top\n\n// Greet says hello.\nfunc Greet() string { return "hello" }\n',
      "use.go": "package top\n\nfunc use() string { return Greet() }\n",
      "tools/go.mod":
        "module example.com/tools\n\ngo 1.19\n\nrequire example.com/top v0.0.0\n\nreplace example.com/top => ../\n",
      "tools/main.go": 'package main\n\nimport "example.com/top"\n\nfunc main() { println(top.Greet()) }\n',
    });
    const run = createRun({ workingDirectory: tree.dir });
    const supervisor = createLspSupervisor(run, { diagnosticsTimeoutMs: 20_000 });
    const registry = createRegistry({ tools: [lspTool] });
    const lsp = async (args: Record<string, unknown>) =>
      resultText(await registry.invoke(run, { tool: "lsp", args }));
    try {
      // The run works in the nested module too: its server is started.
      expect(await lsp({ action: "hover", file: "tools/main.go", line: 5, symbol: "main" })).toContain(
        "func main()",
      );
      const answer = await lsp({ action: "references", file: "top.go", line: 4, symbol: "Greet" });
      const lines = answer.split("\n");
      expect(lines.slice(0, 3)).toEqual([
        "2 references of 'Greet':",
        'top.go:4:6  func Greet() string { return "hello" }',
        "use.go:3:28  func use() string { return Greet() }",
      ]);
      expect(lines.slice(3)).toEqual([
        "not searched: 'Greet' is also named in 1 file that the server which answered (root .) does not search; if they use this symbol, ask from one of them:",
        "tools/main.go:5  func main() { println(top.Greet()) }",
      ]);
      expect(
        supervisor
          .processes()
          .map((process) => process.root)
          .sort(),
      ).toEqual([tree.dir, `${tree.dir}/tools`].sort());
    } finally {
      await run.dispose();
      tree.remove();
    }
  });
});

describe.skipIf(!existsSync(join(packageBin, "typescript-language-server")) && !ci)(
  "typescript-language-server in a monorepo with one tsconfig.json",
  () => {
    it("roots at the tsconfig.json above the packages' package.json: references span its packages", async () => {
      // The packages hold a package.json only; the tsconfig.json above includes their sources.
      const tree = tempTree("ts-mono", {
        "tsconfig.json": JSON.stringify({
          compilerOptions: { strict: true, module: "nodenext", noEmit: true },
          include: ["packages/*/src"],
        }),
        "packages/c/package.json": '{ "name": "c", "type": "module" }\n',
        "packages/c/src/c.ts": "export function cfun(n: number) { return n; }\n",
        "packages/d/package.json": '{ "name": "d", "type": "module" }\n',
        "packages/d/src/d.ts": 'import { cfun } from "../../c/src/c.js";\nexport const dv = cfun(1);\n',
      });
      const run = createRun({ workingDirectory: tree.dir });
      const supervisor = createLspSupervisor(run, {
        binDirectories: [packageBin],
        diagnosticsTimeoutMs: 20_000,
      });
      const registry = createRegistry({ tools: [lspTool] });
      const lsp = async (args: Record<string, unknown>) =>
        resultText(await registry.invoke(run, { tool: "lsp", args }));
      try {
        const answer = await lsp({
          action: "references",
          file: "packages/c/src/c.ts",
          line: 1,
          symbol: "cfun",
        });
        expect(answer.split("\n")).toEqual([
          "3 references of 'cfun':",
          "packages/c/src/c.ts:1:17  export function cfun(n: number) { return n; }",
          'packages/d/src/d.ts:1:10  import { cfun } from "../../c/src/c.js";',
          "packages/d/src/d.ts:2:19  export const dv = cfun(1);",
        ]);
        expect(supervisor.processes().map(({ language, root }) => ({ language, root }))).toEqual([
          { language: "typescript", root: tree.dir },
        ]);
        // status names the marker that made the root, for the folder of each package too.
        const status = await lsp({ action: "status" });
        expect(status).toMatch(/^typescript: root \. \(marker tsconfig\.json\), binary found/m);
        expect(status).not.toMatch(/marker package\.json/);
        // The project check runs once, at the tsconfig.json that owns the packages' files.
        expect((await lsp({ action: "diagnostics", file: "*" })).split("\n")).toEqual([
          "typescript (tsc --noEmit --pretty false -p . in .): 0 problems",
          "typescript (packages/c): checked with . (its check covers this folder)",
          "typescript (packages/d): checked with . (its check covers this folder)",
        ]);
      } finally {
        await run.dispose();
        tree.remove();
      }
    });

    it("does not call a package.json-only folder checked by a tsconfig.json whose include leaves it out", async () => {
      const tree = tempTree("ts-include", {
        "tsconfig.json": JSON.stringify({
          compilerOptions: { strict: true, module: "nodenext", noEmit: true },
          include: ["src"],
        }),
        "src/a.ts": "export const a = 1;\n",
        "scripts/package.json": '{ "name": "scripts", "type": "module" }\n',
        "scripts/run.ts": "export const broken: number = 'text';\n",
      });
      const run = createRun({ workingDirectory: tree.dir });
      createLspSupervisor(run, { binDirectories: [packageBin], diagnosticsTimeoutMs: 20_000 });
      const registry = createRegistry({ tools: [lspTool] });
      try {
        const answer = resultText(
          await registry.invoke(run, { tool: "lsp", args: { action: "diagnostics", file: "*" } }),
        );
        const lines = answer.split("\n");
        expect(lines[0], answer).toBe("typescript (tsc --noEmit --pretty false -p . in .): 0 problems");
        expect(lines[1], answer).toMatch(/^typescript \(scripts\): .*no tsconfig\.json/);
        expect(answer).not.toContain("checked with .");
      } finally {
        await run.dispose();
        tree.remove();
      }
    });
  },
);
