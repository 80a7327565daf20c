import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRegistry, createRun, resultText, type Registry, type Run } from "@tools/registry";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DocumentSync } from "../client/document-sync.js";
import { diagnosticsOnWrite } from "../diagnostics/diagnostics-on-write.js";
import { lspTool } from "../tools/lsp-tool.js";
import { writeTool } from "../test-support/write-tool.js";
import { copyFixture, groupGoneWithin, packageBin, running, tempTree } from "../test-support/fixtures.js";
import type { ServerSpec } from "../servers/server-table.js";
import {
  createLspSupervisor,
  lspSupervisorKey,
  type LspSupervisor,
  type LspSupervisorOptions,
} from "./supervisor.js";

const fakeServers = join(import.meta.dirname, "..", "__fixtures__", "fake-servers");

function fakeSpec(command: string, extra: Partial<ServerSpec> = {}): ServerSpec {
  return {
    ...extra,
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
    options: LspSupervisorOptions = {},
  ): { run: Run; registry: Registry; dir: string; supervisor: LspSupervisor } {
    const fixture = copyFixture(fixtureName);
    const run = createRun({ workingDirectory: fixture.dir });
    const supervisor = createLspSupervisor(run, {
      servers,
      binDirectories: [packageBin, fakeServers],
      ...options,
    });
    cleanups.push(fixture.remove, () => run.dispose());
    return { run, registry: createRegistry({ tools: [lspTool] }), dir: fixture.dir, supervisor };
  }

  it("status explains a marker without binary, a binary without marker, and TypeScript without typescript", async () => {
    // Independent of what is on PATH: an empty PATH, and one folder holding only a
    // typescript-language-server that has no typescript next to it (as a global install).
    const bin = mkdtempSync(join(tmpdir(), "lsp-status-bin-"));
    cleanups.push(() => rmSync(bin, { recursive: true, force: true }));
    const server = join(bin, "typescript-language-server");
    writeFileSync(server, `#!/bin/sh\nexec "${join(packageBin, "typescript-language-server")}" "$@"\n`);
    chmodSync(server, 0o755);
    const { run, registry } = setup("status-project", [], { path: "", binDirectories: [bin] });
    const lsp = (args: Record<string, unknown>) => registry.invoke(run, { tool: "lsp", args });
    const status = resultText(await lsp({ action: "status" }));
    const nowhere = "is not in node_modules/.bin, .venv/bin or venv/bin of the project, nor on PATH";
    expect(status).toContain(
      `rust: root rust (marker Cargo.toml), binary missing ('rust-analyzer' ${nowhere}), state not started (cannot start without the binary)`,
    );
    expect(status).toContain(`dart: root dart (marker pubspec.yaml), binary missing ('dart' ${nowhere})`);
    // Two levels down: packages/* of a monorepo.
    expect(status).toContain(`go: root packages/tools (marker go.mod), binary missing ('gopls' ${nowhere})`);
    expect(status).toContain(
      `typescript: root web (marker package.json), binary found (${server}), state not started (cannot start: typescript is not resolvable from web (no node_modules/typescript/lib/tsserver.js there or in a parent folder, nor next to ${server}); install it in the project (npm install --save-dev typescript`,
    );
    expect(status).toMatch(
      /python: no root marker \(pyproject\.toml.*\) within 4 folder levels below the working directory \(hidden, dependency and build-output folders skipped\), binary missing \(.*\), state not started \(cannot start without a root marker and the binary\)$/m,
    );
    // Only what is missing: the marker (the binary is found), or both (the next file's).
    expect(resultText(await lsp({ action: "status", file: "scripts/loose.ts" }))).toBe(
      `typescript: no root (none of tsconfig.json, jsconfig.json, package.json between scripts/loose.ts and the working directory), binary found (${server}), state not started (cannot start without a root marker)`,
    );
    expect(resultText(await lsp({ action: "status", file: "scripts/loose.py" }))).toMatch(
      /^python: no root \(none of .* between scripts\/loose\.py and the working directory\), binary missing \(.*\), state not started \(cannot start without a root marker and the binary\)$/,
    );
    // A folder: the roots that cover it; a folder with none, and a file no server handles, say so.
    expect(resultText(await lsp({ action: "status", file: "rust/src" }))).toBe(
      `rust: root rust (marker Cargo.toml), binary missing ('rust-analyzer' ${nowhere}), state not started (cannot start without the binary)`,
    );
    expect(resultText(await lsp({ action: "status", file: "scripts" }))).toMatch(
      /^no language server root covers scripts: none of the root markers \(tsconfig\.json, .*\) is in it or a folder above it inside the working directory$/,
    );
    expect(resultText(await lsp({ action: "status", file: "rust/Cargo.toml" }))).toMatch(
      /^no language server handles rust\/Cargo\.toml \(\.toml\); files handled: \.ts, .*\.rs/,
    );
    const web = await lsp({ action: "symbols", file: "web/index.ts" });
    expect(web.error?.code).toBe("LSP_NO_SERVER");
    expect(resultText(web)).toContain("typescript is not resolvable from web");
    const loose = await lsp({ action: "symbols", file: "scripts/loose.ts" });
    expect(loose.error?.code).toBe("LSP_NO_SERVER");
    expect(resultText(loose)).toContain(
      "no root marker for typescript (tsconfig.json, jsconfig.json, package.json)",
    );
    const rust = await lsp({ action: "definition", file: "rust/src/main.rs", line: 1, symbol: "main" });
    expect(rust.error?.code).toBe("LSP_NO_SERVER");
    expect(resultText(rust)).toContain("the rust server is missing");
  });

  it("finds a server binary in a folder between the root and the working directory", async () => {
    // The working directory holds several projects; the repository's node_modules/.bin is above
    // the package's root, as in a monorepo. Before, only the root and the working directory were searched.
    const tree = tempTree("between", {
      "repo/package.json": "{}\n",
      "repo/node_modules/.bin/typescript-language-server": "#!/bin/sh\nexit 0\n",
      "repo/packages/app/package.json": "{}\n",
      "repo/packages/app/index.ts": "export {};\n",
    });
    cleanups.push(tree.remove);
    const binary = join(tree.dir, "repo/node_modules/.bin/typescript-language-server");
    chmodSync(binary, 0o755);
    const run = createRun({ workingDirectory: tree.dir });
    cleanups.push(() => run.dispose());
    const supervisor = createLspSupervisor(run, { path: "" });
    expect(supervisor.status(join(tree.dir, "repo/packages/app/index.ts"))).toContain(
      `typescript: root repo/packages/app (marker package.json), binary found (${binary})`,
    );
    expect(supervisor.findTool("typescript-language-server", join(tree.dir, "repo/packages/app"))).toEqual({
      found: true,
      path: binary,
    });
  });

  it("reports a server that crashes on initialize with its stderr, and backs off after repeated crashes", async () => {
    // A fake server: a crash on initialize cannot be provoked in a real server on demand.
    const { run, registry } = setup("fake-project", [fakeSpec("crash-on-initialize-server")]);
    const call = () => registry.invoke(run, { tool: "lsp", args: { action: "symbols", file: "main.fake" } });
    const first = await call();
    expect(first.error?.code).toBe("LSP_SERVER_FAILED");
    expect(resultText(first)).toContain("fake server: cannot load the project configuration");
    const status = resultText(await registry.invoke(run, { tool: "lsp", args: { action: "status" } }));
    // The client is gone after a failed start; its reason and stderr are kept for status.
    expect(status).toMatch(
      /fake: root \. .*state crashed, reason: exited with code 3; stderr: fake server: cannot load the project configuration/,
    );
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

  it("kills a crashed server's workers with it", async () => {
    // A fake server: a crash that leaves the server's worker running cannot be provoked in a
    // real server on demand.
    const { supervisor, dir } = setup("fake-project", [fakeSpec("worker-leaving-server")]);
    await supervisor.open(join(dir, "main.fake"));
    const worker = Number(readFileSync(join(dir, "worker.pid"), "utf8"));
    const leader = supervisor.processes()[0]?.pid;
    expect(leader).toBeDefined();
    expect(running(worker)).toBe(true);
    process.kill(leader!, "SIGKILL");
    await expect.poll(() => supervisor.processes()[0]?.state, { timeout: 10_000 }).toBe("crashed");
    await expect.poll(() => running(worker), { timeout: 5_000 }).toBe(false);
  });

  it("bounds a notification a server never reads, then restarts it on the next call", async () => {
    // A fake server: a real one cannot be made to stop reading its input on demand.
    const { supervisor, dir } = setup("fake-project", [fakeSpec("deaf-server")], { requestTimeoutMs: 1000 });
    const file = join(dir, "main.fake");
    await supervisor.open(file);
    const leader = supervisor.processes()[0]?.pid;
    // Far more than a pipe holds (64 KiB), so the write waits on the server to read.
    writeFileSync(file, "x".repeat(4 * 1024 * 1024));
    await expect(supervisor.open(file)).rejects.toThrow(
      /stopped reading its input \(textDocument\/didChange not taken within 1000 ms\)[\s\S]*restarts on the next call/,
    );
    expect(supervisor.processes()[0]?.state).toBe("crashed");
    await expect.poll(() => running(leader!), { timeout: 5_000 }).toBe(false);
    // The next call starts a fresh server and opens the document anew.
    writeFileSync(file, "small again\n");
    await supervisor.open(file);
    expect(supervisor.processes()[0]?.state).toBe("running");
    expect(supervisor.processes()[0]?.pid).not.toBe(leader);
  });

  it("a diagnostics wait on a server that dies ends with its crash, not with 'no diagnostics'", async () => {
    // A fake server that never publishes: a real one cannot be made to stay silent on demand.
    const { supervisor, dir } = setup("fake-project", [fakeSpec("deaf-server")], {
      diagnosticsTimeoutMs: 3000,
    });
    const file = join(dir, "main.fake");
    await supervisor.open(file);
    const pid = supervisor.processes()[0]!.pid!;
    const waiting = supervisor.diagnostics(file);
    setTimeout(() => process.kill(pid, "SIGKILL"), 200);
    await expect(waiting).rejects.toMatchObject({ code: "LSP_SERVER_FAILED" });
  });

  it("ends with the run even while a write to its server is stuck", async () => {
    // A fake server: a real one cannot be made to stop reading its input on demand. The bound on
    // notifications is far away here: the run's end alone must stop the server and the write.
    const { run, supervisor, dir } = setup("fake-project", [fakeSpec("deaf-server")], {
      requestTimeoutMs: 120_000,
    });
    const file = join(dir, "main.fake");
    await supervisor.open(file);
    const leader = supervisor.processes()[0]!.pid!;
    writeFileSync(file, "x".repeat(4 * 1024 * 1024));
    const stuck = supervisor.open(file).then(
      () => "written",
      (error: Error) => error.message,
    );
    await run.dispose();
    expect(running(leader)).toBe(false);
    expect(await stuck).toMatch(/was stopped while textDocument\/didChange was being sent/);
  });

  it("a reload racing the run's end starts no server after it, and a second dispose waits for the first", async () => {
    const { run, supervisor, dir } = setup("c-project");
    const file = join(dir, "main.c");
    const client = await supervisor.clientFor(file);
    const first = client.pid!;
    // The old server is stopping when the run ends: no new one may be started after that.
    const reloading = supervisor.reload(file).then(
      (lines) => lines.join("\n"),
      (error: Error) => error.message,
    );
    const disposing = run.dispose();
    // Told twice, the client's end is one: the second caller waits for the server to be gone.
    await client.dispose();
    expect(running(first)).toBe(false);
    await disposing;
    expect(await reloading).toMatch(/the run has ended/);
    expect(
      supervisor.processes().filter((server) => server.pid !== undefined && running(server.pid)),
    ).toEqual([]);
  });

  it("a question in flight when its server is reloaded fails at once, saying so, not at its bound", async () => {
    // A fake server that never answers a hover: a real one cannot be made to hold a question on demand.
    const { run, registry, supervisor, dir } = setup(
      "fake-project",
      [fakeSpec("never-answers-pull-server")],
      {
        requestTimeoutMs: 120_000,
      },
    );
    const lsp = (args: Record<string, unknown>) => registry.invoke(run, { tool: "lsp", args });
    const asked = lsp({ action: "hover", file: "main.fake", line: 1, symbol: "hello" });
    const uri = supervisor.uriOf(join(dir, "main.fake"));
    for (let tries = 0; tries < 200 && !supervisor.runningClients()[0]?.isOpen(uri); tries++) {
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(resultText(await lsp({ action: "reload", file: "main.fake" }))).toMatch(/^fake for \.: restarted/);
    const answer = await asked;
    expect(answer.isError).toBe(true);
    expect(resultText(answer)).toMatch(
      /^never-answers-pull-server \(fake, root .*\) was stopped before textDocument\/hover was answered \(the run ended, or the server was reloaded\); call again$/,
    );
  });

  it("a pull that never answers and the push wait after it share one deadline", async () => {
    // A fake server: a real one cannot be made to leave a pull request unanswered on demand.
    const { run, registry } = setup("fake-project", [fakeSpec("never-answers-pull-server")], {
      diagnosticsTimeoutMs: 1500,
    });
    // What the push wait had left when it began, read off the deadline it was given: with one
    // deadline the pull used it all (nothing left); a fresh deadline would leave the whole bound.
    const left: number[] = [];
    // oxlint-disable-next-line typescript/unbound-method -- called below with its own `this`
    const awaitPublish = DocumentSync.prototype.awaitPublish;
    const spy = vi.spyOn(DocumentSync.prototype, "awaitPublish").mockImplementation(function (
      this: DocumentSync,
      ...args: Parameters<DocumentSync["awaitPublish"]>
    ) {
      left.push(args[1] - Date.now());
      return awaitPublish.apply(this, args);
    });
    try {
      const result = await registry.invoke(run, {
        tool: "lsp",
        args: { action: "diagnostics", file: "main.fake" },
      });
      // No answer at all: not known, never "no diagnostics".
      expect(resultText(result)).toBe(
        "diagnostics of main.fake not known yet: the server did not answer for this version within 1500 ms (it may still be loading the project); ask again",
      );
    } finally {
      spy.mockRestore();
    }
    expect(left.length).toBeGreaterThan(0);
    // Timers may fire a millisecond early against Date.now(); a second deadline would leave ~1500.
    for (const ms of left) expect(ms).toBeLessThanOrEqual(5);
  });

  it("workspace symbols across servers: one server's failure is named, the others' answers kept", async () => {
    // A fake server for the failure (a real one cannot be made to fail workspace/symbol on
    // demand) running next to a real pyright.
    const { run, registry, dir } = setup("py-project", [fakeSpec("failing-symbols-server")]);
    writeFileSync(join(dir, "fake.marker"), "");
    writeFileSync(join(dir, "main.fake"), "fake\n");
    const lsp = async (args: Record<string, unknown>) => registry.invoke(run, { tool: "lsp", args });
    const alone = await lsp({ action: "symbols", query: "scale", file: "main.fake" });
    expect(alone.error?.code).toBe("LSP_REQUEST_FAILED");
    expect(resultText(alone)).toContain("symbol index failed to load");
    // A first question makes pyright load the project (a cold one answers workspace/symbol empty).
    expect(
      resultText(await lsp({ action: "definition", file: "pkg/main.py", line: 4, symbol: "scale" })),
    ).toMatch(/^1 definition of 'scale'/);
    expect(resultText(await lsp({ action: "symbols", query: "scale", file: "pkg/main.py" }))).toContain(
      "function scale",
    );
    const both = resultText(await lsp({ action: "symbols", query: "scale" }));
    expect(both).toMatch(/^1 symbol matches 'scale'/);
    expect(both).toMatch(/function scale {2}pkg\/geometry\.py:\d+:\d+ {2}def scale\(/);
    expect(both).toContain("(no answer from fake (failing-symbols-server): ");
    expect(both).toContain("symbol index failed to load");
  });

  it("workspace symbols without file name the project roots whose server was not asked", async () => {
    const { run, registry, dir } = setup("py-project");
    mkdirSync(join(dir, "svc"));
    writeFileSync(join(dir, "svc", "go.mod"), "module example.com/svc\n\ngo 1.19\n");
    const lsp = async (args: Record<string, unknown>) =>
      resultText(await registry.invoke(run, { tool: "lsp", args }));
    // No server runs yet: the query starts those of the roots that hold source files (svc has none).
    const first = await lsp({ action: "symbols", query: "scale" });
    expect(first).toMatch(
      /^1 symbol matches 'scale':\nfunction scale {2}pkg\/geometry\.py:\d+:\d+ {2}def scale\(/,
    );
    expect(first).toContain(
      "(searched python (.); not searched, their servers not running: go (svc); add file of one to search it)",
    );
    expect(await lsp({ action: "symbols", query: "NoSuchName" })).toBe(
      "no workspace symbols match 'NoSuchName'\n(searched python (.); not searched, their servers not running: go (svc); add file of one to search it)",
    );
  });

  it("diagnostics-on-write never holds a write longer than its bound", async () => {
    // A fake server that hangs in initialize: the wrapper must give up at its bound and say
    // that the server is still starting (not that a running server fails to answer).
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
      "diagnostics for main.fake not checked: hang-on-initialize-server is still starting (its first use in this run) and did not answer within the bound; the next write, or lsp diagnostics, checks it",
    );
  });
});

describe("diagnostics on write for a file no server can check", () => {
  it("says once in the run that a file of a language without a root marker is not checked", async () => {
    const tree = tempTree("unserved", { "notes.md": "# notes\n", "main.fake": "hello\n" });
    const run = createRun({ workingDirectory: tree.dir });
    createLspSupervisor(run, {
      servers: [fakeSpec("never-answers-pull-server")],
      binDirectories: [fakeServers],
    });
    const registry = createRegistry({
      tools: [writeTool],
      resultWrappers: [diagnosticsOnWrite({ boundMs: 2_000 })],
      approval: "auto",
    });
    const write = async (file: string) =>
      resultText(await registry.invoke(run, { tool: "write", args: { file, content: "changed\n" } }));
    try {
      expect(await write("main.fake")).toBe(
        'wrote main.fake\n\nLSP diagnostics after this write:\ndiagnostics for main.fake not checked: never-answers-pull-server cannot start: no root marker for fake (fake.marker) in any folder from main.fake up to the working directory. A server needs both a root marker and its binary; action "status" shows what is found. (said once in this run)',
      );
      expect(await write("main.fake")).toBe("wrote main.fake");
      // A file of no server's language: nothing to say.
      expect(await write("notes.md")).toBe("wrote notes.md");
    } finally {
      await run.dispose();
      tree.remove();
    }
  });
});

describe("diagnostics on write and a cancelled call", () => {
  it("returns the write at once when the call is cancelled during its check, saying it was not checked", async () => {
    // A fake server that never answers a pull: the check would wait for its whole bound.
    const fixture = copyFixture("fake-project");
    const run = createRun({ workingDirectory: fixture.dir });
    createLspSupervisor(run, {
      servers: [fakeSpec("never-answers-pull-server")],
      binDirectories: [fakeServers],
      diagnosticsTimeoutMs: 120_000,
    });
    const registry = createRegistry({
      tools: [writeTool],
      resultWrappers: [diagnosticsOnWrite({ boundMs: 120_000 })],
      approval: "auto",
    });
    const abort = new AbortController();
    try {
      const written = registry.invoke(run, {
        tool: "write",
        args: { file: "main.fake", content: "changed" },
        signal: abort.signal,
      });
      // Once the server is up and the file open on it, the check is under way.
      const supervisor = run.require(lspSupervisorKey);
      const uri = supervisor.uriOf(join(fixture.dir, "main.fake"));
      for (let tries = 0; tries < 200 && !supervisor.runningClients()[0]?.isOpen(uri); tries++) {
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(supervisor.runningClients()[0]?.isOpen(uri)).toBe(true);
      abort.abort();
      const result = await written;
      expect(resultText(result)).toBe(
        "wrote main.fake\n\nLSP diagnostics after this write: not checked (the call was cancelled); lsp diagnostics checks the files",
      );
      expect(readFileSync(join(fixture.dir, "main.fake"), "utf8")).toBe("changed");
    } finally {
      await run.dispose();
      fixture.remove();
    }
  });
});
