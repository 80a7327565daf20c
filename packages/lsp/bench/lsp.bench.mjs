// Benchmarks of @tools/lsp against real servers (never part of `npm test`):
//  1. our `lsp definition` / `references` / `hover` vs the same raw LSP request on the same warm
//     server (hover on the fixtures only);
//  2. time from a write to its diagnostics vs the server's own (last) publish for that version;
//  3. cold start per server (spawn → initialize → first answer).
//  4. with --real: 1 on real code bases instead of the fixtures (Go standard library, this
//     monorepo's @tools/registry, Python's asyncio, the C files of Go's runtime/cgo).
// Run after `pnpm run build`: node bench/lsp.bench.mjs [iterations] [--real] [--gap=<ms>]
//   [--warmup=<calls>]
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRegistry, createRun, defineTool, textResult } from "@tools/registry";
import { z } from "zod";
import { createLspSupervisor, lspTool } from "../dist/index.js";

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, "..", "node_modules", ".bin");
const real = process.argv.includes("--real");
const iterations = Number(process.argv.slice(2).find((arg) => !arg.startsWith("--")) ?? 30);
// --gap=<ms>: idle time before each timed call, as between an agent's calls (its caches and the
// server's go cold); 0 (the default) runs the calls back to back.
const gapMs = Number(process.argv.find((arg) => arg.startsWith("--gap="))?.slice(6) ?? 0);
// --warmup=<calls>: untimed interleaved calls of both sides before the timed ones, so that V8 has
// compiled both paths (steady state of a long run); 0 (the default) times from the first call.
const warmup = Number(process.argv.find((arg) => arg.startsWith("--warmup="))?.slice(9) ?? 0);
const idle = () => (gapMs > 0 ? new Promise((resolve) => setTimeout(resolve, gapMs)) : undefined);

const cases = [
  { fixture: "ts-project", file: "src/app.ts", line: 4, symbol: "add", break: ["add(1, 2)", 'add(1, "x")'] },
  {
    fixture: "py-project",
    file: "pkg/main.py",
    line: 4,
    symbol: "scale",
    break: ["scale(unit, 2.0)", "scale(unit)"],
  },
  {
    fixture: "go-project",
    file: "main.go",
    line: 10,
    symbol: "greet",
    break: ['greet("world")', "greet(1)"],
  },
  { fixture: "c-project", file: "main.c", line: 6, symbol: "twice", break: ["twice(21)", "twice(x)"] },
];

// Real code bases on this machine. Go and TypeScript are used in place (read-only requests);
// Python and C need a root marker or a compilation database, so a copy gets one.
const goRoot = realpathSync("/usr/lib/go/src");
const realCases = [
  {
    name: "Go standard library",
    root: () => goRoot,
    file: "net/http/server.go",
    line: 2118,
    symbol: "ResponseWriter",
  },
  {
    name: "@tools/registry",
    root: () => realpathSync(join(here, "..", "..", "registry")),
    file: "src/registry.ts",
    // The file changes: the first line that throws one, found when the bench runs.
    lineOf: "throw new ToolsError(",
    symbol: "ToolsError",
  },
  {
    name: "Python asyncio (copy)",
    root: (dir) => {
      const source = "/usr/lib/python3.11/asyncio";
      mkdirSync(join(dir, "asyncio"));
      for (const name of readdirSync(source).filter((n) => n.endsWith(".py")))
        cpSync(join(source, name), join(dir, "asyncio", name));
      writeFileSync(join(dir, "pyproject.toml"), '[project]\nname = "bench"\n');
      return dir;
    },
    file: "asyncio/tasks.py",
    line: 277,
    symbol: "CancelledError",
  },
  {
    name: "Go runtime/cgo C files (copy)",
    root: (dir) => {
      const source = "/usr/lib/go/src/runtime/cgo";
      const names = readdirSync(source).filter(
        (n) =>
          /^gcc_(linux_amd64|libinit|util|setenv|fatalf|mmap|sigaction|context|traceback)\.c$/.test(n) ||
          /^libcgo(_unix)?\.h$/.test(n),
      );
      for (const name of names) cpSync(join(source, name), join(dir, name));
      const commands = names
        .filter((n) => n.endsWith(".c"))
        .map((file) => ({
          directory: dir,
          file: join(dir, file),
          arguments: ["cc", "-c", "-D_GNU_SOURCE", "-pthread", file],
        }));
      writeFileSync(join(dir, "compile_commands.json"), JSON.stringify(commands, null, 2));
      return dir;
    },
    file: "gcc_linux_amd64.c",
    line: 43,
    symbol: "fatalf",
  },
];

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value) => `${value.toFixed(2)} ms`;

/** A registry with lsp and the registry chain alone: same arguments and paths(), no work. */
function benchRegistry() {
  const chainOnly = defineTool({
    name: "chain_only",
    tier: "read",
    parallelSafe: true,
    description: "bench: the registry chain without a tool",
    input: z.object({ action: z.string(), file: z.string(), line: z.number(), symbol: z.string() }),
    paths: (args) => [args.file],
    execute: () => textResult("x"),
  });
  return createRegistry({ tools: [lspTool, chainOnly] });
}

const methods = {
  definition: "textDocument/definition",
  references: "textDocument/references",
  hover: "textDocument/hover",
};

function paramsOf(action, uri, position) {
  return {
    textDocument: { uri },
    position,
    ...(action === "references" ? { context: { includeDeclaration: true } } : {}),
  };
}

/**
 * Our call against the raw request (`client.request`, same params), interleaved, `iterations`
 * times; returns the medians. Our own cost is our call's time minus the time inside its LSP
 * request, which the server's latency noise (2 shared cores) does not blur.
 */
async function compareNavigation({ registry, run, client, c, uri, position, action, iterations }) {
  let inside = 0;
  const request = client.request.bind(client);
  const timedRequest = async (...args) => {
    const start = performance.now();
    try {
      return await request(...args);
    } finally {
      inside = performance.now() - start;
    }
  };
  const params = paramsOf(action, uri, position);
  const args = { action, file: c.file, line: c.line, symbol: c.symbol };
  const ours = [];
  const raw = [];
  const own = [];
  const chain = [];
  // CPU time of this process per call (user + system), immune to being scheduled out.
  const cpuOurs = [];
  const cpuRaw = [];
  const cpu = () => {
    const { user, system } = process.cpuUsage();
    return (user + system) / 1000;
  };
  for (let i = 0; i < warmup; i++) {
    await client.request(methods[action], params);
    await registry.invoke(run, { tool: "lsp", args });
    await registry.invoke(run, { tool: "chain_only", args });
  }
  for (let i = 0; i < iterations; i++) {
    await idle();
    let cpuStart = cpu();
    let started = performance.now();
    await client.request(methods[action], params);
    raw.push(performance.now() - started);
    cpuRaw.push(cpu() - cpuStart);
    await idle();
    client.request = timedRequest;
    cpuStart = cpu();
    started = performance.now();
    const answer = await registry.invoke(run, { tool: "lsp", args });
    ours.push(performance.now() - started);
    if (answer.isError) throw new Error(`our ${action} failed: ${answer.content[0].text}`);
    cpuOurs.push(cpu() - cpuStart);
    own.push(ours.at(-1) - inside);
    delete client.request;
    await idle();
    started = performance.now();
    await registry.invoke(run, { tool: "chain_only", args });
    chain.push(performance.now() - started);
  }
  return {
    action,
    raw: median(raw),
    ours: median(ours),
    own: median(own),
    chain: median(chain),
    cpuOurs: median(cpuOurs),
    cpuRaw: median(cpuRaw),
  };
}

function describeComparison(m) {
  return `${m.action}: ours ${ms(m.ours)} vs raw ${ms(m.raw)} (×${(m.ours / m.raw).toFixed(2)}); our own cost ${(m.own * 1000).toFixed(0)} µs (registry chain alone ${(m.chain * 1000).toFixed(0)} µs) = ×${((m.raw + m.own) / m.raw).toFixed(2)} of raw; CPU per call ours ${(m.cpuOurs * 1000).toFixed(0)} µs vs raw ${(m.cpuRaw * 1000).toFixed(0)} µs`;
}

/** The same comparison on a real code base, after the server has indexed it. */
async function realProject(c) {
  const scratch = realpathSync(mkdtempSync(join(tmpdir(), "lsp-bench-real-")));
  const run = createRun({ workingDirectory: c.root(scratch) });
  const supervisor = createLspSupervisor(run, { binDirectories: [bin], requestTimeoutMs: 120_000 });
  const registry = benchRegistry();
  const path = join(run.workingDirectory, c.file);
  const uri = pathToFileURL(path).href;
  try {
    const lines = readFileSync(path, "utf8").split("\n");
    const line = c.lineOf === undefined ? c.line : lines.findIndex((text) => text.includes(c.lineOf)) + 1;
    if (line === 0) throw new Error(`'${c.lineOf}' is not in ${c.file}`);
    const position = { line: line - 1, character: lines[line - 1].indexOf(c.symbol) };
    if (position.character < 0) throw new Error(`'${c.symbol}' is not on ${c.file}:${line}`);
    // Indexed: the first answer of each action, then warm calls until two in a row answer in
    // under 1.5× the previous one's time (at most 20 per action).
    let started = performance.now();
    const first = await registry.invoke(run, {
      tool: "lsp",
      args: { action: "definition", file: c.file, line, symbol: c.symbol },
    });
    if (first.isError) throw new Error(first.content[0].text);
    const cold = performance.now() - started;
    const { client } = await supervisor.open(path);
    const found = {};
    for (const action of ["definition", "references"]) {
      let previous = Infinity;
      let steady = 0;
      for (let i = 0; i < 20 && steady < 2; i++) {
        started = performance.now();
        const answer = await client.request(methods[action], paramsOf(action, uri, position));
        const took = performance.now() - started;
        steady = took < previous * 1.5 ? steady + 1 : 0;
        previous = took;
        found[action] = Array.isArray(answer) ? answer.length : answer ? 1 : 0;
      }
      const result = await registry.invoke(run, {
        tool: "lsp",
        args: { action, file: c.file, line, symbol: c.symbol },
      });
      if (result.isError) throw new Error(result.content[0].text);
    }
    const rows = [
      `${c.name} (${client.spec.command}, ${c.file}:${line} '${c.symbol}'): cold start + first definition ${ms(cold)}`,
    ];
    for (const action of ["definition", "references"]) {
      const m = await compareNavigation({
        registry,
        run,
        client,
        c: { ...c, line },
        uri,
        position,
        action,
        iterations,
      });
      rows.push(`${describeComparison(m)}; ${found[action]} location${found[action] === 1 ? "" : "s"}`);
    }
    console.log(rows.join("\n  "));
  } catch (error) {
    console.log(`${c.name}: skipped (${error.message})`);
  } finally {
    await run.dispose();
    rmSync(scratch, { recursive: true, force: true });
  }
}

console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(2))
    .join(
      " ",
    )}; ${iterations} calls per action${gapMs > 0 ? `, ${gapMs} ms idle before each` : ", back to back"}`,
);
if (real) for (const c of realCases) await realProject(c);

for (const c of real ? [] : cases) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `lsp-bench-${c.fixture}-`)));
  cpSync(join(here, "..", "src", "__fixtures__", c.fixture), dir, { recursive: true });
  const run = createRun({ workingDirectory: dir });
  const supervisor = createLspSupervisor(run, { binDirectories: [bin], diagnosticsTimeoutMs: 20_000 });
  const registry = benchRegistry();
  const path = join(dir, c.file);
  const uri = pathToFileURL(path).href;
  try {
    let started = performance.now();
    const first = await registry.invoke(run, {
      tool: "lsp",
      args: { action: "definition", file: c.file, line: c.line, symbol: c.symbol },
    });
    if (first.isError) throw new Error(first.content[0].text);
    const cold = performance.now() - started;
    const { client } = await supervisor.open(path);
    const text = readFileSync(path, "utf8");
    const lineText = text.split("\n")[c.line - 1];
    const position = { line: c.line - 1, character: lineText.indexOf(c.symbol) };
    const row = [`${c.fixture} (${client.spec.command}): cold start + first definition ${ms(cold)}`];
    for (const action of ["definition", "references", "hover"]) {
      row.push(
        describeComparison(
          await compareNavigation({ registry, run, client, c, uri, position, action, iterations }),
        ),
      );
    }
    const latency = [];
    const serverOwn = [];
    for (let i = 0; i < Math.min(10, iterations); i++) {
      const broken = i % 2 === 0;
      writeFileSync(path, broken ? text.replace(c.break[0], c.break[1]) : text);
      started = performance.now();
      const result = await supervisor.diagnostics(path, { save: true });
      const done = performance.now();
      if (!result.fresh) throw new Error(`diagnostics not fresh for ${c.fixture}`);
      latency.push(done - started);
      // A pull can answer before the server pushes: wait for its publishes for this write to end
      // (none for 400 ms, at most 3 s) before reading when the last one arrived.
      const waitUntil = performance.now() + 3_000;
      let last = client.lastPublishAt(uri) ?? 0;
      while (performance.now() < waitUntil) {
        if (last > started && performance.now() - last > 400) break;
        await new Promise((resolve) => setTimeout(resolve, 20));
        last = client.lastPublishAt(uri) ?? 0;
      }
      serverOwn.push((last > started ? last : done) - started);
    }
    row.push(
      `write→diagnostics: ours ${ms(median(latency))} vs the server's last publish ${ms(median(serverOwn))}`,
    );
    console.log(row.join("\n  "));
  } catch (error) {
    console.log(`${c.fixture}: skipped (${error.message})`);
  } finally {
    await run.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
}
