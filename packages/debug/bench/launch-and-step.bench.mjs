// Launch-to-first-stop and one step's round trip through the `debug` tool, against a bare DAP
// client (the package's framing layer only, raw requests) on the same adapter, in one run.
// Prints medians and ratios (target ≤ 1.1×). Run after `pnpm run build`; never part of `npm test`.
import { execFileSync, spawn } from "node:child_process";
import { cpSync, existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRegistry, createRun, signalGroup } from "@tools/registry";
import { createDebugSupervisor, DapConnection, debugSupervisorKey, debugTool } from "../dist/index.js";

const rounds = Number(process.env.ROUNDS ?? 5);
// ONLY=debugpy (or lldb-dap-19) runs one adapter.
const only = process.env.ONLY;
const fixtures = new URL("../src/__fixtures__/", import.meta.url).pathname;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function viaTool(dir, program, file, line) {
  const supervisor = createDebugSupervisor();
  const run = createRun({
    workingDirectory: dir,
    conversationId: "bench",
    resources: [[debugSupervisorKey, supervisor]],
  });
  const registry = createRegistry({ tools: [debugTool], approval: "auto" });
  const call = (args) => registry.invoke(run, { tool: "debug", args });
  await call({ op: "breakpoints", file, lines: [line] });
  let t = performance.now();
  const launch = await call({ op: "launch", program });
  const launchMs = performance.now() - t;
  if (launch.isError || !launch.content[0].text.includes("stopped (breakpoint)"))
    throw new Error(launch.content[0].text);
  t = performance.now();
  await call({ op: "step_over" });
  const stepMs = performance.now() - t;
  await run.dispose();
  return { launchMs, stepMs };
}

async function bare(command, args, launchArgs, file, line) {
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "ignore"], detached: true });
  const connection = new DapConnection(child.stdout, child.stdin);
  const waiters = [];
  let initialized = false;
  connection.onEvent((event) => {
    if (event.event === "initialized") initialized = true;
    for (const waiter of waiters.splice(0)) waiter(event);
  });
  const next = (name) =>
    new Promise((resolve) => {
      const check = (event) => (event.event === name ? resolve(event) : waiters.push(check));
      waiters.push(check);
    });
  let t = performance.now();
  const capabilities = await connection.request("initialize", {
    adapterID: "bench",
    linesStartAt1: true,
    columnsStartAt1: true,
    pathFormat: "path",
  });
  const gotInitialized = initialized ? Promise.resolve() : next("initialized");
  const launched = connection.request("launch", launchArgs, 60_000);
  await gotInitialized;
  // What any correct client sends (VS Code does too): the breakpoints and the exception filters.
  const filters = (capabilities.body?.exceptionBreakpointFilters ?? [])
    .filter((filter) => filter.default === true || filter.filter === "uncaught")
    .map((filter) => filter.filter);
  await Promise.all([
    connection.request("setBreakpoints", { source: { path: file }, breakpoints: [{ line }] }),
    capabilities.body?.exceptionBreakpointFilters?.length
      ? connection.request("setExceptionBreakpoints", { filters })
      : undefined,
  ]);
  const stopped = next("stopped");
  await connection.request("configurationDone");
  await launched;
  const stop = await stopped;
  // The tool also fetches the top frame to say where it stopped; so does a useful bare client.
  await connection.request("stackTrace", { threadId: stop.body.threadId, levels: 30 });
  const launchMs = performance.now() - t;
  t = performance.now();
  const stepped = next("stopped");
  await connection.request("next", { threadId: stop.body.threadId });
  const step = await stepped;
  await connection.request("stackTrace", { threadId: step.body.threadId, levels: 30 });
  const stepMs = performance.now() - t;
  await connection.request("disconnect", { terminateDebuggee: true }, 2000).catch(() => undefined);
  // What is left of the adapter's group; a group gone whose id a stranger took is left alone.
  signalGroup(child, "SIGKILL");
  return { launchMs, stepMs };
}

async function compare(name, prepare, toolArgs, bareArgs) {
  const dir = prepare();
  const tool = [];
  const raw = [];
  try {
    for (let i = 0; i < rounds; i++) {
      raw.push(await bare(...bareArgs(dir)));
      tool.push(await viaTool(dir, ...toolArgs));
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const row = (metric) => {
    const a = median(tool.map((r) => r[metric]));
    const b = median(raw.map((r) => r[metric]));
    return `${metric.padEnd(9)} tool ${a.toFixed(0).padStart(5)} ms  bare ${b.toFixed(0).padStart(5)} ms  ratio ${(a / b).toFixed(2)}x`;
  };
  // Per-round differences, paired (tool and bare ran back to back): less noisy than the ratio.
  const overhead = (metric) =>
    `${metric.padEnd(9)} tool − bare, median of paired rounds: ${median(tool.map((r, i) => r[metric] - raw[i][metric])).toFixed(0)} ms`;
  // The first round: the tool's detection caches (the python probe) are cold.
  const first = `first     tool ${tool[0].launchMs.toFixed(0).padStart(5)} ms  bare ${raw[0].launchMs.toFixed(0).padStart(5)} ms  (cold detection)`;
  console.log(
    `${name} (median of ${rounds})\n  ${row("launchMs")}\n  ${row("stepMs")}\n  ${first}\n  ${overhead("launchMs")}`,
  );
}

function copy(name) {
  const dir = mkdtempSync(join(tmpdir(), `tools-debug-bench-${name}-`));
  cpSync(join(fixtures, name), dir, { recursive: true });
  return dir;
}

if (existsSync("/usr/bin/python3") && (!only || only === "debugpy")) {
  await compare(
    "debugpy",
    () => {
      const dir = copy("python");
      execFileSync("/usr/bin/python3", [
        "-m",
        "venv",
        "--system-site-packages",
        "--without-pip",
        join(dir, ".venv"),
      ]);
      return dir;
    },
    ["app.py", "app.py", 6],
    (dir) => [
      join(dir, ".venv/bin/python"),
      ["-m", "debugpy.adapter"],
      {
        program: join(dir, "app.py"),
        cwd: dir,
        console: "internalConsole",
        python: [join(dir, ".venv/bin/python")],
      },
      join(dir, "app.py"),
      6,
    ],
  );
}
if (existsSync("/usr/bin/lldb-dap-19") && (!only || only === "lldb-dap-19")) {
  await compare(
    "lldb-dap-19",
    () => {
      const dir = copy("c");
      execFileSync("cc", ["-g", "-O0", "-o", join(dir, "prog"), join(dir, "prog.c")]);
      return dir;
    },
    ["prog", "prog.c", 4],
    (dir) => ["/usr/bin/lldb-dap-19", [], { program: join(dir, "prog"), cwd: dir }, join(dir, "prog.c"), 4],
  );
}
