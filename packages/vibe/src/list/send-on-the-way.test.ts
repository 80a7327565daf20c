import { afterEach, describe, expect, it } from "vitest";
import { createRegistry, resultText } from "@tools/registry";
import { createKit, reachStatus, readNoteTool, type Kit } from "../__fixtures__/test-kit.js";
import { HeldBackend } from "../__fixtures__/held-backend.js";
import { vibeTools } from "../tools/vibe-tools.js";

describe("a vibe_wait and a vibe_send of its worker not yet in effect", () => {
  let kit: Kit | undefined;
  afterEach(async () => {
    await kit?.cleanup();
    kit = undefined;
  });

  it("vibe tools called through another registry than the workers' leave no send on the way after their call", async () => {
    // The list's registry is the one its workers call tools through; the lead's vibe_* calls go
    // through a registry of its own. A vibe_send over, a later wait answers at once.
    const backend = new HeldBackend();
    kit = createKit({ backend });
    const lead = createRegistry({ tools: [readNoteTool, ...vibeTools], approval: "auto" });
    const call = async (tool: string, args: unknown) => {
      const result = await lead.invoke(kit!.run, { tool, args });
      return { ...result, text: resultText(result) };
    };
    await call("vibe_spawn", { brief: "first", label: "a" });
    (await backend.attempt(0)).answer("first done");
    await reachStatus(kit.list, "w1", "done");
    const sent = await call("vibe_send", { worker_id: "w1", message: "second" });
    expect(sent.isError).toBe(false);
    (await backend.attempt(1)).answer("second done");
    await reachStatus(kit.list, "w1", "done");
    const waited = await call("vibe_wait", { worker_id: "w1", timeout_seconds: 2 });
    expect(waited.text).not.toContain("vibe_send");
    expect(waited.text).toMatch(/Its result:\n\nsecond done$/);
  });
});
