// Trivial-cell round trip of our client against jupyter_client on the same ipykernel (ratio),
// plus cold start, reset-from-spare and bridged-call latency. Run after `pnpm run build`:
//   node bench/round-trip.bench.mjs
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRegistry, createRun, defineTool, textResult } from "@tools/registry";
import { z } from "zod";
import { createKernelFactory, evalTool, kernelFactoryKey } from "../dist/index.js";
import { startKernel } from "../dist/launch/start-kernel.js";

const python = "/usr/bin/python3";
const cells = 50;
const mean = (values) => values.reduce((a, b) => a + b, 0) / values.length;

const starts = [];
let kernel;
for (let i = 0; i < 3; i++) {
  const t0 = performance.now();
  kernel = await startKernel({
    language: "python",
    cwd: process.cwd(),
    pythonPath: python,
    shellTool: "shell",
    readyTimeoutMs: 30_000,
  });
  starts.push(performance.now() - t0);
  if (i < 2) await kernel.dispose();
}
for (let i = 0; i < 3; i++) await kernel.execute("1+1");
const ours = [];
for (let i = 0; i < cells; i++) {
  const t0 = performance.now();
  await kernel.execute("1+1");
  ours.push(performance.now() - t0);
}
const file = join(kernel.directory, "connection.json");
const theirs = JSON.parse(
  execFileSync(python, [
    "-c",
    `
import json, sys, time
from jupyter_client import BlockingKernelClient
c = BlockingKernelClient(connection_file=${JSON.stringify(file)})
c.load_connection_file(); c.start_channels(); c.wait_for_ready(timeout=30)
for _ in range(3): c.execute_interactive("1+1", timeout=30, output_hook=lambda m: None)
out = []
for _ in range(${cells}):
    t = time.perf_counter(); c.execute_interactive("1+1", timeout=30, output_hook=lambda m: None); out.append((time.perf_counter() - t) * 1000)
print(json.dumps(out))
`,
  ]).toString(),
);
await kernel.dispose();

const directory = mkdtempSync(join(tmpdir(), "kernel-bench-"));
const echo = defineTool({
  name: "echo",
  tier: "read",
  parallelSafe: true,
  description: "Echoes.",
  input: z.object({ v: z.number() }),
  execute: (a) => textResult(String(a.v)),
});
const registry = createRegistry({ tools: [evalTool, echo], approval: "auto" });
const run = createRun({
  workingDirectory: directory,
  resources: [[kernelFactoryKey, createKernelFactory({ pythonPath: python })]],
});
const call = (code, reset = false) =>
  registry.invoke(run, {
    tool: "eval",
    args: { code, description: "benchmark a cell for timing here", reset },
  });
await call("1");
await new Promise((resolve) => setTimeout(resolve, 3000)); // let the warm spare finish starting
const t0 = performance.now();
await call("1", true);
const reset = performance.now() - t0;
const bridged = await call(
  "import time\nt = time.perf_counter()\nfor i in range(50): tool('echo', {'v': i})\n(time.perf_counter() - t) / 50 * 1000",
);
await run.dispose();
rmSync(directory, { recursive: true, force: true });

console.log(`cold start (ready + helpers), mean of 3: ${mean(starts).toFixed(0)} ms`);
console.log(
  `trivial cell round trip: ours ${mean(ours).toFixed(2)} ms, jupyter_client ${mean(theirs).toFixed(2)} ms, ratio ${(mean(ours) / mean(theirs)).toFixed(2)}x`,
);
console.log(`reset from the warm spare (eval call incl. a cell): ${reset.toFixed(0)} ms`);
console.log(`bridged tool() call inside a cell: ${Number(bridged.content[0].text).toFixed(2)} ms per call`);
