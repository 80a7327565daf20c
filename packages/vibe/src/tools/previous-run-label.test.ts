import { afterEach, describe, expect, it } from "vitest";
import { HeldBackend } from "../__fixtures__/held-backend.js";
import { createKit, reachStatus, type Kit } from "../__fixtures__/test-kit.js";

// vibe_list names a re-briefed worker's result by the run that ended with it.
describe("vibe_list: the previous run's result of a re-briefed worker", () => {
  let kit: Kit | undefined;
  afterEach(async () => {
    await kit?.cleanup();
    kit = undefined;
  });

  it("vibe_list names the attempt its previous result came from after a rerun was cut short", async () => {
    const backend = new HeldBackend();
    kit = createKit({ backend });
    await kit.call("vibe_spawn", { brief: "first", label: "a" });
    (await backend.attempt(0)).answer("answer of attempt 1");
    await reachStatus(kit.list, "w1", "done");
    await kit.call("vibe_send", { worker_id: "w1", message: "second" });
    await backend.attempt(1);
    // Re-briefed again while attempt 2 runs: attempt 2 never answered.
    await kit.call("vibe_send", { worker_id: "w1", message: "third" });
    await backend.attempt(2);
    const listed = await kit.call("vibe_list");
    expect(listed.text).toContain('- w1 "a" (fast, attempt 3) running');
    expect(listed.text).toContain("result of its previous run (attempt 1): answer of attempt 1");
  });

  it("vibe_list does not call a result from a run that never started attempt 0", async () => {
    const backend = new HeldBackend();
    kit = createKit({ backend, concurrency: 1 });
    await kit.call("vibe_spawn", { brief: "busy", label: "a" });
    await kit.call("vibe_spawn", { brief: "later", label: "b" });
    await kit.call("vibe_kill", { worker_id: "w2" });
    await kit.call("vibe_send", { worker_id: "w2", message: "now" });
    const listed = await kit.call("vibe_list");
    expect(listed.text).toContain('- w2 "b" (fast) queued');
    expect(listed.text).toContain(
      "  result of its previous run (which never started): killed by vibe_kill while it was queued",
    );
    (await backend.attempt(0)).answer("done");
  });
});
