import { afterEach, describe, expect, it } from "vitest";
import { HeldBackend } from "../__fixtures__/held-backend.js";
import { createKit, reachStatus, type Kit } from "../__fixtures__/test-kit.js";
import { createCommandBackend } from "../backends/command-backend.js";

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

  it("send then wait on a finished worker: the wait is for the rerun's result, not the old one", async () => {
    // "Follow up and wait for it" in one batch: the old answer read as the follow-up's.
    const backend = new HeldBackend();
    kit = createKit({ backend });
    await kit.call("vibe_spawn", { brief: "Fix the tests.", label: "fixer" });
    (await backend.attempt(0)).answer("fixed 3 tests");
    await reachStatus(kit.list, "w1", "done");
    const sending = kit.call("vibe_send", { worker_id: "w1", message: "Now the e2e tests." });
    const waiting = kit.call("vibe_wait", { worker_id: "w1", timeout_seconds: 30 });
    (await backend.attempt(1)).answer("fixed the e2e tests");
    const [sent, waited] = await Promise.all([sending, waiting]);
    expect(sent.text).toContain("it had finished, so it runs again");
    expect(waited.text).toMatch(/^w1 "fixer" \(fast\) is done after .+ Its result:\n\nfixed the e2e tests$/);
  });

  it("kill then wait: the wait answers once the kill took effect, with the killed worker", async () => {
    const backend = new HeldBackend();
    kit = createKit({ backend });
    await kit.call("vibe_spawn", { brief: "work", label: "busy" });
    await backend.attempt(0);
    const [, waited] = await Promise.all([
      kit.call("vibe_kill", { worker_id: "w1" }),
      kit.call("vibe_wait", { worker_id: "w1", timeout_seconds: 30 }),
    ]);
    expect(waited.text).toMatch(/^w1 "busy" \(fast\) was killed after .+: killed by vibe_kill/);
  });

  // On a command backend vibe_send asks the operator first: the wait waits for the card's answer.
  for (const allow of [true, false]) {
    it(`send (its card ${allow ? "approved" : "denied"}) then wait on a command worker: the wait answers with ${allow ? "the rerun's result" : "the old result, once the send was denied"}`, async () => {
      // A real `sh` standing in for an agent CLI: it answers with the brief it got.
      kit = createKit({
        backend: createCommandBackend({ command: ["sh", "-c", "tr '\\n' ' '"] }),
        // Every spawn is approved; the send as the test says.
        approver: {
          attached: () => true,
          request: (request) =>
            Promise.resolve(
              allow || request.tool === "vibe_spawn" ? { allow: true } : { allow: false, reason: "not now" },
            ),
        },
        approval: "ask",
      });
      await kit.call("vibe_spawn", { brief: "first", label: "echo" });
      await reachStatus(kit.list, "w1", "done");
      const [sent, waited] = await Promise.all([
        kit.call("vibe_send", { worker_id: "w1", message: "second" }),
        kit.call("vibe_wait", { worker_id: "w1", timeout_seconds: 30 }),
      ]);
      expect(sent.isError).toBe(!allow);
      expect(waited.text).toMatch(/^w1 "echo" \(fast\) is done after .+ Its result:\n\n/);
      expect(waited.text.endsWith(allow ? "first  second" : "first")).toBe(true);
    });
  }

  it("a wait that times out while a send's card is still open says the result is from before the send", async () => {
    // The operator has not answered the send's card (the spawn's is approved at once).
    const cards: (() => void)[] = [];
    kit = createKit({
      backend: createCommandBackend({ command: ["sh", "-c", "tr '\\n' ' '"] }),
      approver: {
        attached: () => true,
        request: (request) =>
          request.tool === "vibe_spawn"
            ? Promise.resolve({ allow: true })
            : new Promise((resolve) => cards.push(() => resolve({ allow: false, reason: "later" }))),
      },
      approval: "ask",
    });
    await kit.call("vibe_spawn", { brief: "first", label: "echo" });
    await reachStatus(kit.list, "w1", "done");
    const sending = kit.call("vibe_send", { worker_id: "w1", message: "second" });
    const waited = await kit.call("vibe_wait", { worker_id: "w1", timeout_seconds: 0.1 });
    expect(waited.text).toMatch(
      /^w1 "echo" \(fast\) is done after .+\. A vibe_send to it still waits for the operator's approval: this result is from before it\. Its result:\n\nfirst$/,
    );
    for (const answer of cards) answer();
    expect((await sending).isError).toBe(true);
  });
});
