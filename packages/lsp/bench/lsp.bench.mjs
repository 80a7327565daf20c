// Benchmarks of @tools/lsp against real servers (never part of `npm test`):
//  1. our `lsp definition` / `references` vs the same raw LSP request on the same warm server;
//  2. time from a write to its diagnostics vs the server's own (last) publish for that version;
//  3. cold start per server (spawn → initialize → first answer).
// Run after `pnpm run build`: node bench/lsp.bench.mjs [iterations]
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRegistry, createRun, defineTool, textResult } from "@tools/registry";
import { z } from "zod";
import { createLspSupervisor, lspTool } from "../dist/index.js";

const here = dirname(fileURLToPath(import.meta.url));
const bin = join(here, "..", "node_modules", ".bin");
const iterations = Number(process.argv[2] ?? 30);

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

const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const ms = (value) => `${value.toFixed(2)} ms`;

for (const c of cases) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `lsp-bench-${c.fixture}-`)));
  cpSync(join(here, "..", "src", "__fixtures__", c.fixture), dir, { recursive: true });
  const run = createRun({ workingDirectory: dir });
  const supervisor = createLspSupervisor(run, { binDirectories: [bin], diagnosticsTimeoutMs: 20_000 });
  // The registry chain alone: same arguments and paths() as lsp, an execute that does nothing.
  const chainOnly = defineTool({
    name: "chain_only",
    tier: "read",
    parallelSafe: true,
    description: "bench: the registry chain without a tool",
    input: z.object({ action: z.string(), file: z.string(), line: z.number(), symbol: z.string() }),
    paths: (args) => [args.file],
    execute: () => textResult("x"),
  });
  const registry = createRegistry({ tools: [lspTool, chainOnly] });
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
    // Time inside the LSP request during our call: ours minus it is our own cost, which the
    // server's latency noise (2 shared cores) does not blur.
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
    for (const action of ["definition", "references"]) {
      const method = action === "definition" ? "textDocument/definition" : "textDocument/references";
      const params = {
        textDocument: { uri },
        position,
        ...(action === "references" ? { context: { includeDeclaration: true } } : {}),
      };
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
      for (let i = 0; i < iterations; i++) {
        let cpuStart = cpu();
        started = performance.now();
        await client.request(method, params);
        raw.push(performance.now() - started);
        cpuRaw.push(cpu() - cpuStart);
        client.request = timedRequest;
        cpuStart = cpu();
        started = performance.now();
        await registry.invoke(run, {
          tool: "lsp",
          args: { action, file: c.file, line: c.line, symbol: c.symbol },
        });
        ours.push(performance.now() - started);
        cpuOurs.push(cpu() - cpuStart);
        own.push(ours.at(-1) - inside);
        delete client.request;
        started = performance.now();
        await registry.invoke(run, {
          tool: "chain_only",
          args: { action, file: c.file, line: c.line, symbol: c.symbol },
        });
        chain.push(performance.now() - started);
      }
      row.push(
        `${action}: ours ${ms(median(ours))} vs raw ${ms(median(raw))} (×${(median(ours) / median(raw)).toFixed(2)}); our own cost ${(median(own) * 1000).toFixed(0)} µs (registry chain alone ${(median(chain) * 1000).toFixed(0)} µs) = ×${((median(raw) + median(own)) / median(raw)).toFixed(2)} of raw; CPU per call ours ${(median(cpuOurs) * 1000).toFixed(0)} µs vs raw ${(median(cpuRaw) * 1000).toFixed(0)} µs`,
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
