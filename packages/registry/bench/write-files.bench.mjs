// The cost of writeFiles for ordinary writes: one file, and a set of 100 files, each rewritten
// in place in a fresh temporary folder. Run after a build: node bench/write-files.bench.mjs [rounds]
// (BENCH_REGISTRY=/path/to/other/dist/index.js measures another build, for a before/after).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
const { writeFiles } = await import(process.env.BENCH_REGISTRY ?? "../dist/index.js");

const rounds = Number(process.argv[2] ?? 200);
const dir = mkdtempSync(join(tmpdir(), "write-files-bench-"));
const body = "x".repeat(2000);

async function measure(count) {
  const paths = Array.from({ length: count }, (_, i) => join(dir, `f${count}-${i}.txt`));
  for (const path of paths) writeFileSync(path, body);
  let version = 0;
  const once = async () => {
    version += 1;
    const outcome = await writeFiles(paths.map((path) => ({ path, content: `${body}${version}` })));
    if (!outcome.ok) throw new Error(JSON.stringify(outcome));
  };
  for (let i = 0; i < 10; i += 1) await once(); // warm-up
  const times = [];
  for (let i = 0; i < rounds; i += 1) {
    const start = process.hrtime.bigint();
    await once();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)], p90: times[Math.floor(times.length * 0.9)] };
}

try {
  const one = await measure(1);
  const hundred = await measure(100);
  console.log(`1 file:    median ${one.median.toFixed(3)} ms, p90 ${one.p90.toFixed(3)} ms`);
  console.log(`100 files: median ${hundred.median.toFixed(3)} ms, p90 ${hundred.p90.toFixed(3)} ms`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
