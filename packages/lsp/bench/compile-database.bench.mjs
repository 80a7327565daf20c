// What reading the compile flags costs at each header change, with a large compilation database
// (22 MB, 40 000 entries). Two measures:
// 1. `compileFlagFacts` alone, called as each header change calls it, the database unchanged
//    (then once after the database is rewritten: it must be read again);
// 2. end to end on clangd: a header changed on disk, then `definition` asked in a file including
//    it (the call sends the includers again, which asks for the compile flags' include folders).
// Run after `pnpm run build`: node bench/compile-database.bench.mjs [rounds]
import { mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRegistry, createRun, resultText } from "@tools/registry";
import { compileFlagFacts } from "../dist/client/compile-flags.js";
import { createLspSupervisor, lspTool } from "../dist/index.js";

const rounds = Number(process.argv[2] ?? 10);
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

const dir = realpathSync(mkdtempSync(join(tmpdir(), "lsp-bench-database-")));
const database = join(dir, "compile_commands.json");
/** Writes the database (40 000 entries, ~22 MB), dated a minute ago. */
function writeDatabase(extra) {
  const entries = [{ directory: dir, file: join(dir, "a.c"), arguments: ["cc", "-std=c11", "-c", "a.c"] }];
  for (let i = 0; i < 40_000; i++) {
    const folder = join(dir, "src", `module${i % 500}`);
    entries.push({
      directory: folder,
      file: join(folder, `file${i}.c`),
      arguments: [
        "/usr/bin/cc",
        `-I${dir}/include`,
        `-I${folder}/include`,
        "-isystem",
        `${dir}/third_party/include`,
        `-DMODULE_${i % 500}=1`,
        "-DNDEBUG",
        "-O2",
        "-Wall",
        "-Wextra",
        "-std=c11",
        extra,
        "-o",
        `${folder}/file${i}.o`,
        "-c",
        `${folder}/file${i}.c`,
      ],
    });
  }
  const text = JSON.stringify(entries);
  writeFileSync(database, text);
  const past = new Date(Date.now() - 60_000);
  utimesSync(database, past, past);
  return text.length;
}

try {
  const bytes = writeDatabase("-DA");
  writeFileSync(join(dir, "twice.h"), "#pragma once\nint twice(int v);\n");
  writeFileSync(join(dir, "a.c"), '#include "twice.h"\nint a(void) { return twice(1); }\n');
  writeFileSync(join(dir, "e.c"), "int e(void) { return 5; }\n");

  const calls = [];
  for (let i = 0; i < rounds; i++) {
    const start = performance.now();
    compileFlagFacts(dir, []);
    calls.push(performance.now() - start);
  }
  writeDatabase("-DB");
  const start = performance.now();
  compileFlagFacts(dir, []);
  const changed = performance.now() - start;
  console.log(
    `compileFlagFacts, ${(bytes / 1e6).toFixed(1)} MB database: first ${calls[0].toFixed(1)} ms, then median ${median(calls.slice(1)).toFixed(2)} ms unchanged (${rounds - 1} calls); ${changed.toFixed(1)} ms after it changed`,
  );

  const run = createRun({ workingDirectory: dir });
  const supervisor = createLspSupervisor(run, { diagnosticsTimeoutMs: 60_000 });
  const registry = createRegistry({ tools: [lspTool] });
  const lsp = async (args) => resultText(await registry.invoke(run, { tool: "lsp", args }));
  try {
    await lsp({ action: "diagnostics", file: "a.c" });
    await lsp({ action: "diagnostics", file: "e.c" });
    const ms = [];
    for (let round = 1; round <= rounds; round++) {
      writeFileSync(join(dir, "twice.h"), `#pragma once\n${"\n".repeat(round)}int twice(int v);\n`);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const begin = performance.now();
      const answer = await lsp({ action: "definition", file: "a.c", line: 2, symbol: "twice" });
      ms.push(performance.now() - begin);
      if (!answer.includes(`twice.h:${round + 2}:5`)) throw new Error(`stale answer: ${answer}`);
    }
    console.log(
      `definition in a.c after twice.h changed (${rounds} rounds): median ${median(ms).toFixed(0)} ms, min ${Math.min(...ms).toFixed(0)} ms`,
    );
  } finally {
    await run.dispose();
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
