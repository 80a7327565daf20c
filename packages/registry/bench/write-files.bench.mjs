// The cost of writeFiles for ordinary writes: one file, and a set of 100 files (2 kB each),
// rewritten in place, rounds of each build alternating so that both see the same machine load.
// Run after a build: node bench/write-files.bench.mjs [rounds]. With
// BENCH_BASELINE=/path/to/another/dist/index.js (a build of the code before a change) it prints
// that build's times too and the ratio of this one's to them. Not part of `npm test`.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const rounds = Number(process.argv[2] ?? 200);
const builds = { current: (await import("../dist/index.js")).writeFiles };
if (process.env.BENCH_BASELINE) builds.baseline = (await import(process.env.BENCH_BASELINE)).writeFiles;
const dir = mkdtempSync(join(tmpdir(), "write-files-bench-"));
const body = "x".repeat(2000);
let version = 0;

async function once(writeFiles, paths) {
  version += 1;
  const start = process.hrtime.bigint();
  const outcome = await writeFiles(paths.map((path) => ({ path, content: `${body}${version}` })));
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (!outcome.ok) throw new Error(JSON.stringify(outcome));
  return ms;
}

const median = (times) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)];

try {
  for (const count of [1, 100]) {
    const paths = Array.from({ length: count }, (_, i) => join(dir, `f${count}-${i}.txt`));
    for (const path of paths) writeFileSync(path, body);
    const times = Object.fromEntries(Object.keys(builds).map((name) => [name, []]));
    for (let round = 0; round < rounds + 10; round += 1) {
      for (const [name, writeFiles] of Object.entries(builds)) {
        const ms = await once(writeFiles, paths);
        if (round >= 10) times[name].push(ms); // the first ten warm up
      }
    }
    const line = Object.entries(times).map(([name, list]) => `${name} ${median(list).toFixed(3)} ms`);
    if (builds.baseline) line.push(`ratio ${(median(times.current) / median(times.baseline)).toFixed(2)}`);
    console.log(`${String(count).padStart(3)} file(s), median of ${rounds}: ${line.join(", ")}`);
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
