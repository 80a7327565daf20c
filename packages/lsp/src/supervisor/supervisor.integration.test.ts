import { join } from "node:path";
import { createRegistry, createRun, resultText, type Registry, type Run } from "@tools/registry";
import { afterEach, describe, expect, it } from "vitest";
import { diagnosticsOnWrite } from "../diagnostics/diagnostics-on-write.js";
import { lspTool } from "../tools/lsp-tool.js";
import { writeTool } from "../test-support/write-tool.js";
import { copyFixture, groupGoneWithin, packageBin } from "../test-support/fixtures.js";
import type { ServerSpec } from "../servers/server-table.js";
import { createLspSupervisor, type LspSupervisor } from "./supervisor.js";

const fakeServers = join(import.meta.dirname, "..", "__fixtures__", "fake-servers");

function fakeSpec(command: string): ServerSpec {
  return {
    language: "fake",
    extensions: [".fake"],
    markers: ["fake.marker"],
    command,
    args: [],
    initializeTimeoutMs: 1500,
  };
}

describe("supervisor status and failures", () => {
  const cleanups: (() => Promise<unknown> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function setup(
    fixtureName: string,
    servers: ServerSpec[] = [],
  ): { run: Run; registry: Registry; dir: string; supervisor: LspSupervisor } {
    const fixture = copyFixture(fixtureName);
    const run = createRun({ workingDirectory: fixture.dir });
    const supervisor = createLspSupervisor(run, { servers, binDirectories: [packageBin, fakeServers] });
    cleanups.push(fixture.remove, () => run.dispose());
    return { run, registry: createRegistry({ tools: [lspTool] }), dir: fixture.dir, supervisor };
  }

  it("status explains a marker without binary (rust, dart) and a binary without marker (typescript)", async () => {
    const { run, registry } = setup("status-project");
    const status = resultText(await registry.invoke(run, { tool: "lsp", args: { action: "status" } }));
    expect(status).toMatch(
      /rust: root rust \(marker Cargo\.toml\), binary missing \(.*rust-analyzer.*\), state not started \(cannot start/,
    );
    expect(status).toMatch(/dart: root dart \(marker pubspec\.yaml\), binary missing \(.*'dart' is not in/);
    expect(status).toMatch(/typescript: no root marker .*binary found \(.*typescript-language-server\)/);
    const loose = await registry.invoke(run, {
      tool: "lsp",
      args: { action: "symbols", file: "scripts/loose.ts" },
    });
    expect(loose.error?.code).toBe("LSP_NO_SERVER");
    expect(resultText(loose)).toContain(
      "no root marker for typescript (tsconfig.json, jsconfig.json, package.json)",
    );
    const rust = await registry.invoke(run, {
      tool: "lsp",
      args: { action: "definition", file: "rust/src/main.rs", line: 1, symbol: "main" },
    });
    expect(rust.error?.code).toBe("LSP_NO_SERVER");
    expect(resultText(rust)).toContain("the rust server is missing");
  });

  it("reports a server that crashes on initialize with its stderr, and backs off after repeated crashes", async () => {
    // A fake server: a crash on initialize cannot be provoked in a real server on demand.
    const { run, registry } = setup("fake-project", [fakeSpec("crash-on-initialize-server")]);
    const call = () => registry.invoke(run, { tool: "lsp", args: { action: "symbols", file: "main.fake" } });
    const first = await call();
    expect(first.error?.code).toBe("LSP_SERVER_FAILED");
    expect(resultText(first)).toContain("fake server: cannot load the project configuration");
    const status = resultText(await registry.invoke(run, { tool: "lsp", args: { action: "status" } }));
    expect(status).toMatch(/fake: root \. .*state crashed, reason: exited with code 3/);
    expect((await call()).error?.code).toBe("LSP_SERVER_FAILED");
    const third = await call();
    expect(resultText(third)).toMatch(/failed 2 times; the next restart is allowed in \d+ s/);
  });

  it("bounds a server that never answers initialize, and leaves no process behind", async () => {
    // A fake server: a real one cannot be made to hang on demand.
    const { run, registry, supervisor } = setup("fake-project", [fakeSpec("hang-on-initialize-server")]);
    const result = await registry.invoke(run, {
      tool: "lsp",
      args: { action: "symbols", file: "main.fake" },
    });
    expect(result.error?.code).toBe("LSP_SERVER_FAILED");
    expect(resultText(result)).toContain("did not answer initialize within 1500 ms");
    const pids = supervisor.processes().flatMap((p) => (p.pid ? [p.pid] : []));
    expect(pids, JSON.stringify(supervisor.processes())).toHaveLength(1);
    await run.dispose();
    expect(await groupGoneWithin(pids[0]!)).toBe(true);
  });

  it("diagnostics-on-write never holds a write longer than its bound", async () => {
    // A fake server that hangs: the wrapper must give up at its bound and say so.
    const { run } = setup("fake-project", [fakeSpec("hang-on-initialize-server")]);
    const registry = createRegistry({
      tools: [writeTool],
      resultWrappers: [diagnosticsOnWrite({ boundMs: 500 })],
      approval: "auto",
    });
    const result = await registry.invoke(run, {
      tool: "write",
      args: { file: "main.fake", content: "changed" },
    });
    expect(result.isError).toBe(false);
    expect(resultText(result)).toContain("wrote main.fake");
    expect(resultText(result)).toContain(
      "diagnostics for main.fake not checked: the server did not answer within the 500 ms bound",
    );
  });
});
