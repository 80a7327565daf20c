import { createRegistry, createRun, resultText } from "@tools/registry";
import { afterEach, describe, expect, it, vi } from "vitest";
import { findBinary } from "../servers/find-binary.js";
import { ci, copyFixture } from "../test-support/fixtures.js";
import { lspTool } from "../tools/lsp-tool.js";
import { createLspSupervisor } from "./supervisor.js";

describe.skipIf(!findBinary("clangd", [], []).found && !ci)("crash back-off against clangd", () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("restarts a server whose second crash is noticed long after it happened", async () => {
    // The clock is moved, never waited on: each crash is noticed "an hour later" by the next call.
    const realNow = Date.now.bind(Date);
    let offsetMs = 0;
    vi.spyOn(Date, "now").mockImplementation(() => realNow() + offsetMs);
    const fixture = copyFixture("c-project");
    const run = createRun({ workingDirectory: fixture.dir });
    const supervisor = createLspSupervisor(run);
    const registry = createRegistry({ tools: [lspTool] });
    const definition = async () =>
      resultText(
        await registry.invoke(run, {
          tool: "lsp",
          args: { action: "definition", file: "main.c", line: 6, symbol: "twice" },
        }),
      );
    try {
      expect(await definition()).toContain("main.c:1:12");
      const pids = [supervisor.processes()[0]?.pid];
      for (const crash of [1, 2]) {
        process.kill(-pids.at(-1)!, "SIGKILL");
        await expect.poll(() => supervisor.processes()[0]?.state, { timeout: 10_000 }).toBe("crashed");
        offsetMs += 3_600_000;
        // Before the fix the second call was refused: "failed 2 times; the next restart is allowed in 1 s".
        expect(await definition(), `call after crash ${crash}`).toContain("main.c:1:12");
        expect(supervisor.processes()[0]?.state).toBe("running");
        pids.push(supervisor.processes()[0]?.pid);
      }
      expect(new Set(pids).size).toBe(3);
    } finally {
      await run.dispose();
      fixture.remove();
    }
  });
});
