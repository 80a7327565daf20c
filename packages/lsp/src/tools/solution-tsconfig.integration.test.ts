import { existsSync, mkdirSync, rmSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRegistry, createRun, resultText, type Run } from "@tools/registry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLspSupervisor, type LspSupervisor } from "../supervisor/supervisor.js";
import { ci, groupGoneWithin, packageBin, tempTree } from "../test-support/fixtures.js";
import { lineOf } from "../test-support/replaced-on-disk.js";
import { suiteRequestTimeoutMs } from "../test-support/server-suite.js";
import { lspTool } from "./lsp-tool.js";

const found = existsSync(join(packageBin, "typescript-language-server"));

const compilerOptions = {
  strict: true,
  composite: true,
  target: "ES2022",
  module: "NodeNext",
  moduleResolution: "NodeNext",
  types: [],
  rootDir: "src",
  outDir: "dist",
};
/** Times packages/b's file is checked out anew and asked about at once. */
const rounds = 6;

const libText = [
  `/** Adds two numbers. */`,
  `export function add(a: number, b: number): number {`,
  `  return a + b;`,
  `}`,
  ``,
].join("\n");

describe.skipIf(!found && !ci)("a solution-style tsconfig, a referenced package changed on disk", () => {
  let tree: ReturnType<typeof tempTree>;
  let run: Run;
  let supervisor: LspSupervisor;
  const registry = createRegistry({ tools: [lspTool], resultWrappers: [], approval: "auto" });
  const text = async (args: Record<string, unknown>) =>
    resultText(await registry.invoke(run, { tool: "lsp", args }));
  beforeAll(() => {
    expect(found, `typescript-language-server missing in ${packageBin}; run pnpm install`).toBe(true);
    tree = tempTree("solution", {
      "package.json": `{ "name": "root", "private": true, "type": "module" }`,
      "tsconfig.json": JSON.stringify({
        files: [],
        references: [{ path: "packages/a" }, { path: "packages/b" }],
      }),
      "packages/a/package.json": `{ "name": "a", "private": true, "type": "module" }`,
      "packages/a/tsconfig.json": JSON.stringify({
        compilerOptions,
        include: ["src"],
        references: [{ path: "../b" }],
      }),
      "packages/a/src/app.ts": `import { add } from "../../b/src/lib.js";\n\nexport const sum = add(1, 2);\n`,
      "packages/b/package.json": `{ "name": "b", "private": true, "type": "module" }`,
      "packages/b/tsconfig.json": JSON.stringify({ compilerOptions, include: ["src"] }),
      "packages/b/src/lib.ts": libText,
      "packages/b/src/use.ts": `import { add } from "./lib.js";\n\nexport const three = add(1, 2);\n`,
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

  // tsserver reads the sources of the referenced package (packages/b) for packages/a's project,
  // outside the server's root (packages/a, the nearest tsconfig): the root's folder watch did not
  // see a `git checkout` there, nothing was read again, and the answers named what b had before
  // until tsserver's own watch told it (stale in most rounds).
  it("hover, definition, references and workspace symbols see packages/b as checked out", async () => {
    const lib = join(tree.dir, "packages/b/src/lib.ts");
    const app = { file: "packages/a/src/app.ts", line: 3, symbol: "add" };
    const wrong: string[] = [];
    try {
      for (let i = 0; i < rounds; i++) {
        await text({ action: "hover", ...app });
        const now = `${"\n".repeat(3 + i)}${libText
          .replace("Adds two numbers.", `Adds two numbers, round ${i}.`)
          .replace(
            "b: number)",
            `b: number, c${i}?: number)`,
          )}export function checkedOut${i}(): number {\n  return add(${i}, 1);\n}\n`;
        unlinkSync(lib);
        writeFileSync(lib, now);
        const hover = await text({ action: "hover", ...app });
        if (!hover.includes(`round ${i}.`) || !hover.includes(`c${i}?: number`))
          wrong.push(`hover ${i}: ${hover}`);
        const definition = await text({ action: "definition", ...app });
        const want = `packages/b/src/lib.ts:${lineOf(now, "export function add")}:17`;
        if (!definition.includes(want)) wrong.push(`definition ${i}: want ${want}, got ${definition}`);
        const references = await text({ action: "references", ...app });
        const use = `packages/b/src/lib.ts:${lineOf(now, `return add(${i}, 1)`)}:10`;
        if (!references.includes(use)) wrong.push(`references ${i}: want ${use}, got ${references}`);
        const symbols = await text({
          action: "symbols",
          query: `checkedOut${i}`,
          file: "packages/a/src/app.ts",
        });
        if (!symbols.includes(`function checkedOut${i}  packages/b/src/lib.ts:`))
          wrong.push(`symbols ${i}: ${symbols}`);
      }
    } finally {
      writeFileSync(lib, libText);
    }
    expect(wrong).toEqual([]);
    // Read again by the server, not opened on it (b's file is another root's).
    const client = supervisor.runningClientFor(join(tree.dir, "packages/a/src/app.ts"));
    expect(client?.openUris().map((uri) => supervisor.pathOf(uri))).toEqual([
      join(tree.dir, "packages/a/src/app.ts"),
    ]);
  });

  // A checkout that removes a folder and writes it again (a branch without it, then back) ended
  // the folder's watch for good: the watch of a removed folder is gone, yet it was kept as
  // watched, so a later listing did not watch it again, and every later rewrite there went unseen.
  it("sees packages/b rewritten after its folder was removed and written again", async () => {
    const src = join(tree.dir, "packages/b/src");
    const lib = join(src, "lib.ts");
    const use = join(src, "use.ts");
    const app = { file: "packages/a/src/app.ts", line: 3, symbol: "add" };
    await text({ action: "hover", ...app });
    const client = supervisor.runningClientFor(join(tree.dir, "packages/a/src/app.ts"))!;
    const reloaded: string[] = [];
    const request = client.request.bind(client);
    client.request = (<R>(method: string, params: unknown, timeoutMs: undefined, signal?: AbortSignal) => {
      const args = (params as { arguments?: unknown[] } | undefined)?.arguments;
      if (method === "workspace/executeCommand" && args?.[0] === "reload")
        reloaded.push((args[1] as { file: string }).file);
      return request<R>(method, params, timeoutMs, signal);
    }) as typeof client.request;
    const wrong: string[] = [];
    try {
      rmSync(src, { recursive: true });
      await new Promise((resolve) => setTimeout(resolve, 50));
      mkdirSync(src);
      writeFileSync(lib, libText.replace("Adds two numbers.", "Adds two numbers, back."));
      writeFileSync(use, `import { add } from "./lib.js";\n\nexport const three = add(1, 2);\n`);
      const back = await text({ action: "hover", ...app });
      if (!back.includes("Adds two numbers, back.")) wrong.push(`back: ${back}`);
      for (let i = 0; i < 3; i++) {
        reloaded.length = 0;
        unlinkSync(lib);
        writeFileSync(lib, libText.replace("Adds two numbers.", `Adds two numbers, again ${i}.`));
        const hover = await text({ action: "hover", ...app });
        if (!reloaded.includes(lib)) wrong.push(`round ${i}: not read again`);
        if (!hover.includes(`again ${i}.`)) wrong.push(`round ${i}: ${hover}`);
      }
    } finally {
      client.request = request;
      writeFileSync(lib, libText);
    }
    expect(wrong).toEqual([]);
  });
});
