// The `breakpoints` op on a running program, per adapter: how long the call takes when the
// program never reaches the new line (the wait for a hit runs to its bound), how long when it
// reaches it at once (the answer reports the stop), and the gap between the adapter's answer
// to setBreakpoints and the stop. Run after `pnpm run build`; never part of `npm test`.
// ROUNDS=9 ONLY=debugpy|lldb-dap-19|dlv node packages/debug/bench/breakpoints-running.bench.mjs
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRegistry, createRun, resultText } from "@tools/registry";
import { createDebugSupervisor, debugSupervisorKey, debugTool } from "../dist/index.js";

const rounds = Number(process.env.ROUNDS ?? 7);
const only = process.env.ONLY;
const median = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

// Each program spins: `hot` runs every 10 ms, `never` never runs.
const programs = {
  debugpy: {
    file: "spin.py",
    program: "spin.py",
    hot: 4,
    never: 6,
    prepare(dir) {
      const lines = [
        "import time",
        "n = 0",
        "while True:",
        "    n += 1",
        "    if n < 0:",
        "        print('never')",
        "    time.sleep(0.01)",
        "",
      ];
      writeFileSync(join(dir, "spin.py"), lines.join("\n"));
      writeFileSync(join(dir, "pyproject.toml"), '[project]\nname = "spin"\n');
      execFileSync("/usr/bin/python3", [
        "-m",
        "venv",
        "--system-site-packages",
        "--without-pip",
        join(dir, ".venv"),
      ]);
    },
    available: () => existsSync("/usr/bin/python3"),
  },
  "lldb-dap-19": {
    file: "spin.c",
    program: "spin",
    hot: 5,
    never: 7,
    prepare(dir) {
      const lines = [
        "#include <unistd.h>",
        "int main(void) {",
        "  volatile long n = 0;",
        "  for (;;) {",
        "    n++;",
        "    if (n < 0)",
        "      n = 1;",
        "    usleep(10000);",
        "  }",
        "}",
        "",
      ];
      writeFileSync(join(dir, "spin.c"), lines.join("\n"));
      writeFileSync(join(dir, "CMakeLists.txt"), "project(spin C)\n");
      execFileSync("cc", ["-g", "-O0", "-o", join(dir, "spin"), join(dir, "spin.c")]);
    },
    available: () => existsSync("/usr/bin/lldb-dap-19"),
  },
  dlv: {
    file: "main.go",
    program: ".",
    hot: 8,
    never: 10,
    prepare(dir) {
      writeFileSync(join(dir, "go.mod"), "module spin\n\ngo 1.19\n");
      const lines = [
        "package main",
        "",
        'import "time"',
        "",
        "func main() {",
        "\tn := 0",
        "\tfor {",
        "\t\tn++",
        "\t\tif n < 0 {",
        "\t\t\tn = 1",
        "\t\t}",
        "\t\ttime.Sleep(10 * time.Millisecond)",
        "\t}",
        "}",
        "",
      ];
      writeFileSync(join(dir, "main.go"), lines.join("\n"));
    },
    available: () => existsSync("/usr/bin/dlv"),
  },
};

async function measure(name, spec) {
  const dir = mkdtempSync(join(tmpdir(), `tools-debug-bench-bp-${name}-`));
  spec.prepare(dir);
  const supervisor = createDebugSupervisor({ firstStopMs: 300, resumeWaitMs: 300 });
  const run = createRun({
    workingDirectory: dir,
    conversationId: "bench",
    resources: [[debugSupervisorKey, supervisor]],
  });
  const registry = createRegistry({ tools: [debugTool], approval: "auto" });
  const call = async (args) => {
    const result = await registry.invoke(run, { tool: "debug", args });
    const text = resultText(result);
    if (result.isError) throw new Error(text);
    return text;
  };
  const miss = [];
  const hit = [];
  const gap = [];
  let reported = 0;
  try {
    const launch = await call({ op: "launch", program: spec.program });
    if (!launch.includes("still running")) throw new Error(launch);
    for (let i = 0; i < rounds; i++) {
      let t = performance.now();
      const missed = await call({ op: "breakpoints", file: spec.file, lines: [spec.never] });
      miss.push(performance.now() - t);
      if (missed.includes("has stopped")) throw new Error(missed);
      t = performance.now();
      const hitText = await call({ op: "breakpoints", file: spec.file, lines: [spec.hot] });
      hit.push(performance.now() - t);
      if (hitText.includes("has stopped")) reported++;
      await call({ op: "breakpoints", file: spec.file, lines: [] });
      await call({ op: "continue" });
      // The gap between the adapter's answer and the stop, measured on the session itself.
      const session = supervisor.conversation("bench").session;
      const state = supervisor.conversation("bench").breakpoints;
      state.set(join(dir, spec.file), [spec.hot]);
      const stop = session.waitOutcome(10_000);
      await session.sendBreakpoints(join(dir, spec.file));
      t = performance.now();
      const outcome = await stop;
      if (outcome.kind === "stopped") gap.push(performance.now() - t);
      await session.describeStop(outcome.stop);
      await call({ op: "breakpoints", file: spec.file, lines: [] });
      await call({ op: "continue" });
    }
  } finally {
    await run.dispose();
    rmSync(dir, { recursive: true, force: true });
  }
  const ms = (values) =>
    `${median(values).toFixed(0).padStart(5)} ms (${Math.min(...values).toFixed(0)}–${Math.max(...values).toFixed(0)})`;
  console.log(
    `${name} (median of ${rounds}; breakpointHitMs ${supervisor.breakpointHitMs})\n` +
      `  not reached        ${ms(miss)}\n` +
      `  reached at once    ${ms(hit)}, stop reported ${reported}/${rounds}\n` +
      `  answer → stop      ${gap.length ? ms(gap) : "none"}`,
  );
}

for (const [name, spec] of Object.entries(programs)) {
  if (only && only !== name) continue;
  if (!spec.available()) continue;
  await measure(name, spec);
}
