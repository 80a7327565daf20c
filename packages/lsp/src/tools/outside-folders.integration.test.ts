import { existsSync, mkdirSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRegistry, createRun, resultText, type Run } from "@tools/registry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LanguageClient } from "../client/language-client.js";
import { outsideFoldersLimit } from "../client/outside-folders.js";
import { createLspSupervisor, type LspSupervisor } from "../supervisor/supervisor.js";
import { ci, groupGoneWithin, packageBin, tempTree } from "../test-support/fixtures.js";
import { suiteRequestTimeoutMs } from "../test-support/server-suite.js";
import { lspTool } from "./lsp-tool.js";

const found = existsSync(join(packageBin, "typescript-language-server"));

const compilerOptions = {
  strict: true,
  target: "ES2022",
  module: "NodeNext",
  moduleResolution: "NodeNext",
  types: [],
  noEmit: true,
};

/** The tsserver commands `client` passes through from now on (see the returned stop). */
function recordCommands(client: LanguageClient): { sent: [string, string | undefined][]; stop: () => void } {
  const sent: [string, string | undefined][] = [];
  const request = client.request.bind(client);
  client.request = (<R>(method: string, params: unknown, timeoutMs: undefined, signal?: AbortSignal) => {
    const args = (params as { arguments?: unknown[] } | undefined)?.arguments;
    if (method === "workspace/executeCommand" && typeof args?.[0] === "string")
      sent.push([args[0], (args[1] as { file?: string } | undefined)?.file]);
    return request<R>(method, params, timeoutMs, signal);
  }) as typeof client.request;
  return { sent, stop: () => (client.request = request) };
}

describe.skipIf(!found && !ci)("a tsconfig extending a base outside the server's root", () => {
  let tree: ReturnType<typeof tempTree>;
  let run: Run;
  let supervisor: LspSupervisor;
  const registry = createRegistry({ tools: [lspTool], resultWrappers: [], approval: "auto" });
  const text = async (args: Record<string, unknown>) =>
    resultText(await registry.invoke(run, { tool: "lsp", args }));
  const base = (include: string[]) => JSON.stringify({ compilerOptions, include }, null, 2);
  beforeAll(() => {
    expect(found, `typescript-language-server missing in ${packageBin}; run pnpm install`).toBe(true);
    tree = tempTree("extends-outside", {
      // Named as a workspace package's shared config often is: not tsconfig*.json.
      "shared/base.json": base(["../packages/a/src", "../lib"]),
      "lib/util.ts": `export const util = 1;\n`,
      "packages/a/package.json": `{ "name": "a", "private": true, "type": "module" }`,
      "packages/a/tsconfig.json": JSON.stringify({ extends: "../../shared/base.json" }),
      "packages/a/src/app.ts": `export const one = 1;\n`,
      "packages/a/tools/gen.ts": `export function generated0(): number {\n  return 0;\n}\n`,
    });
    run = createRun({ workingDirectory: tree.dir });
    supervisor = createLspSupervisor(run, {
      binDirectories: [packageBin],
      diagnosticsTimeoutMs: 15_000,
      requestTimeoutMs: suiteRequestTimeoutMs,
    });
  });
  afterAll(async () => {
    const pids = supervisor.processes().flatMap((p) => (p.pid ? [p.pid] : []));
    await run.dispose();
    for (const pid of pids) expect(await groupGoneWithin(pid)).toBe(true);
    tree.remove();
  });

  // tools/gen.ts, outside the base's include, is found not held when it changes and remembered so
  // until the projects can change: a change to the base (outside the root, and not named
  // tsconfig*.json) did not count as one, the file stayed remembered after the base took it in,
  // and its rewrites were never read again (its symbols named its old text until tsserver's watch).
  it("a change to the base clears what is remembered as not held", async () => {
    const gen = join(tree.dir, "packages/a/tools/gen.ts");
    const baseFile = join(tree.dir, "shared/base.json");
    const app = { file: "packages/a/src/app.ts", line: 1, symbol: "one" };
    await text({ action: "hover", ...app });
    const client = supervisor.runningClientFor(join(tree.dir, "packages/a/src/app.ts"))!;
    expect(client.root).toBe(join(tree.dir, "packages/a"));
    const { sent, stop } = recordCommands(client);
    try {
      writeFileSync(gen, `export function generated1(): number {\n  return 1;\n}\n`);
      await text({ action: "hover", ...app });
      // Listed, found not held.
      expect(sent.filter(([command]) => command === "projectInfo").length).toBe(1);
      writeFileSync(baseFile, base(["../packages/a/src", "../lib", "../packages/a/tools"]));
      // tsserver's own watch of the base (bounded): its project then holds tools/gen.ts.
      let held = false;
      for (let turn = 0; turn < 50 && !held; turn++) {
        held = (await text({ action: "symbols", query: "generated1", file: app.file })).includes(
          "generated1  packages/a/tools/gen.ts:",
        );
        if (!held) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(held).toBe(true);
      const wrong: string[] = [];
      for (let i = 2; i < 5; i++) {
        sent.length = 0;
        unlinkSync(gen);
        writeFileSync(gen, `export function generated${i}(): number {\n  return ${i};\n}\n`);
        const answer = await text({ action: "symbols", query: `generated${i}`, file: app.file });
        if (!sent.some(([command, file]) => command === "reload" && file === gen))
          wrong.push(`round ${i}: not read again (${JSON.stringify(sent)})`);
        if (!answer.includes(`generated${i}  packages/a/tools/gen.ts:`)) wrong.push(`round ${i}: ${answer}`);
      }
      expect(wrong).toEqual([]);
    } finally {
      stop();
      writeFileSync(baseFile, base(["../packages/a/src", "../lib"]));
    }
  });

  // lib/ (outside the root, in the base's include) is watched, not its subfolders: a folder a
  // checkout added there (lib/feature/) was not watched until the projects were listed again,
  // which only a change in the root or a document opened brings, and every rewrite of its files
  // was left to tsserver's own watch (symbols named their old text).
  it("reads again the files of a folder created in a watched folder outside the root", async () => {
    const feature = join(tree.dir, "lib/feature");
    const file = join(feature, "x.ts");
    const app = { file: "packages/a/src/app.ts", line: 1, symbol: "one" };
    await text({ action: "hover", ...app });
    const client = supervisor.runningClientFor(join(tree.dir, "packages/a/src/app.ts"))!;
    const { sent, stop } = recordCommands(client);
    const wrong: string[] = [];
    try {
      mkdirSync(feature);
      writeFileSync(file, `export function feature0(): number {\n  return 0;\n}\n`);
      // tsserver's own watch adds it to the project (bounded).
      let held = false;
      for (let turn = 0; turn < 50 && !held; turn++) {
        held = (await text({ action: "symbols", query: "feature0", file: app.file })).includes(
          "feature0  lib/feature/x.ts:",
        );
        if (!held) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(held).toBe(true);
      for (let i = 1; i < 4; i++) {
        sent.length = 0;
        unlinkSync(file);
        writeFileSync(file, `export function feature${i}(): number {\n  return ${i};\n}\n`);
        const answer = await text({ action: "symbols", query: `feature${i}`, file: app.file });
        if (!sent.some(([command, path]) => command === "reload" && path === file))
          wrong.push(`round ${i}: not read again (${JSON.stringify(sent)})`);
        if (!answer.includes(`feature${i}  lib/feature/x.ts:`)) wrong.push(`round ${i}: ${answer}`);
      }
    } finally {
      stop();
      rmSync(feature, { recursive: true, force: true });
    }
    expect(wrong).toEqual([]);
  });
});

/** Folders of one file each outside the root, past the bound of those watched. */
const overBound = outsideFoldersLimit + 7;

describe.skipIf(!found && !ci)("more folders outside the root than are watched", () => {
  let tree: ReturnType<typeof tempTree>;
  let run: Run;
  let supervisor: LspSupervisor;
  const registry = createRegistry({ tools: [lspTool], resultWrappers: [], approval: "auto" });
  const text = async (args: Record<string, unknown>) =>
    resultText(await registry.invoke(run, { tool: "lsp", args }));
  beforeAll(() => {
    expect(found, `typescript-language-server missing in ${packageBin}; run pnpm install`).toBe(true);
    const files: Record<string, string> = {
      "packages/a/package.json": `{ "name": "a", "private": true, "type": "module" }`,
      "packages/a/tsconfig.json": JSON.stringify({ compilerOptions, include: ["src", "../../shared"] }),
      "packages/a/src/app.ts": `export const one = 1;\n`,
    };
    for (let i = 0; i < overBound; i++) files[`shared/d${i}/m.ts`] = `export const v${i} = ${i};\n`;
    tree = tempTree("outside-over-bound", files);
    run = createRun({ workingDirectory: tree.dir });
    supervisor = createLspSupervisor(run, {
      binDirectories: [packageBin],
      diagnosticsTimeoutMs: 15_000,
      requestTimeoutMs: suiteRequestTimeoutMs,
    });
  });
  afterAll(async () => {
    const pids = supervisor.processes().flatMap((p) => (p.pid ? [p.pid] : []));
    await run.dispose();
    for (const pid of pids) expect(await groupGoneWithin(pid)).toBe(true);
    tree.remove();
  });

  // Past the bound, folders were left unwatched and nothing said so: a checkout there was left
  // to tsserver's own watch, and an answer right after could name the old text, unexplained.
  it("says how many are not watched, once in an answer and in status", async () => {
    const app = { file: "packages/a/src/app.ts", line: 1, symbol: "one" };
    const said =
      /(\d+) folders outside packages\/a that typescript-language-server's projects read are not watched \(past the bound of 500\): a change there \(a checkout\) is left to typescript-language-server's own watch/;
    const first = await text({ action: "hover", ...app });
    expect(first).toMatch(said);
    expect(Number(said.exec(first)?.[1])).toBe(overBound - outsideFoldersLimit);
    expect(await text({ action: "hover", ...app })).not.toMatch(said);
    const status = await text({ action: "status" });
    expect(status).toMatch(new RegExp(`^typescript: root packages/a .*state running.*; ${said.source}`, "m"));
  });
});
