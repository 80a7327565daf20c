// What the kernel's helpers cost per top-level statement of a Python cell (each runs through the
// interrupt watching of run_statement in src/launch/python-setup.ts): a cell of `statements`
// times `x += 1` (default 10 000), timed inside the cell, `runs` times (default 7), on one kernel,
// each run once with the helpers' statement runner and once with IPython's own (swapped in for
// that cell), alternately. Timed in the main thread's CPU time (time.thread_time: its system
// calls count, other processes' load does not) and in wall time. Run after `pnpm run build`:
//   node bench/statements.bench.mjs [statements] [runs]
import { startKernel } from "../dist/launch/start-kernel.js";

const statements = Number(process.argv[2] ?? 10_000);
const runs = Number(process.argv[3] ?? 7);
const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const timed =
  "import time as _t\n_cpu, _wall = _t.thread_time(), _t.perf_counter()\n" +
  "x += 1\n".repeat(statements) +
  "print((_t.thread_time() - _cpu) * 1000, (_t.perf_counter() - _wall) * 1000)";

const kernel = await startKernel({
  language: "python",
  cwd: process.cwd(),
  pythonPath: "/usr/bin/python3",
  shellTool: "shell",
  readyTimeoutMs: 30_000,
});
const run = async (code) => {
  let text = "";
  const outcome = await kernel.execute(code, {
    onOutput: (output) => {
      if (output.type === "stream") text += output.text;
      if (output.type === "error") text += output.traceback.join("\n");
    },
  });
  if (outcome.status !== "ok") throw new Error(`a bench cell failed: ${text}`);
  return text;
};
const ours = { cpu: [], wall: [] };
const ipythons = { cpu: [], wall: [] };
const note = (into, text) => {
  const [cpu, wall] = text.trim().split(" ").map(Number);
  into.cpu.push(cpu);
  into.wall.push(wall);
};
try {
  await run("x = 0\n_ip = get_ipython()\n_ours = _ip.run_code\n_ipythons = type(_ip).run_code.__get__(_ip)");
  // The first round warms up (IPython's compile caches).
  for (let i = 0; i < runs + 1; i++) {
    const withOurs = await run(timed);
    await run("_ip.run_code = _ipythons");
    const withIPythons = await run(timed);
    await run("_ip.run_code = _ours");
    if (i > 0) {
      note(ours, withOurs);
      note(ipythons, withIPythons);
    }
  }
} finally {
  await kernel.dispose();
}

const fmt = (values) => values.map((value) => value.toFixed(0)).join(", ");
console.log(`${statements} statements, median of ${runs} runs (timed inside the cell):`);
for (const kind of ["cpu", "wall"]) {
  const label = kind === "cpu" ? "CPU time of the main thread" : "wall time";
  const each = ours[kind].map((value, index) => ((value - ipythons[kind][index]) / statements) * 1000);
  console.log(`  ${label}:`);
  console.log(`    through our statement runner: ${median(ours[kind]).toFixed(0)} ms  (${fmt(ours[kind])})`);
  console.log(
    `    through IPython's own:        ${median(ipythons[kind]).toFixed(0)} ms  (${fmt(ipythons[kind])})`,
  );
  console.log(
    `    ours costs per statement:     ${median(each).toFixed(1)} µs (median of the runs' differences)`,
  );
}
