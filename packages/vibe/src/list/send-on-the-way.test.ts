import { afterEach, describe, expect, it } from "vitest";
import { createRegistry, resultText } from "@tools/registry";
import {
  createKit,
  reachStatus,
  readNoteTool,
  until,
  heldSendCards,
  type Kit,
} from "../__fixtures__/test-kit.js";
import { HeldBackend } from "../__fixtures__/held-backend.js";
import { createCommandBackend } from "../backends/command-backend.js";
import { vibeTools } from "../tools/vibe-tools.js";

describe("a vibe_wait and a vibe_send of its worker not yet in effect", () => {
  let kit: Kit | undefined;
  afterEach(async () => {
    await kit?.cleanup();
    kit = undefined;
  });

  it("a wait that times out while the send's card is open says the send waits for approval, as what it has done so far is of its run from before it", async () => {
    const { cards, approver } = heldSendCards();
    const cli = "cat > /dev/null; echo 'step one of the old brief'; sleep 1000";
    kit = createKit({
      backend: createCommandBackend({ command: ["sh", "-c", cli], graceMs: 200 }),
      approver,
      approval: "ask",
    });
    await kit.call("vibe_spawn", { brief: "first", label: "a" });
    await reachStatus(kit.list, "w1", "running");
    await until(() => kit?.list.get("w1").activity === "step one of the old brief");
    const sending = kit.call("vibe_send", { worker_id: "w1", message: "second" });
    const waited = await kit.call("vibe_wait", { worker_id: "w1", timeout_seconds: 1 });
    for (const answer of cards) answer(false);
    await sending;
    expect(waited.text).toContain("is still running: only this wait ended");
    expect(waited.text).toContain("A vibe_send to it still waits for the operator's approval");
  });

  it("a send refused at first that waits for the caller's earlier calls has no card open: the wait does not say it has", async () => {
    // Approval is automatic: no card is ever opened. The send, refused at first (no room), is
    // checked again once the caller's earlier vibe_wait (of w2) is over.
    const backend = new HeldBackend();
    kit = createKit({ backend, maxActive: 1 });
    await kit.call("vibe_spawn", { brief: "first", label: "a" });
    (await backend.attempt(0)).answer("first done");
    await reachStatus(kit.list, "w1", "done");
    await kit.call("vibe_spawn", { brief: "other", label: "b" });
    await backend.attempt(1);
    const waitingOther = kit.call("vibe_wait", { worker_id: "w2", timeout_seconds: 3 });
    const sending = kit.call("vibe_send", { worker_id: "w1", message: "second" });
    const waited = await kit.call("vibe_wait", { worker_id: "w1", timeout_seconds: 1 });
    (await backend.attempt(1)).answer("other done");
    await waitingOther;
    await sending;
    expect(waited.text).toContain("first done");
    expect(waited.text).not.toContain("approval");
    expect(waited.text).toContain(
      "A vibe_send to it has not taken effect yet: this result is from before it",
    );
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
