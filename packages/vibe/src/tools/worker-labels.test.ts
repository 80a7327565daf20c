import { afterEach, describe, expect, it } from "vitest";
import { HeldBackend } from "../__fixtures__/held-backend.js";
import { createKit, type Kit } from "../__fixtures__/test-kit.js";

// Labels may clash (two workers on "fix tests"); a lead that passes a label where the id goes is
// told which worker carries it and to pass the id, and a spawn whose label another worker has says so.
describe("worker labels as the lead uses them", () => {
  let kit: Kit | undefined;
  afterEach(async () => {
    await kit?.cleanup();
    kit = undefined;
  });

  it("a label given as worker_id names the worker that carries it and asks for its id", async () => {
    kit = createKit({ backend: new HeldBackend() });
    await kit.call("vibe_spawn", { brief: "Fix the unit tests.", label: "fix tests" });
    await kit.call("vibe_spawn", { brief: "Update the docs.", label: "docs" });
    const waited = await kit.call("vibe_wait", { worker_id: "fix tests", timeout_seconds: 1 });
    expect(waited.error?.code).toBe("UNKNOWN_WORKER");
    expect(waited.text).toBe(
      `no worker 'fix tests': that is a label, not an id; the worker labelled so is w1 (running). Pass its id: {"worker_id": "w1"}.`,
    );
  });

  it("a clashing label: the spawn says which workers have it too, and a label given as id names them all", async () => {
    kit = createKit({ backend: new HeldBackend(), concurrency: 1 });
    await kit.call("vibe_spawn", { brief: "Fix the unit tests.", label: "fix tests" });
    const second = await kit.call("vibe_spawn", { brief: "Fix the e2e tests.", label: "fix tests" });
    expect(second.text).toContain(
      'w1 is labelled "fix tests" too: call the workers by their ids (w2 is this one).',
    );
    const killed = await kit.call("vibe_kill", { worker_id: "fix tests" });
    expect(killed.text).toBe(
      `no worker 'fix tests': that is a label, not an id; the workers labelled so are w1 (running), w2 (queued). Pass one's id: {"worker_id": "w1"}.`,
    );
    expect(kit.list.list().map((worker) => worker.status)).toEqual(["running", "queued"]);
  });
});
