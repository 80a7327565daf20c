// Time of a Python cell that switches between stdout and stderr N times, through the raw kernel
// client (kernel + iopub receipt) and through the eval tool (plus collection and rendering), and
// whether the client got every line in order. Run after `pnpm run build`:
//   node bench/stream-switch.bench.mjs [switches]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRegistry, createRun, resultText } from "@tools/registry";
import { createKernelFactory, evalTool, kernelFactoryKey } from "../dist/index.js";
import { startKernel } from "../dist/launch/start-kernel.js";

const n = Number(process.argv[2] ?? 10_000);
const python = "/usr/bin/python3";
const cell = `import sys\nfor i in range(${n}):\n    print(i)\n    print(-i, file=sys.stderr)`;

const kernel = await startKernel({
  language: "python",
  cwd: process.cwd(),
  pythonPath: python,
  shellTool: "shell",
  readyTimeoutMs: 30_000,
});
await kernel.execute("1+1");
let received = "";
const t0 = performance.now();
await kernel.execute(cell, {
  onOutput: (output) => {
    if (output.type === "stream") received += output.text;
  },
});
const raw = (performance.now() - t0) / 1000;
await kernel.dispose();

const directory = mkdtempSync(join(tmpdir(), "kernel-bench-"));
const registry = createRegistry({ tools: [evalTool], approval: "auto" });
const run = createRun({
  workingDirectory: directory,
  resources: [[kernelFactoryKey, createKernelFactory({ pythonPath: python, warmSpare: false })]],
});
const call = (code) =>
  registry.invoke(run, { tool: "eval", args: { code, description: "time a cell switching streams" } });
await call("1");
const t1 = performance.now();
const result = await call(cell);
const viaEval = (performance.now() - t1) / 1000;
const text = resultText(result);
await run.dispose();
rmSync(directory, { recursive: true, force: true });
const expected = Array.from({ length: n }, (_, i) => `${i}\n${-i}\n`).join("");
console.log(
  `${n} switches: kernel.execute ${raw.toFixed(2)} s (every line in order: ${received === expected}), eval call ${viaEval.toFixed(2)} s (${text.length} characters shown)`,
);
