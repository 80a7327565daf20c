import { existsSync } from "node:fs";
import { join } from "node:path";
import { createRegistry, createRun, resultText, type Run } from "@tools/registry";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { LanguageClient } from "../client/language-client.js";
import { createLspSupervisor, type LspSupervisor } from "../supervisor/supervisor.js";
import { ci, groupGoneWithin, packageBin, tempTree } from "../test-support/fixtures.js";
import { lineOf, replaceOnDisk } from "../test-support/replaced-on-disk.js";
import { suiteRequestTimeoutMs, useServerFixture } from "../test-support/server-suite.js";
import { lspTool } from "./lsp-tool.js";

const found = existsSync(join(packageBin, "typescript-language-server"));

/** Times the file is replaced and asked about at once: tsserver lagged in 2 to 4 of 12 before. */
const rounds = 12;

// A file not open here is read by tsserver when its own watch tells it of a change: right after
// a `git checkout` (the file removed, then written anew) its answer named where the definition was,
// shown with the line now on disk there.
describe.skipIf(!found && !ci)("definitions in a file replaced on disk just before the question", () => {
  beforeAll(() => {
    expect(found, `typescript-language-server missing in ${packageBin}; run pnpm install`).toBe(true);
  });
  const server = useServerFixture({
    fixture: "ts-project",
    server: "typescript-language-server",
    tools: [lspTool],
    binDirectories: [packageBin],
    diagnosticsTimeoutMs: 15_000,
    expectProcesses: true,
  });

  it("names the line the definition is on now, the file removed and written again (git checkout) or written with an old mtime", async () => {
    const wrong: string[] = [];
    const ask = () => server.text({ action: "definition", file: "src/app.ts", line: 3, symbol: "add" });
    await replaceOnDisk(join(server.dir, "src/math.ts"), rounds, ask, async (text, i) => {
      const definition = await ask();
      const want = `src/math.ts:${lineOf(text, "export function add")}:17  export function add(`;
      if (!definition.includes(want)) wrong.push(`round ${i}: want ${want}, got ${definition}`);
      const type = await server.text({
        action: "type_definition",
        file: "src/app.ts",
        line: 5,
        symbol: "square",
      });
      const wantType = `src/math.ts:${lineOf(text, "export class Square")}:14  export class Square`;
      if (!type.includes(wantType)) wrong.push(`round ${i}: want ${wantType}, got ${type}`);
    });
    expect(wrong).toEqual([]);
  });
});

// The answer is checked only where asking again with the file opened can change it: a file of
// another server's root (a sibling package of a monorepo) or outside every root (TypeScript's
// lib files, a pnpm store) cannot be opened on the server asked. Opening it started a second
// server, and every such question was asked twice.
describe.skipIf(!found && !ci)("definitions in files the server asked does not own", () => {
  let tree: ReturnType<typeof tempTree>;
  let run: Run;
  let supervisor: LspSupervisor;
  const registry = createRegistry({ tools: [lspTool], resultWrappers: [], approval: "auto" });
  const config = JSON.stringify({
    compilerOptions: {
      strict: true,
      noEmit: true,
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      types: [],
    },
    include: ["src"],
  });
  beforeAll(() => {
    tree = tempTree("definition-other-root", {
      "a/package.json": `{ "name": "a", "private": true, "type": "module" }`,
      "a/tsconfig.json": config,
      "a/src/app.ts": [
        `import { Widget } from "../../b/src/lib.js";`,
        `export const widget = new Widget(3);`,
        `export const seen = new Map<string, number>();`,
        ``,
      ].join("\n"),
      "b/package.json": `{ "name": "b", "private": true, "type": "module" }`,
      "b/tsconfig.json": config,
      "b/src/lib.ts": `export class Widget {\n  constructor(readonly size: number) {}\n}\n`,
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

  it("asks once, and starts no server for the other root", async () => {
    const request = vi.spyOn(LanguageClient.prototype, "request");
    const ask = async (line: number, symbol: string, action = "definition") => {
      request.mockClear();
      const text = resultText(
        await registry.invoke(run, {
          tool: "lsp",
          args: { action, file: "a/src/app.ts", line, symbol },
        }),
      );
      const asked = request.mock.calls.filter(([method]) => method === `textDocument/${action}`).length;
      return { text, asked };
    };
    try {
      const widget = await ask(2, "Widget");
      expect(widget.text).toContain("b/src/lib.ts:1:14  export class Widget {");
      expect(widget.asked).toBe(1);
      const map = await ask(3, "Map");
      expect(map.text).toContain("interface Map<K, V>");
      expect(map.asked).toBe(1);
      // References too: those in the other root's file are not checked against it.
      const references = await ask(2, "Widget", "references");
      expect(references.text).toContain("b/src/lib.ts:1:14  export class Widget {");
      expect(references.asked).toBe(1);
      expect(supervisor.processes().map((p) => p.root)).toEqual([join(tree.dir, "a")]);
    } finally {
      request.mockRestore();
    }
  });
});
