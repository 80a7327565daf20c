import { readdirSync, readFileSync } from "node:fs";
import { resultText } from "@tools/registry";
import { createOpenAiBackend } from "@tools/vibe";
import { afterEach, describe, expect, it } from "vitest";
import { commandLine, descendants } from "./__fixtures__/process-tree.js";
import { waitFor } from "./__fixtures__/wait-for.js";
import { copySampleWorkspace, type WorkspaceCopy } from "./cli/tour/sample-workspace.js";
import {
  holdMarker,
  startScriptedModelServer,
  type ScriptedModelServer,
} from "./cli/tour/scripted-model-server.js";
import { createDemoRun, type DemoRun } from "./create-demo-run.js";

/** True for the host's process reaper (see `createProcessMark` in @tools/registry). */
function isReaper(pid: number): boolean {
  return commandLine(pid).includes("tools-reaper");
}

/** Live processes carrying a process mark this host issued (`TOOLS_PROCESS_MARK=<pid>-…`). */
function markedByThisHost(): string[] {
  return readdirSync("/proc").flatMap((entry) => {
    if (!/^\d+$/.test(entry)) return [];
    try {
      const environment = readFileSync(`/proc/${entry}/environ`, "utf8").split("\0");
      const marked = environment.some((line) => line.startsWith(`TOOLS_PROCESS_MARK=${process.pid}-`));
      return marked ? [`${entry}: ${commandLine(Number(entry))}`] : [];
    } catch {
      return [];
    }
  });
}

let workspace: WorkspaceCopy | undefined;
let model: ScriptedModelServer | undefined;
let demo: DemoRun | undefined;

afterEach(async () => {
  await demo?.dispose();
  await model?.close();
  await workspace?.remove();
  demo = undefined;
  model = undefined;
  workspace = undefined;
});

describe("the demo run with every package wired", () => {
  it(
    "dispose ends every kernel, debug adapter, debuggee, language server and worker it started",
    { timeout: 90_000 },
    async () => {
      workspace = await copySampleWorkspace();
      expect(workspace.venvError).toBeUndefined();
      model = await startScriptedModelServer();
      demo = createDemoRun({
        workingDirectory: workspace.path,
        approval: "auto",
        ...(workspace.python === undefined ? {} : { pythonPath: workspace.python }),
        vibeBackend: createOpenAiBackend({
          baseURL: model.baseUrl,
          apiKey: "scripted-no-key",
          models: { fast: "scripted-fast", good: "scripted-good" },
          maxRetries: 0,
        }),
      });
      const call = (tool: string, args: Record<string, unknown>) =>
        demo!.registry.invoke(demo!.run, { tool, args });
      const before = new Set(descendants());

      const python = await call("eval", {
        code: "import os\nos.getpid()",
        description: "show the process id of the kernel",
      });
      expect(python.isError, resultText(python)).toBe(false);
      const kernelPid = Number(resultText(python).trim());
      const javascript = await call("eval", {
        code: "process.pid",
        language: "javascript",
        description: "show the process id of the interpreter",
      });
      expect(javascript.isError, resultText(javascript)).toBe(false);
      await call("debug", { op: "breakpoints", file: "python/stats.py", lines: [7] });
      const launch = await call("debug", { op: "launch", program: "python/report.py" });
      expect(resultText(launch)).toContain("stopped (breakpoint)");
      const hover = await call("lsp", { action: "hover", file: "src/math.ts", line: 2, symbol: "sum" });
      expect(resultText(hover)).toContain("The sum of the numbers.");
      const spawned = await call("vibe_spawn", { brief: `read go/main.go ${holdMarker}`, label: "held" });
      expect(spawned.isError, resultText(spawned)).toBe(false);
      await waitFor(() => model!.requests > 0, "the held worker's first request", 10_000);

      // The host's process reaper (started with the first process mark) lives as long as this
      // process, by design: it ends the run's processes should the host die without disposing.
      const started = descendants().filter((pid) => !before.has(pid) && !isReaper(pid));
      const commands = started.map(commandLine).join("\n");
      expect(started).toContain(kernelPid);
      expect(commands).toContain("debugpy");
      expect(commands).toContain("typescript-language-server");
      expect(started.length).toBeGreaterThanOrEqual(4);

      const report = await demo.dispose();
      expect(report.failed).toEqual([]);
      await waitFor(
        () => started.every((pid) => !descendants().includes(pid)),
        "every process the run started to end",
        10_000,
      );
      expect(descendants().filter((pid) => started.includes(pid))).toEqual([]);
      // Nor is anything left that carries one of this host's process marks (what left the trees).
      expect(markedByThisHost()).toEqual([]);
    },
  );
});
