import { existsSync } from "node:fs";
import { join } from "node:path";
import { createRegistry, createRun, resultText } from "@tools/registry";
import { describe, expect, it, vi } from "vitest";
import { createLspSupervisor } from "../supervisor/supervisor.js";
import { ci, packageBin, tempTree } from "../test-support/fixtures.js";
import { lspTool } from "./lsp-tool.js";

const servers =
  existsSync(join(packageBin, "typescript-language-server")) &&
  existsSync(join(packageBin, "pyright-langserver"));

describe.skipIf(!servers && !ci)("symbols by query before any server runs", () => {
  it("starts the servers of the working directory's projects and searches them all", async () => {
    expect(servers, `typescript-language-server or pyright-langserver missing in ${packageBin}`).toBe(true);
    const tree = tempTree("symbols-start", {
      "web/package.json": '{ "name": "web", "private": true }\n',
      "web/tsconfig.json": '{ "compilerOptions": { "strict": true }, "include": ["src"] }\n',
      // Outside the tsconfig's project: not the file opened to load it.
      "web/vite.config.ts": "export const config = {};\n",
      "web/src/rates.ts": "export function convertRate(value: number): number {\n  return value * 2;\n}\n",
      "api/pyproject.toml": '[project]\nname = "api"\n',
      "api/svc/__init__.py": "",
      "api/svc/rates.py": "def convert_rate_py(value: float) -> float:\n    return value * 2\n",
      // A root with no source file of its language starts nothing.
      "docs/package.json": '{ "name": "docs", "private": true }\n',
    });
    const run = createRun({ workingDirectory: tree.dir });
    const supervisor = createLspSupervisor(run, {
      diagnosticsTimeoutMs: 20_000,
      binDirectories: [packageBin],
    });
    const registry = createRegistry({ tools: [lspTool] });
    const progress: string[] = [];
    registry.on((event) => {
      if (event.type === "call-progress") progress.push(event.message);
    });
    try {
      const answer = resultText(
        await registry.invoke(run, {
          tool: "lsp",
          args: { action: "symbols", query: "convert" },
        }),
      );
      expect(answer).toContain("function convertRate  web/src/rates.ts:1:1");
      expect(answer).toContain("function convert_rate_py  api/svc/rates.py:1:5");
      expect(answer).not.toContain("may not have indexed");
      expect(progress).toContain("starting python (api), typescript (web) to search the workspace");
      expect(
        supervisor
          .processes()
          .map((p) => `${p.language} ${p.root.slice(tree.dir.length + 1)}`)
          .sort(),
      ).toEqual(["python api", "typescript web"]);
      // The next query asks the running servers, without starting more.
      expect(
        resultText(
          await registry.invoke(run, { tool: "lsp", args: { action: "symbols", query: "convertRate" } }),
        ),
      ).toContain("web/src/rates.ts:1:1");
      expect(supervisor.processes()).toHaveLength(2);
    } finally {
      await run.dispose();
      tree.remove();
    }
  });

  it("looks up a nested root's server once per folder while looking for a file to open", async () => {
    expect(servers, `typescript-language-server missing in ${packageBin}`).toBe(true);
    const files: Record<string, string> = {
      "web/package.json": '{ "name": "web", "private": true }\n',
      "web/src/rates.ts": "export function convertRate(value: number): number {\n  return value * 2;\n}\n",
      // Looked through first (name order), all of another root: each would be a binary lookup.
      "web/lib/package.json": '{ "name": "lib", "private": true }\n',
    };
    for (let index = 0; index < 40; index++)
      files[`web/lib/m${index}.ts`] = `export const m${index} = ${index};\n`;
    const tree = tempTree("symbols-nested", files);
    const run = createRun({ workingDirectory: tree.dir });
    const supervisor = createLspSupervisor(run, { binDirectories: [packageBin] });
    const detect = vi.spyOn(supervisor, "detect");
    const registry = createRegistry({ tools: [lspTool] });
    try {
      const answer = resultText(
        await registry.invoke(run, { tool: "lsp", args: { action: "symbols", query: "convertRate" } }),
      );
      expect(answer).toContain("web/src/rates.ts:1:1");
      const inLib = detect.mock.calls.filter(([, file]) =>
        file.startsWith(join(tree.dir, "web", "lib") + "/"),
      );
      // web's look passes by lib's folder (one lookup); lib's own look takes its first file.
      expect(inLib.length).toBeLessThanOrEqual(3);
    } finally {
      await run.dispose();
      tree.remove();
    }
  });

  it("lists once a symbol that two packages' servers of a monorepo both find", async () => {
    expect(servers, `typescript-language-server missing in ${packageBin}`).toBe(true);
    const tsconfig = '{ "compilerOptions": { "strict": true, "noEmit": true }, "include": ["src"] }\n';
    // app imports core's source: core's file is in both servers' programs.
    const tree = tempTree("symbols-monorepo", {
      "packages/core/tsconfig.json": tsconfig,
      "packages/core/src/index.ts":
        "export function parseConfig(text: string): number {\n  return text.length;\n}\n",
      "packages/app/tsconfig.json": tsconfig,
      "packages/app/src/main.ts":
        'import { parseConfig } from "../../core/src/index.js";\nexport const size = parseConfig("a");\n',
    });
    const run = createRun({ workingDirectory: tree.dir });
    const supervisor = createLspSupervisor(run, {
      diagnosticsTimeoutMs: 20_000,
      binDirectories: [packageBin],
    });
    const registry = createRegistry({ tools: [lspTool] });
    try {
      const ask = async () =>
        resultText(
          await registry.invoke(run, { tool: "lsp", args: { action: "symbols", query: "parseConfig" } }),
        );
      const once = [
        "1 symbol matches 'parseConfig':",
        "function parseConfig  packages/core/src/index.ts:1:17  export function parseConfig(text: string): number {",
      ].join("\n");
      expect(await ask()).toBe(once);
      expect(
        supervisor
          .processes()
          .map((p) => p.root.slice(tree.dir.length + 1))
          .sort(),
      ).toEqual(["packages/app", "packages/core"]);
      // Asked again, of the two running servers.
      expect(await ask()).toBe(once);
    } finally {
      await run.dispose();
      tree.remove();
    }
  });

  it("searches the whole project whichever file it last looked at (a script outside the tsconfig)", async () => {
    expect(servers, `typescript-language-server missing in ${packageBin}`).toBe(true);
    // typescript-language-server asks tsserver's navto for the projects of the document it
    // touched last: the tsconfig's project, or the inferred one of bench/run.mjs, never both; one
    // of the two names below was "no workspace symbols match".
    const tree = tempTree("symbols-last-file", {
      "web/package.json": '{ "name": "web", "private": true, "type": "module" }\n',
      "web/tsconfig.json": '{ "compilerOptions": { "strict": true, "noEmit": true }, "include": ["src"] }\n',
      // A U+2028 ends a line for tsserver, not for `read`: navto's positions are converted too.
      "web/src/rates.ts":
        "// rate\u2028table\nexport function convertRate(value: number): number {\n  return value * 2;\n}\n",
      "web/bench/run.mjs": "const startedAt = Date.now();\nconsole.log(startedAt);\n",
    });
    const run = createRun({ workingDirectory: tree.dir });
    createLspSupervisor(run, { diagnosticsTimeoutMs: 20_000, binDirectories: [packageBin] });
    const registry = createRegistry({ tools: [lspTool] });
    const text = async (args: Record<string, unknown>) =>
      resultText(await registry.invoke(run, { tool: "lsp", args }));
    const both = async () => [
      await text({ action: "symbols", query: "convertRate" }),
      await text({ action: "symbols", query: "startedAt" }),
    ];
    const found = [
      [
        "1 symbol matches 'convertRate':",
        "function convertRate  web/src/rates.ts:2:17  export function convertRate(value: number): number {",
      ].join("\n"),
      [
        "1 symbol matches 'startedAt':",
        "constant startedAt  web/bench/run.mjs:1:7  const startedAt = Date.now();",
      ].join("\n"),
    ];
    try {
      expect(
        await text({ action: "hover", file: "web/src/rates.ts", line: 2, symbol: "convertRate" }),
      ).toContain("function convertRate(value: number): number");
      expect(
        await text({ action: "hover", file: "web/bench/run.mjs", line: 1, symbol: "startedAt" }),
      ).toContain("const startedAt: number");
      expect(await both()).toEqual(found);
      await text({ action: "hover", file: "web/src/rates.ts", line: 3, symbol: "value" });
      expect(await both()).toEqual(found);
    } finally {
      await run.dispose();
      tree.remove();
    }
  });

  it("says what is missing when the working directory has no project root", async () => {
    const tree = tempTree("symbols-none", { "notes.txt": "nothing here\n" });
    const run = createRun({ workingDirectory: tree.dir });
    createLspSupervisor(run, { binDirectories: [packageBin] });
    const registry = createRegistry({ tools: [lspTool] });
    try {
      const result = await registry.invoke(run, { tool: "lsp", args: { action: "symbols", query: "x" } });
      expect(result.isError).toBe(true);
      expect(resultText(result)).toMatch(
        /^no project root with a language server was found \(within 4 folder levels below the working directory .*; lsp status lists what is missing\); add file/,
      );
    } finally {
      await run.dispose();
      tree.remove();
    }
  });
});
