// Whether a cancelled workspace-symbols search on TypeScript is cancelled inside tsserver: a
// hover sent right after the cancel waits for whatever tsserver is still running. Our `symbols`
// asks tsserver's `navto` through typescript-language-server's pass-through
// (`workspace/executeCommand` "typescript.tsserverRequest"), which takes no cancellation token;
// the server's own `workspace/symbol` passes one (its $/cancelRequest reaches tsserver through
// the cancellation pipe) but searches only the projects of the document it touched last.
// Run after `pnpm run build`: node bench/navto-cancel.bench.mjs [files]
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRegistry, createRun } from "@tools/registry";
import { createLspSupervisor, lspTool } from "../dist/index.js";
const here = dirname(fileURLToPath(import.meta.url));
const files = Number(process.argv[2] ?? 8000);
const dir = realpathSync(mkdtempSync(join(tmpdir(), "lsp-navto-")));
const write = (p, t) => {
  mkdirSync(dirname(join(dir, p)), { recursive: true });
  writeFileSync(join(dir, p), t);
};
write("package.json", `{ "name": "n", "private": true, "type": "module" }\n`);
write(
  "tsconfig.json",
  JSON.stringify({
    compilerOptions: { strict: true, module: "NodeNext", moduleResolution: "NodeNext", types: [] },
    include: ["src"],
  }),
);
for (let i = 0; i < files; i++)
  write(
    `src/m/m${i}.ts`,
    Array.from(
      { length: 10 },
      (_, j) => `export function fooBar${i}x${j}(x: number): number { return x + ${j}; }\n`,
    ).join(""),
  );
write("src/app.ts", `import { fooBar1x1 } from "./m/m1.js";\n\nexport const y = fooBar1x1(2);\n`);
const run = createRun({ workingDirectory: dir });
const supervisor = createLspSupervisor(run, { binDirectories: [join(here, "..", "node_modules", ".bin")] });
const registry = createRegistry({ tools: [lspTool], resultWrappers: [], approval: "auto" });
const call = (args, signal) => registry.invoke(run, { tool: "lsp", args, ...(signal ? { signal } : {}) });
const hover = () => call({ action: "hover", file: "src/app.ts", line: 3, symbol: "fooBar1x1" });
const time = async (f) => {
  const s = performance.now();
  await f();
  return performance.now() - s;
};
try {
  await hover();
  await call({ action: "symbols", query: "warm", file: "src/app.ts" });
  const full = [];
  for (let i = 0; i < 3; i++)
    full.push(await time(() => call({ action: "symbols", query: "oBar", file: "src/app.ts" })));
  const alone = [];
  for (let i = 0; i < 5; i++) alone.push(await time(hover));
  /**
   * Five times: starts a search with `start(signal)`, cancels it 20 ms in, and times until it has
   * settled and a hover after it has answered.
   */
  const hoverAfterCancel = async (start) => {
    const times = [];
    for (let i = 0; i < 5; i++) {
      const c = new AbortController();
      const search = start(c.signal);
      await new Promise((r) => setTimeout(r, 20));
      c.abort(new Error("cancelled"));
      times.push(
        await time(() =>
          search
            .then(
              () => undefined,
              () => undefined,
            )
            .then(() => hover()),
        ),
      );
    }
    return times;
  };
  const afterCancel = await hoverAfterCancel((signal) =>
    call({ action: "symbols", query: "oBar", file: "src/app.ts" }, signal),
  );
  const client = supervisor.runningClientFor(join(dir, "src/app.ts"));
  const rawFull = [];
  for (let i = 0; i < 2; i++)
    rawFull.push(await time(() => client.request("workspace/symbol", { query: "oBar" }, undefined)));
  const rawCancel = await hoverAfterCancel((signal) =>
    client.request("workspace/symbol", { query: "oBar" }, undefined, signal),
  );
  console.log(
    `workspace/symbol full ${rawFull.map((x) => x.toFixed(0)).join("/")} ms; cancelled at 20 ms then hover: ${rawCancel.map((x) => x.toFixed(0)).join("/")} ms`,
  );
  const med = (a) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)].toFixed(1);
  console.log(
    `${files} files x10 functions: symbols 'oBar' full ${full.map((x) => x.toFixed(0)).join("/")} ms; hover alone median ${med(alone)} ms; cancel at 20 ms then hover: median ${med(afterCancel)} ms (${afterCancel.map((x) => x.toFixed(0)).join("/")})`,
  );
} finally {
  await run.dispose();
  rmSync(dir, { recursive: true, force: true });
}
