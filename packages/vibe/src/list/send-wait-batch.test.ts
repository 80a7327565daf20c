import { afterEach, describe, expect, it } from "vitest";
import { createKit, reachStatus, heldSendCards, type Kit } from "../__fixtures__/test-kit.js";
import { createCommandBackend } from "../backends/command-backend.js";
import type { WorkerBackend, WorkerTask } from "../backends/worker-backend.js";

/** A backend whose attempts answer "<brief> done" when told, and take 200 ms to stop when aborted. */
class SlowStopBackend implements WorkerBackend {
  readonly description = "slow-stopping backend (test)";
  readonly gated = true;
  readonly started: { task: WorkerTask; answer: () => void }[] = [];
  perform(task: WorkerTask): Promise<string> {
    return new Promise<string>((resolve, reject) => {
      task.signal.addEventListener(
        "abort",
        () => setTimeout(() => reject(task.signal.reason as Error), 200),
        { once: true },
      );
      this.started.push({ task, answer: () => resolve(`${task.brief.replace(/\n+/g, " ")} done`) });
    });
  }
}

describe("a vibe_wait sent with a vibe_send of its worker", () => {
  let kit: Kit | undefined;
  afterEach(async () => {
    await kit?.cleanup();
    kit = undefined;
  });

  it("at the worker limit, kill + send + wait: the wait answers with the rerun's result, not the old one", async () => {
    // The send's check refuses it at first (no room), and passes once the kill before it is over.
    const backend = new SlowStopBackend();
    kit = createKit({ backend, maxActive: 1 });
    await kit.call("vibe_spawn", { brief: "first", label: "a" });
    await reachStatus(kit.list, "w1", "running");
    backend.started[0]?.answer();
    await reachStatus(kit.list, "w1", "done");
    await kit.call("vibe_spawn", { brief: "other", label: "b" });
    await reachStatus(kit.list, "w2", "running");
    const killing = kit.call("vibe_kill", { worker_id: "w2" });
    const sending = kit.call("vibe_send", { worker_id: "w1", message: "second" });
    const waiting = kit.call("vibe_wait", { worker_id: "w1", timeout_seconds: 30 });
    const sent = await sending;
    expect(sent.isError).toBe(false);
    await reachStatus(kit.list, "w1", "running");
    backend.started[2]?.answer();
    await killing;
    const waited = await waiting;
    expect(waited.text).toMatch(/Its result:\n\nfirst second done$/);
  });

  it("endWaits ends a wait that waits for a send's card", async () => {
    const { cards, approver } = heldSendCards();
    // A command worker: each vibe_send to it asks the operator (a real `sh` stands in for the CLI).
    kit = createKit({
      backend: createCommandBackend({ command: ["sh", "-c", "cat"] }),
      approver,
      approval: "ask",
    });
    await kit.call("vibe_spawn", { brief: "first", label: "a" });
    await reachStatus(kit.list, "w1", "done");
    const sending = kit.call("vibe_send", { worker_id: "w1", message: "second" });
    const waiting = kit.call("vibe_wait", { worker_id: "w1", timeout_seconds: 3 });
    await new Promise((resolve) => setImmediate(resolve));
    kit.list.endWaits("the run is ending (end of input)");
    const waited = await waiting;
    for (const answer of cards) answer(false);
    await sending;
    expect(waited.text).toContain("this wait ended early: the run is ending (end of input)");
  });

  it("a wait cancelled while it waits for a send's card is cancelled", async () => {
    const { cards, approver } = heldSendCards();
    // A command worker: each vibe_send to it asks the operator (a real `sh` stands in for the CLI).
    kit = createKit({
      backend: createCommandBackend({ command: ["sh", "-c", "cat"] }),
      approver,
      approval: "ask",
    });
    await kit.call("vibe_spawn", { brief: "first", label: "a" });
    await reachStatus(kit.list, "w1", "done");
    const sending = kit.call("vibe_send", { worker_id: "w1", message: "second" });
    await new Promise((resolve) => setImmediate(resolve));
    const controller = new AbortController();
    const waiting = kit.list.wait("w1", { timeoutMs: 3000, signal: controller.signal });
    controller.abort(new Error("the lead pressed Esc"));
    const outcome = await waiting.then(
      (value) => ({ resolved: value }),
      (error: unknown) => ({ rejected: error }),
    );
    for (const answer of cards) answer(false);
    await sending;
    expect(outcome).toHaveProperty("rejected");
  });
});
