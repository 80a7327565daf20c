import { createRegistry, createRun, resultText } from "@tools/registry";
import { describe, expect, it } from "vitest";
import { findBinary } from "../servers/find-binary.js";
import { createLspSupervisor } from "../supervisor/supervisor.js";
import { ci, copyFixture } from "../test-support/fixtures.js";
import { lspTool } from "./lsp-tool.js";

describe.skipIf(!findBinary("gopls", [], []).found && !ci)("progress while a server starts", () => {
  it("reports the start on the first call only", async () => {
    const fixture = copyFixture("go-project");
    const run = createRun({ workingDirectory: fixture.dir });
    createLspSupervisor(run);
    const registry = createRegistry({ tools: [lspTool] });
    const progress: { callId: string; message: string }[] = [];
    registry.on((event) => {
      if (event.type === "call-progress") progress.push({ callId: event.callId, message: event.message });
    });
    const definition = () =>
      registry.invoke(run, {
        tool: "lsp",
        args: { action: "definition", file: "main.go", line: 10, symbol: "greet" },
      });
    try {
      expect(resultText(await definition())).toContain("main.go:5:6");
      // The start is named before the server answers anything; the server's own progress and
      // log lines while it initializes follow as "gopls: …" (gopls sends none before it is up).
      expect(progress[0]?.message).toBe("starting gopls for .…");
      expect(progress.slice(1).every((entry) => entry.message.startsWith("gopls: "))).toBe(true);
      expect(new Set(progress.map((entry) => entry.callId)).size).toBe(1);
      const seen = progress.length;
      expect(resultText(await definition())).toContain("main.go:5:6");
      expect(progress).toHaveLength(seen);
    } finally {
      await run.dispose();
      fixture.remove();
    }
  });
});
