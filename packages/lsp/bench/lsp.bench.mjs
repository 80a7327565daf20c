// Benchmarks of @tools/lsp against real servers (never part of `npm test`):
//  1. our `lsp definition` / `references` vs the same raw LSP request on the same warm server;
//  2. time from a write to its diagnostics vs the server's own (last) publish for that version;
//  3. cold start per server (spawn → initialize → first answer).
// Run after `pnpm run build`: node bench/lsp.bench.mjs [iterations]
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createRegistry, createRun } from "@tools/registry";
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
const ms = (value) => `${value.toFixed(1)} ms`;

for (const c of cases) {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), `lsp-bench-${c.fixture}-`)));
  cpSync(join(here, "..", "src", "__fixtures__", c.fixture), dir, { recursive: true });
  const run = createRun({ workingDirectory: dir });
  const supervisor = createLspSupervisor(run, { binDirectories: [bin], diagnosticsTimeoutMs: 20_000 });
  const registry = createRegistry({ tools: [lspTool] });
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
    for (const action of ["definition", "references"]) {
      const method = action === "definition" ? "textDocument/definition" : "textDocument/references";
      const params = {
        textDocument: { uri },
        position,
        ...(action === "references" ? { context: { includeDeclaration: true } } : {}),
      };
      const ours = [];
      const raw = [];
      for (let i = 0; i < iterations; i++) {
        started = performance.now();
        await client.request(method, params);
        raw.push(performance.now() - started);
        started = performance.now();
        await registry.invoke(run, {
          tool: "lsp",
          args: { action, file: c.file, line: c.line, symbol: c.symbol },
        });
        ours.push(performance.now() - started);
      }
      row.push(
        `${action}: ours ${ms(median(ours))} vs raw ${ms(median(raw))} (×${(median(ours) / median(raw)).toFixed(2)})`,
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
      serverOwn.push((client.lastPublishAt(uri) ?? done) - started);
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
