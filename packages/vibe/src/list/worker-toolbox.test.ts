import { createRegistry, createRun, defineTool, surfaces } from "@tools/registry";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defaultWorkerInstructions } from "../backends/worker-instructions.js";
import { createWorkerToolbox } from "./worker-toolbox.js";

const emojiTool = defineTool({
  name: "emoji",
  tier: "read",
  parallelSafe: true,
  description: "Prints a long line of emoji. Example: {}",
  input: z.object({}),
  execute: () => `a${"😀".repeat(15_000)}`,
});

const askUser = defineTool({
  name: "ask_user",
  tier: "read",
  parallelSafe: true,
  description: 'Asks the operator. Example: {"question": "which?"}',
  input: z.object({ question: z.string() }),
  execute: () => "the operator answered",
});

describe("a worker's toolbox", () => {
  it("has no ask_user, as its instructions say: it works from its brief and reports what it assumed", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vibe-toolbox-"));
    const registry = createRegistry({ tools: [askUser] });
    const run = createRun({ workingDirectory: dir });
    try {
      const toolbox = createWorkerToolbox(registry, run, surfaces.worker, "exec", run.signal, "worker w1");
      expect(toolbox.openAiTools()).toEqual([]);
      const called = await toolbox.call("ask_user", { question: "which?" });
      expect(called.isError).toBe(true);
      expect(called.text).toContain("ask_user is not available to a background worker");
      expect(defaultWorkerInstructions).toContain("without asking questions (you have no\nask_user)");
    } finally {
      await run.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("cuts a long tool result between characters: no half emoji goes to the model server", async () => {
    const dir = mkdtempSync(join(tmpdir(), "vibe-toolbox-"));
    const registry = createRegistry({ tools: [emojiTool] });
    const run = createRun({ workingDirectory: dir });
    try {
      const toolbox = createWorkerToolbox(registry, run, surfaces.worker, "exec", run.signal, "worker w1");
      const called = await toolbox.call("emoji", {});
      expect(called.isError).toBe(false);
      expect(called.text).toMatch(/^a😀😀/);
      expect(called.text).toContain("more characters");
      expect(called.text).not.toMatch(
        /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/,
      );
      // The note counts exactly what is not shown: the half dropped at the cut too.
      const [, body, left] = /^([^]*)\n… (\d+) more characters$/.exec(called.text) ?? [];
      expect(body).toBeDefined();
      expect((body as string).length + Number(left)).toBe(1 + 2 * 15_000);
    } finally {
      await run.dispose();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
