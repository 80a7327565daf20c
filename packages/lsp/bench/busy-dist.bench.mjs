// Hover while a build keeps writing files tsserver does not hold (dist/, outside the tsconfig's
// include): the hover's median and the `projectInfo` requests it sent to typescript-language-server.
// A generated project of <files> source files (the list tsserver answers grows with it); before
// each timed hover the "build" rewrites <written> files in dist/.
// Run after `pnpm run build`: node bench/busy-dist.bench.mjs [hovers] [files] [written]
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createRegistry, createRun } from "@tools/registry";
import { createLspSupervisor, lspTool } from "../dist/index.js";

const here = dirname(fileURLToPath(import.meta.url));
const [hovers = 40, files = 2000, written = 200] = process.argv.slice(2).map(Number);

const dir = realpathSync(mkdtempSync(join(tmpdir(), "lsp-busy-dist-")));
const write = (path, text) => {
  mkdirSync(dirname(join(dir, path)), { recursive: true });
  writeFileSync(join(dir, path), text);
};
write("package.json", `{ "name": "busy", "private": true, "type": "module" }\n`);
write(
  "tsconfig.json",
  JSON.stringify({
    compilerOptions: {
      strict: true,
      target: "ES2022",
      module: "NodeNext",
      moduleResolution: "NodeNext",
      types: [],
      outDir: "dist",
    },
    include: ["src"],
  }),
);
for (let i = 0; i < files; i++)
  write(
    `src/m/m${i}.ts`,
    `/** Module ${i}. */\nexport function f${i}(x: number): number {\n  return x + ${i};\n}\n`,
  );
write("src/app.ts", `import { f1 } from "./m/m1.js";\n\nexport const y = f1(2);\n`);

const run = createRun({ workingDirectory: dir });
const supervisor = createLspSupervisor(run, { binDirectories: [join(here, "..", "node_modules", ".bin")] });
const registry = createRegistry({ tools: [lspTool], resultWrappers: [], approval: "auto" });
const hover = () =>
  registry.invoke(run, { tool: "lsp", args: { action: "hover", file: "src/app.ts", line: 3, symbol: "f1" } });
let round = 0;
const build = () => {
  round += 1;
  for (let i = 0; i < written; i++)
    write(`dist/m/m${i}.js`, `export function f${i}(x) {\n  return x + ${i} + ${round};\n}\n`);
};
try {
  await hover();
  const client = supervisor.runningClientFor(join(dir, "src/app.ts"));
  const sent = { projectInfo: 0, reload: 0 };
  const request = client.request.bind(client);
  client.request = (method, params, timeoutMs, signal) => {
    const command = method === "workspace/executeCommand" ? params?.arguments?.[0] : undefined;
    if (command in sent) sent[command] += 1;
    return request(method, params, timeoutMs, signal);
  };
  for (let i = 0; i < 5; i++) {
    build();
    await hover();
  }
  sent.projectInfo = sent.reload = 0;
  const times = [];
  for (let i = 0; i < hovers; i++) {
    build();
    // The build's writes seen by the watch before the clock starts: only the hover is timed.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const start = performance.now();
    await hover();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(
    `${files} source files, ${written} dist files rewritten before each of ${hovers} hovers: median ${median.toFixed(2)} ms, p90 ${times[Math.floor(times.length * 0.9)].toFixed(2)} ms; projectInfo ${sent.projectInfo}, reload ${sent.reload}`,
  );
} finally {
  await run.dispose();
  rmSync(dir, { recursive: true, force: true });
}
