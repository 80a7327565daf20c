// Invoke overhead through the full chain (validation → guardrails → approval gate → tool →
// result wrappers → events) against calling the tool's execute directly, in the same run.
// Run with `pnpm --filter @tools/registry run bench` after a build. Not part of `npm test`.
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { createRegistry, createRun, defineTool } from "../dist/index.js";

const iterations = Number(process.env.BENCH_ITERATIONS ?? 200_000);
const rounds = 5;

const tool = defineTool({
  name: "lookup",
  tier: "read",
  description: "Returns a line of a small table.",
  parallelSafe: true,
  input: z.object({ key: z.string(), line: z.number().int().min(1), symbol: z.string().optional() }),
  execute: (input) => `${input.key}:${input.line}`,
});
const serialTool = defineTool({ ...tool, name: "lookup_serial", parallelSafe: false });
const pathTool = defineTool({
  ...tool,
  name: "lookup_file",
  input: z.object({ file: z.string(), line: z.number().int().min(1) }),
  paths: (input) => [input.file],
  execute: (input, context) => `${context.resolvePath(input.file)}:${input.line}`,
});

const run = createRun({ workingDirectory: mkdtempSync(join(tmpdir(), "bench-")) });
const registry = createRegistry({ tools: [tool, serialTool, pathTool] });
const observed = createRegistry({ tools: [tool] });
observed.on(() => undefined);
const args = { key: "a", line: 12, symbol: "foo" };
const context = {};

async function measure(label, fn) {
  for (let i = 0; i < 20_000; i++) await fn();
  const samples = [];
  for (let round = 0; round < rounds; round++) {
    const start = process.hrtime.bigint();
    for (let i = 0; i < iterations; i++) await fn();
    samples.push(Number(process.hrtime.bigint() - start) / iterations / 1000);
  }
  samples.sort((a, b) => a - b);
  const median = samples[Math.floor(samples.length / 2)];
  console.log(
    `${label.padEnd(44)} ${median.toFixed(3).padStart(8)} µs/call (median of ${rounds} × ${iterations})`,
  );
  return median;
}

const direct = await measure("direct execute (anchor)", async () => tool.execute(args, context));
const full = await measure("registry.invoke, parallel-safe", () =>
  registry.invoke(run, { tool: "lookup", args }),
);
const withEvents = await measure("registry.invoke, with an event listener", () =>
  observed.invoke(run, { tool: "lookup", args }),
);
const serial = await measure("registry.invoke, serial lane", () =>
  registry.invoke(run, { tool: "lookup_serial", args }),
);
const withPath = await measure("registry.invoke, a path argument (realpath)", () =>
  registry.invoke(run, { tool: "lookup_file", args: { file: "src/deep/file.ts", line: 3 } }),
);

console.log("");
console.log(
  `overhead per call (full chain − direct):        ${(full - direct).toFixed(3)} µs   (target < 20 µs)`,
);
console.log(`overhead with events:                            ${(withEvents - direct).toFixed(3)} µs`);
console.log(`overhead through a serial lane:                  ${(serial - direct).toFixed(3)} µs`);
console.log(`overhead with a path argument (containment):   ${(withPath - direct).toFixed(3)} µs`);
console.log(`ratio full chain / direct:                       ${(full / direct).toFixed(1)}×`);
await run.dispose();
