import { afterEach, describe, expect, it } from "vitest";
import { HeldBackend } from "../__fixtures__/held-backend.js";
import { createKit, reachStatus, type Kit } from "../__fixtures__/test-kit.js";

// The model sends both calls in one batch: they arrive together and take effect in that order.
describe("vibe_kill and vibe_send on one worker in the same batch", () => {
  let kit: Kit | undefined;
  afterEach(async () => {
    await kit?.cleanup();
    kit = undefined;
  });

  it("kill then send: the kill is done, then the re-brief starts it again, and both say so", async () => {
    const backend = new HeldBackend();
    kit = createKit({ backend });
    await kit.call("vibe_spawn", { brief: "work", label: "busy" });
    await backend.attempt(0);
    const [killed, sent] = await Promise.all([
      kit.call("vibe_kill", { worker_id: "w1" }),
      kit.call("vibe_send", { worker_id: "w1", message: "start over" }),
    ]);
    expect(killed.text).toBe('Killed w1 "busy"; it and everything it started have stopped.');
    expect(sent.text).toBe(
      'Added to w1 "busy"\'s brief; it had been killed, so it runs again (now running). vibe_wait w1 for the new result.',
    );
    const second = await backend.attempt(1);
    expect(second.task.brief).toBe("work\n\nstart over");
    expect(kit.list.get("w1").status).toBe("running");
    second.answer("done over");
    await reachStatus(kit.list, "w1", "done");
  });

  it("send then kill: the rerun is what gets killed, and the worker's result says it was killed", async () => {
    const backend = new HeldBackend();
    kit = createKit({ backend });
    await kit.call("vibe_spawn", { brief: "work", label: "busy" });
    await backend.attempt(0);
    const [sent, killed] = await Promise.all([
      kit.call("vibe_send", { worker_id: "w1", message: "more" }),
      kit.call("vibe_kill", { worker_id: "w1" }),
    ]);
    expect(sent.text).toContain("its run in progress was cancelled and it starts over");
    expect(killed.text).toBe('Killed w1 "busy"; it and everything it started have stopped.');
    const worker = kit.list.get("w1");
    expect(worker.status).toBe("killed");
    expect(worker.lastResult).toContain("killed by vibe_kill");
    expect(worker.lastResult).not.toContain("re-briefed");
    const waited = await kit.call("vibe_wait", { worker_id: "w1" });
    expect(waited.text).toMatch(/^w1 "busy" \(fast\) was killed after .+: killed by vibe_kill/);
  });
});
