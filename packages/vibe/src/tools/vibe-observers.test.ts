import { getEventListeners } from "node:events";
import type { ApprovalDecision, ApprovalRequest, Approver } from "@tools/registry";
import { afterEach, describe, expect, it } from "vitest";
import { HeldBackend } from "../__fixtures__/held-backend.js";
import { createKit, reachStatus, type Kit } from "../__fixtures__/test-kit.js";
import { createCommandBackend } from "../backends/command-backend.js";

/** An operator who has not answered yet: every card stays open until the test answers it. */
class OpenCards implements Approver {
  readonly open: { request: ApprovalRequest; answer: (decision: ApprovalDecision) => void }[] = [];
  attached(): boolean {
    return true;
  }
  request(request: ApprovalRequest): Promise<ApprovalDecision> {
    return new Promise((resolve) => this.open.push({ request, answer: resolve }));
  }
}

describe("watching workers: vibe_list and vibe_wait", () => {
  let kit: Kit | undefined;
  afterEach(async () => {
    await kit?.cleanup();
    kit = undefined;
  });

  it("show a worker whose call waits on a card as waiting for the operator's approval", async () => {
    const backend = new HeldBackend();
    const cards = new OpenCards();
    kit = createKit({ backend, approver: cards });
    await kit.call("vibe_spawn", { brief: "write it", label: "writer" });
    const attempt = await backend.attempt(0);
    attempt.task.progress("turn 1: calling write_note");
    const writing = attempt.task.toolbox.call("write_note", { file: "out.txt", text: "x" });
    await expect.poll(() => cards.open.length).toBe(1);
    const listed = await kit.call("vibe_list");
    expect(listed.text).toContain("turn 1: calling write_note; waiting for the operator's approval");
    const waited = await kit.call("vibe_wait", { worker_id: "w1", timeout_seconds: 0.05 });
    expect(waited.text).toContain(
      'w1 "writer" (fast) is waiting for the operator\'s approval: only this wait ended',
    );
    cards.open[0]?.answer({ allow: true });
    expect((await writing).isError).toBe(false);
    expect((await kit.call("vibe_list")).text).not.toContain("waiting for the operator's approval");
    attempt.answer("wrote it");
  });

  it("vibe_list shows a re-briefed worker's earlier result as its previous run's, not as its last result", async () => {
    // A real `sh` standing in for an agent CLI: its first run finishes, its rerun works on.
    const cli =
      'brief=$(cat); case "$brief" in *again*) echo "second run working"; sleep 1000;; *) echo "first run: 3 tests fixed";; esac';
    kit = createKit({ backend: createCommandBackend({ command: ["sh", "-c", cli], graceMs: 200 }) });
    await kit.call("vibe_spawn", { brief: "Fix the tests.", label: "fixer" });
    await reachStatus(kit.list, "w1", "done");
    expect((await kit.call("vibe_list")).text).toContain("  last result: first run: 3 tests fixed");

    await kit.call("vibe_send", { worker_id: "w1", message: "Do it again for the e2e tests." });
    await reachStatus(kit.list, "w1", "running");
    const listed = await kit.call("vibe_list");
    expect(listed.text).toContain('- w1 "fixer" (fast, attempt 2) running');
    expect(listed.text).not.toContain("last result:");
    expect(listed.text).toContain("  result of its previous run (attempt 1): first run: 3 tests fixed");
  });

  it("endWaits answers a wait in flight at once: the run is ending", async () => {
    const backend = new HeldBackend();
    kit = createKit({ backend });
    await kit.call("vibe_spawn", { brief: "slow", label: "slow" });
    await backend.attempt(0);
    const started = Date.now();
    const waiting = kit.call("vibe_wait", { worker_id: "w1", timeout_seconds: 600 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    kit.list.endWaits("the run is ending (end of input)");
    const waited = await waiting;
    expect(Date.now() - started).toBeLessThan(5000);
    expect(waited.text).toBe(
      'w1 "slow" (fast) is running, but this wait ended early: the run is ending (end of input). The worker ends with the run.',
    );
  });

  it("eleven waits in flight leave no listener on the run's signal once answered, and no MaxListenersExceededWarning", async () => {
    const backend = new HeldBackend();
    const current = createKit({ backend });
    kit = current;
    await current.call("vibe_spawn", { brief: "slow", label: "slow" });
    const attempt = await backend.attempt(0);
    const warnings: Error[] = [];
    const onWarning = (warning: Error): void => {
      warnings.push(warning);
    };
    process.on("warning", onWarning);
    const before = getEventListeners(current.run.signal, "abort").length;
    try {
      const waits = Array.from({ length: 11 }, () => current.call("vibe_wait", { worker_id: "w1" }));
      await new Promise((resolve) => setTimeout(resolve, 20));
      // One tie per call in flight (the registry's), none of the waits' own listeners.
      expect(getEventListeners(current.run.signal, "abort").length).toBe(before + 11);
      attempt.answer("done");
      for (const waited of await Promise.all(waits)) expect(waited.text).toContain("is done");
      await new Promise((resolve) => setImmediate(resolve));
      expect(getEventListeners(current.run.signal, "abort").length).toBe(before);
      expect(warnings.filter((warning) => warning.name === "MaxListenersExceededWarning")).toEqual([]);
    } finally {
      process.off("warning", onWarning);
    }
  });

  it("a worker command that does not exist: no retry advice, the configuration must be fixed", async () => {
    kit = createKit({ backend: createCommandBackend({ command: ["/no/such/prog"] }) });
    await kit.call("vibe_spawn", { brief: "anything", label: "ghost" });
    await reachStatus(kit.list, "w1", "failed");
    const waited = await kit.call("vibe_wait", { worker_id: "w1" });
    expect(waited.text).toContain("the command was not found");
    expect(waited.text).toContain("A retry cannot help");
    expect(waited.text).not.toContain("to retry with more guidance");
    // A rerun anyway (the operator may have installed it meanwhile) is told what to expect.
    const sent = await kit.call("vibe_send", { worker_id: "w1", message: "Try again." });
    expect(sent.text).toContain(
      "Its last run failed in its set-up, not in the task: it runs with the same worker configuration, so unless that was fixed since (tell the operator), it fails the same way.",
    );
    await reachStatus(kit.list, "w1", "failed");
    const again = await kit.call("vibe_send", { worker_id: "w1", message: "Once more." });
    expect(again.text).toContain("fails the same way");
  });

  it("a rerun of a worker whose task failed carries no set-up warning", async () => {
    const backend = new HeldBackend();
    kit = createKit({ backend });
    await kit.call("vibe_spawn", { brief: "work", label: "worker" });
    (await backend.attempt(0)).fail("the tests still fail");
    await reachStatus(kit.list, "w1", "failed");
    const sent = await kit.call("vibe_send", { worker_id: "w1", message: "Fix the tests." });
    expect(sent.text).toContain("it had failed, so it runs again");
    expect(sent.text).not.toContain("set-up");
  });
});
