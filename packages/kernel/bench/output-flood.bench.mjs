// Peak resident memory of the three processes of a JavaScript eval call — the host (this
// process, the kernel client), the kernel and its executor — while one cell floods its output,
// as a ratio to each one's own figure before the cell. Run after `pnpm run build`:
//   node bench/output-flood.bench.mjs [lines] [write]
// (default 5 000 000 lines of console.log(i); with `write`, each line is a 100 kB
// process.stdout.write instead).
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRegistry, createRun, resultText } from "@tools/registry";
import { createKernelFactory, evalTool, kernelFactoryKey } from "../dist/index.js";

const lines = Number(process.argv[2] ?? 5_000_000);
const print =
  process.argv[3] === "write" ? 'process.stdout.write("x".repeat(99_999) + "\\n")' : "console.log(i)";
/** Peak resident set size of `pid` so far, in MiB (Linux: VmHWM). */
const peak = (pid) => Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))[1]) / 1024;

const directory = mkdtempSync(join(tmpdir(), "kernel-bench-"));
const registry = createRegistry({ tools: [evalTool], approval: "auto" });
const run = createRun({
  workingDirectory: directory,
  resources: [[kernelFactoryKey, createKernelFactory({ warmSpare: false })]],
});
const call = (code) =>
  registry.invoke(run, {
    tool: "eval",
    args: { code, description: "measure memory of a flooding cell", language: "javascript" },
  });
const [kernel, executor] = resultText(await call("const kept = 41; [process.ppid, process.pid].join(' ')"))
  .replace(/'/g, "")
  .split(" ")
  .map(Number);
const processes = { host: process.pid, kernel, executor };
const before = Object.fromEntries(Object.entries(processes).map(([name, pid]) => [name, peak(pid)]));
const t0 = performance.now();
const flood = await call(`for (let i = 0; i < ${lines}; i++) ${print}`);
const seconds = (performance.now() - t0) / 1000;
const after = Object.fromEntries(Object.entries(processes).map(([name, pid]) => [name, peak(pid)]));
const state = resultText(await call("kept + 1"));
await run.dispose();
rmSync(directory, { recursive: true, force: true });

console.log(
  `cell printing ${lines.toLocaleString("en-US")} lines: ${seconds.toFixed(1)} s, state kept: ${state === "42"}`,
);
console.log(resultText(flood).match(/… .* omitted here/)?.[0] ?? "(no marker)");
for (const name of Object.keys(processes)) {
  console.log(
    `${name}: peak RSS ${after[name].toFixed(0)} MiB, ${before[name].toFixed(0)} MiB before the cell — ratio ${(after[name] / before[name]).toFixed(2)}x`,
  );
}
