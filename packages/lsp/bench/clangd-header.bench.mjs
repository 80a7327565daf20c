// After a header changes on disk, how many open files are sent again to clangd before the next
// call, and how long that call takes. 10 open C files each including ten system headers, 2 of
// them including the project's header; the header is changed, then `definition` is asked in a
// file that does not include it and in one that does.
// Run after `pnpm run build`: node bench/clangd-header.bench.mjs [rounds]
import { mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRegistry, createRun, resultText } from "@tools/registry";
import { createLspSupervisor, lspTool } from "../dist/index.js";

const rounds = Number(process.argv[2] ?? 5);
const system = [
  "stdio",
  "stdlib",
  "string",
  "math",
  "time",
  "signal",
  "unistd",
  "pthread",
  "sys/socket",
  "netinet/in",
];
const heavy = system.map((name) => `#include <${name}.h>\n`).join("");

const dir = realpathSync(mkdtempSync(join(tmpdir(), "lsp-bench-header-")));
writeFileSync(join(dir, "compile_flags.txt"), "-std=gnu11\n");
writeFileSync(join(dir, "twice.h"), "#pragma once\nint twice(int v);\n");
for (let i = 0; i < 10; i++) {
  const includes = i < 2 ? '#include "twice.h"\n' : "";
  writeFileSync(
    join(dir, `f${i}.c`),
    `${includes}${heavy}int f${i}(void) { return ${i < 2 ? "twice(1)" : "1"}; }\n`,
  );
}
const run = createRun({ workingDirectory: dir });
const supervisor = createLspSupervisor(run, { diagnosticsTimeoutMs: 30_000 });
const registry = createRegistry({ tools: [lspTool] });
const lsp = async (args) => resultText(await registry.invoke(run, { tool: "lsp", args }));
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];
try {
  for (let i = 0; i < 10; i++) await lsp({ action: "diagnostics", file: `f${i}.c` });
  const [client] = supervisor.runningClients();
  let changes = 0;
  const notify = client.notify.bind(client);
  client.notify = (method, params) => {
    if (method === "textDocument/didChange") changes++;
    return notify(method, params);
  };
  const asks = [
    { name: "non-including f5.c", args: { action: "definition", file: "f5.c", line: 11, symbol: "f5" } },
    { name: "including f0.c", args: { action: "definition", file: "f0.c", line: 12, symbol: "twice" } },
  ];
  const results = asks.map(() => ({ ms: [], sent: [] }));
  for (let round = 1; round <= rounds; round++) {
    for (const [index, ask] of asks.entries()) {
      writeFileSync(
        join(dir, "twice.h"),
        `#pragma once\n${"\n".repeat(2 * round + index)}int twice(int v);\n`,
      );
      await new Promise((resolve) => setTimeout(resolve, 200));
      changes = 0;
      const start = performance.now();
      await lsp(ask.args);
      results[index].ms.push(performance.now() - start);
      results[index].sent.push(changes);
    }
  }
  for (const [index, ask] of asks.entries())
    console.log(
      `definition in ${ask.name} after the header changed: median ${median(results[index].ms).toFixed(0)} ms, files sent again ${median(results[index].sent)} (of 10 open, 2 including it)`,
    );
} finally {
  await run.dispose();
  rmSync(dir, { recursive: true, force: true });
}
