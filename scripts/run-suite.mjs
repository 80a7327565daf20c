#!/usr/bin/env node
// The whole suite behind `npm test`: turbo runs lint, typecheck, build and test for every
// package, then the package isolation check. Prints one closing line with the totals.
import { spawn } from "node:child_process";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const ansi = new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, "g");

function run(command, args) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: ["ignore", "pipe", "pipe"], env: process.env });
    let output = "";
    const forward = (stream, target) =>
      stream.on("data", (chunk) => {
        output += chunk.toString();
        target.write(chunk);
      });
    forward(child.stdout, process.stdout);
    forward(child.stderr, process.stderr);
    child.on("close", (code) => resolve({ code: code ?? 1, output: output.replace(ansi, "") }));
  });
}

function count(output, pattern) {
  let total = 0;
  for (const match of output.matchAll(pattern)) total += Number(match[1]);
  return total;
}

const extra = process.argv.slice(2);
const turbo = await run("pnpm", [
  "exec",
  "turbo",
  "run",
  "lint",
  "typecheck",
  "build",
  "test",
  "--concurrency=2",
  ...extra,
]);
let passed = count(turbo.output, /^\S*:test:\s+Tests\s+.*?(\d+) passed/gm);
let failed = count(turbo.output, /^\S*:test:\s+Tests\s+(\d+) failed/gm);
let skipped = count(turbo.output, /^\S*:test:\s+Tests\s+.*?(\d+) skipped/gm);
let code = turbo.code;
if (turbo.code !== 0 && failed === 0) failed = 1; // lint, typecheck or build failed: the suite failed
if (turbo.code === 0) {
  const isolation = await run(process.execPath, [join(root, "scripts", "check-isolation.mjs")]);
  passed += count(isolation.output, /^isolation: (\d+) passed/gm);
  failed += count(isolation.output, /^isolation: \d+ passed, (\d+) failed/gm);
  if (isolation.code !== 0) {
    code = isolation.code;
    failed = Math.max(failed, 1);
  }
}
console.log("");
console.log(`suite: ${passed} passed, ${failed} failed${skipped > 0 ? `, ${skipped} skipped` : ""}`);
process.exit(code);
