import { afterEach, describe, expect, it } from "vitest";
import { HeldBackend } from "../__fixtures__/held-backend.js";
import { createKit, reachStatus, type Kit } from "../__fixtures__/test-kit.js";
import type { WorkerBackend } from "../backends/worker-backend.js";

describe("a worker's rights and the number of workers", () => {
  let kit: Kit | undefined;
  afterEach(async () => {
    await kit?.cleanup();
    kit = undefined;
  });

  it("a worker spawned from plan mode gets read tools only; from the main agent, every tool", async () => {
    const backend = new HeldBackend();
    kit = createKit({ backend });
    await kit.call("vibe_spawn", { brief: "look around", label: "planner" }, "plan");
    const fromPlan = await backend.attempt(0);
    const planTools = fromPlan.task.toolbox.openAiTools().map((tool) => tool.function.name);
    expect(planTools).toContain("read_note");
    expect(planTools).not.toContain("write_note");
    const write = await fromPlan.task.toolbox.call("write_note", { file: "x.txt", text: "x" });
    expect(write.isError).toBe(true);
    expect(write.text).toContain("TIER_EXCEEDED");

    await kit.call("vibe_spawn", { brief: "edit", label: "editor" });
    const fromMain = await backend.attempt(1);
    expect(fromMain.task.toolbox.openAiTools().map((tool) => tool.function.name)).toContain("write_note");
  });

  it("vibe_send from a read-only surface does not rerun a worker that may write", async () => {
    const backend = new HeldBackend();
    kit = createKit({ backend });
    await kit.call("vibe_spawn", { brief: "edit", label: "editor" });
    (await backend.attempt(0)).answer("edited");
    await reachStatus(kit.list, "w1", "done");
    const refused = await kit.call("vibe_send", { worker_id: "w1", message: "and more" }, "readonly");
    expect(refused.error?.code).toBe("WORKER_ABOVE_CAP");
    expect(refused.text).toContain(
      'w1 "editor" has exec tools, more than this caller may use (read tools only)',
    );
    expect(kit.list.get("w1").status).toBe("done");
    expect(backend.attempts).toHaveLength(1);
    // A worker spawned read-only may be re-briefed from a read-only surface.
    await kit.call("vibe_spawn", { brief: "look", label: "reader" }, "readonly");
    (await backend.attempt(1)).answer("looked");
    await reachStatus(kit.list, "w2", "done");
    const sent = await kit.call("vibe_send", { worker_id: "w2", message: "look again" }, "readonly");
    expect(sent.isError).toBe(false);
  });

  it("refuses a spawn beyond the most workers queued or running, saying what to do", async () => {
    const backend = new HeldBackend();
    kit = createKit({ backend, maxActive: 3, concurrency: 1 });
    for (const label of ["a", "b", "c"]) {
      expect((await kit.call("vibe_spawn", { brief: label, label })).isError).toBe(false);
    }
    const refused = await kit.call("vibe_spawn", { brief: "d", label: "d" });
    expect(refused.error?.code).toBe("TOO_MANY_WORKERS");
    expect(refused.text).toBe(
      "no worker was started: 3 workers are queued or running, the most this run allows (3). Wait for one to finish (vibe_wait), or vibe_kill one you no longer need, then try again.",
    );
    expect(kit.list.list()).toHaveLength(3);
    await kit.call("vibe_kill", { worker_id: "w3" });
    expect((await kit.call("vibe_spawn", { brief: "d", label: "d" })).isError).toBe(false);
  });

  it("vibe_list stays bounded with hundreds of workers and says how many it left out", async () => {
    const instant: WorkerBackend = {
      description: "answers at once (test)",
      gated: true,
      perform: () => Promise.resolve("r".repeat(400)),
    };
    kit = createKit({ backend: instant, maxActive: 1000, concurrency: 4 });
    for (let i = 0; i < 300; i++) kit.list.spawn({ brief: "b", label: `worker number ${i}` });
    await expect
      .poll(() => kit?.list.list().filter((worker) => worker.status === "done").length, { timeout: 10_000 })
      .toBe(300);
    const listed = await kit.call("vibe_list");
    expect(listed.text.length).toBeLessThan(20_000);
    expect(listed.text.split("\n")[0]).toContain("300 workers");
    expect(listed.text).toContain("… 270 older finished workers not shown (w1, w2,");
    expect(listed.text).toContain("vibe_wait with one's id gives its status and whole result");
    expect(listed.text).toContain('w300 "worker number 299"');
  });
  it("vibe_list over its 16 000 characters leaves out the oldest finished workers, never the newest or a running one", async () => {
    const backend = new HeldBackend();
    kit = createKit({ backend, concurrency: 16, maxActive: 16 });
    const label = (i: number) => `worker number ${i} `.padEnd(80, "x");
    const result = Array.from({ length: 10 }, (_, line) => `${line}`.padStart(200, "0")).join("\n");
    // 30 finished workers with long labels and results (16 at most at once)...
    for (const batch of [
      [1, 16],
      [17, 30],
    ] as const) {
      for (let i = batch[0]; i <= batch[1]; i++)
        await kit.call("vibe_spawn", { brief: "b", label: label(i) });
      for (let i = batch[0]; i <= batch[1]; i++) (await backend.attempt(i - 1)).answer(result);
      for (let i = batch[0]; i <= batch[1]; i++) await reachStatus(kit.list, `w${i}`, "done");
    }
    // ...15 of them rerun and still running, each with a long progress line, and a newest one running.
    for (let i = 1; i <= 15; i++) await kit.call("vibe_send", { worker_id: `w${i}`, message: "more" });
    await kit.call("vibe_spawn", { brief: "b", label: "the newest" });
    for (let n = 30; n < 46; n++) (await backend.attempt(n)).task.progress(`working on ${"7".repeat(250)}`);
    const listed = await kit.call("vibe_list");
    expect(listed.text.length).toBeLessThanOrEqual(16_000);
    expect(listed.text).toContain('w31 "the newest" (fast) running');
    for (let i = 1; i <= 15; i++)
      expect(listed.text).toContain(`w${i} "${label(i)}" (fast, attempt 2) running`);
    expect(listed.text).toContain(`w30 "${label(30)}" (fast) done`);
    expect(listed.text).toMatch(
      /\n… \d+ older finished workers not shown \(w16, w17, [^)]*\); vibe_wait with one's id gives its status and whole result\.$/,
    );
  });
});
