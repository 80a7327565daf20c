import { afterEach, describe, expect, it } from "vitest";
import { createKit, RecordingApprover, reachStatus, type Kit } from "../__fixtures__/test-kit.js";
import { createCommandBackend } from "../backends/command-backend.js";

// On a command backend (a real `sh` per worker, the brief on stdin) vibe_spawn and vibe_send are
// exec calls the operator approves on a card. A call that cannot succeed must say why at once,
// with its own error, instead of asking the operator first.
/** A command backend whose run allows one worker at a time, its cards answered by `approver`. */
function oneWorkerKit(approver: RecordingApprover): Kit {
  return createKit({
    backend: createCommandBackend({ command: ["sh"] }),
    approver,
    approval: "ask",
    maxActive: 1,
  });
}

describe("vibe_* calls that cannot succeed are refused before the operator's card", () => {
  let kit: Kit | undefined;
  afterEach(async () => {
    await kit?.cleanup();
    kit = undefined;
  });

  it("fails vibe_send and vibe_kill to an unknown worker id with UNKNOWN_WORKER, asking no one", async () => {
    // Denying: before, the model was told "denied" and never learnt that its id was wrong.
    const approver = new RecordingApprover(false);
    kit = createKit({ backend: createCommandBackend({ command: ["sh"] }), approver, approval: "ask" });

    const sent = await kit.call("vibe_send", { worker_id: "w7", message: "echo y > again.txt" });
    expect(sent.error?.code).toBe("UNKNOWN_WORKER");
    expect(sent.text).toBe(
      "no worker 'w7': no worker has been spawned in this run. Start one with vibe_spawn.",
    );
    const killed = await kit.call("vibe_kill", { worker_id: "w7" });
    expect(killed.error?.code).toBe("UNKNOWN_WORKER");
    expect(approver.requests).toEqual([]);
  });

  it("fails vibe_spawn, and vibe_send rerunning a finished worker, at the worker limit with TOO_MANY_WORKERS, asking no one", async () => {
    const approver = new RecordingApprover(true);
    kit = oneWorkerKit(approver);
    expect((await kit.call("vibe_spawn", { brief: "echo done", label: "quick" })).isError).toBe(false);
    await reachStatus(kit.list, "w1", "done");
    expect((await kit.call("vibe_spawn", { brief: "sleep 30", label: "slow" })).isError).toBe(false);
    expect(approver.requests).toHaveLength(2);

    const spawned = await kit.call("vibe_spawn", { brief: "echo more", label: "one too many" });
    expect(spawned.error?.code).toBe("TOO_MANY_WORKERS");
    expect(spawned.text).toContain(
      "no worker was started: 1 worker is queued or running, the most this run allows (1)",
    );
    const sent = await kit.call("vibe_send", { worker_id: "w1", message: "echo again" });
    expect(sent.error?.code).toBe("TOO_MANY_WORKERS");
    expect(sent.text).toContain("w1 was not rerun");
    expect(approver.requests).toHaveLength(2);
    expect(kit.list.list().map((worker) => `${worker.id} ${worker.status}`)).toEqual([
      "w1 done",
      "w2 running",
    ]);
  });

  it("checks a vibe_spawn sent together with a vibe_kill at the limit after the kill: the worker starts", async () => {
    const approver = new RecordingApprover(true);
    kit = oneWorkerKit(approver);
    expect((await kit.call("vibe_spawn", { brief: "sleep 30", label: "slow" })).isError).toBe(false);
    await reachStatus(kit.list, "w1", "running");

    // One batch from the model: the kill makes the room the spawn needs.
    const [killed, spawned] = await Promise.all([
      kit.call("vibe_kill", { worker_id: "w1" }),
      kit.call("vibe_spawn", { brief: "echo after", label: "next" }),
    ]);

    expect(killed.isError).toBe(false);
    expect(spawned.text).toMatch(/^Spawned w2 "next" \(fast\); it is running\./);
    await reachStatus(kit.list, "w2", "done");
    expect(approver.requests.map((request) => request.tool)).toEqual(["vibe_spawn", "vibe_spawn"]);
  });
});
