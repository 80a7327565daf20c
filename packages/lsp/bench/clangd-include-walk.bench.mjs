// What a flush costs when the open files reach many headers: 50 C files open on clangd, reaching
// (through -Iinclude and each other) 2 000 headers in 20 include folders. Between calls, a file no
// one includes changes on disk, and the flush before the next call works out which open file
// reaches it: a .c file (the walk of included names, `includedNames`) or a header (the walk of
// `includeReach`). Times that flush alone (the walk; nothing is sent again), and counts the
// `readdir`s and `stat`s it makes. With `--outside`, the headers are outside the root (a library
// beside it, not watched), found through one -I folder each (-I../lib/m0 … -I../lib/m19).
// Run after `pnpm run build`: node bench/clangd-include-walk.bench.mjs [rounds] [--outside]
import fs, { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { syncBuiltinESMExports } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRegistry, createRun, resultText } from "@tools/registry";
import { createLspSupervisor, lspTool } from "../dist/index.js";

const rounds = Number(process.argv.slice(2).find((arg) => !arg.startsWith("--")) ?? 15);
const outside = process.argv.includes("--outside");
const headers = 2_000;
const folders = 20;
const open = 50;
const header = (i) => `m${i % folders}/h${i}.h`;
/** As a real header's: a licence comment, then some 40 declarations (about 4 KB in all). */
const license = `/*\n${' * Licensed under the Apache License, Version 2.0 (the "License").\n'.repeat(8)} */\n`;
const body = (i) =>
  `${Array.from({ length: 40 }, (_, k) => `/* Returns v scaled by ${k}. */\nint h${i}_${k}(int v, const char *name);\n`).join("")}int h${i}(int v);\n`;

const top = realpathSync(mkdtempSync(join(tmpdir(), "lsp-bench-walk-")));
const dir = outside ? join(top, "app") : top;
const lib = outside ? join(top, "lib") : join(dir, "include");
mkdirSync(dir, { recursive: true });
const flags = outside ? Array.from({ length: folders }, (_, m) => `-I../lib/m${m}`).join("\n") : "-Iinclude";
writeFileSync(join(dir, "compile_flags.txt"), `-std=c11\n${flags}\n`);
for (let m = 0; m < folders; m++) mkdirSync(join(lib, `m${m}`), { recursive: true });
for (let i = 0; i < headers; i++) {
  // Each header includes the next (all 2 000 reached from any), a system header and a comment.
  // Inside the root, by the folder's name (-Iinclude) and beside; outside, by -I folder.
  const next =
    i + 1 >= headers
      ? ""
      : outside
        ? `#include <h${i + 1}.h>\n`
        : `#include "h${i + 1}.h"\n#include <${header(i + 1)}>\n`;
  writeFileSync(join(lib, header(i)), `#pragma once\n${license}#include <stddef.h>\n${next}${body(i)}`);
}
for (let i = 0; i < open; i++)
  writeFileSync(
    join(dir, `f${i}.c`),
    `#include <${outside ? `h${(i * 40) % headers}.h` : header((i * 40) % headers)}>\nint f${i}(void) { return h${(i * 40) % headers}(1); }\n`,
  );
writeFileSync(join(dir, "other.c"), "int other(void) { return 1; }\n");
writeFileSync(join(dir, "unused.h"), "int unused(void);\n");

const calls = { readdir: 0, stat: 0 };
const { readdirSync, statSync } = fs;
fs.readdirSync = (...args) => (calls.readdir++, readdirSync(...args));
fs.statSync = (...args) => (calls.stat++, statSync(...args));
syncBuiltinESMExports();

const run = createRun({ workingDirectory: dir });
const supervisor = createLspSupervisor(run, { diagnosticsTimeoutMs: 120_000 });
const registry = createRegistry({ tools: [lspTool] });
const lsp = async (args) => resultText(await registry.invoke(run, { tool: "lsp", args }));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
const settle = () => new Promise((resolve) => setImmediate(() => setImmediate(resolve)));
try {
  for (let i = 0; i < open; i++) await lsp({ action: "diagnostics", file: `f${i}.c` });
  const [client] = supervisor.runningClients();
  let sent = 0;
  const notify = client.notify.bind(client);
  client.notify = (method, params) => {
    if (method === "textDocument/didChange" || method === "textDocument/didOpen") sent++;
    return notify(method, params);
  };
  const measures = {
    ".c file": { file: "other.c", flush: () => client.flushFileChanges() },
    header: {
      file: "unused.h",
      flush: async () => (await client.flushFileChanges(), await client.refreshIncluders()),
    },
  };
  const results = Object.fromEntries(
    Object.keys(measures).map((name) => [name, { ms: [], readdir: [], stat: [] }]),
  );
  // Past the racy margin, as an agent's calls are seconds apart.
  await new Promise((resolve) => setTimeout(resolve, 2_500));
  for (let round = 0; round <= rounds; round++) {
    for (const [name, { file, flush }] of Object.entries(measures)) {
      writeFileSync(join(dir, file), `${"\n".repeat(round + 1)}int changed(void);\n`);
      await new Promise((resolve) => setTimeout(resolve, 150));
      await settle();
      calls.readdir = calls.stat = 0;
      const start = performance.now();
      await flush();
      const ms = performance.now() - start;
      // The first round reads everything once.
      if (round === 0) continue;
      results[name].ms.push(ms);
      results[name].readdir.push(calls.readdir);
      results[name].stat.push(calls.stat);
    }
  }
  for (const [name, result] of Object.entries(results))
    console.log(
      `${name} changed: flush median ${median(result.ms).toFixed(1)} ms (min ${Math.min(...result.ms).toFixed(1)}, max ${Math.max(...result.ms).toFixed(1)}), readdir ${median(result.readdir)}, stat ${median(result.stat)}`,
    );
  console.log(`documents sent again: ${sent} (of ${open} open, none reaching the changed files)`);
} finally {
  await run.dispose();
  rmSync(top, { recursive: true, force: true });
}
