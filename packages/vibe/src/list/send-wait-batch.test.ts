import { afterEach, describe, expect, it } from "vitest";
import { createKit, reachStatus, type Kit } from "../__fixtures__/test-kit.js";
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
});
