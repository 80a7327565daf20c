import { afterEach, describe, expect, it } from "vitest";
import { createKit, reachStatus, until, type Kit } from "../__fixtures__/test-kit.js";
import { createCommandBackend } from "../backends/command-backend.js";

// What a running worker has done so far is no result: a long one cut to its start and its end
// says what was left out of it, not "of the result".
describe("a long so-far cut to its start and its end", () => {
  let kit: Kit | undefined;
  afterEach(async () => {
    await kit?.cleanup();
    kit = undefined;
  });

  // A real `sh` standing in for an agent CLI: 3000 lines of output, then it works on for good.
  const cli = "cat > /dev/null; seq 1 3000; echo 'all lines written'; sleep 1000";

  it("in a vibe_wait that timed out, says what was left out is of what it has done so far", async () => {
    kit = createKit({ backend: createCommandBackend({ command: ["sh", "-c", cli], graceMs: 200 }) });
    await kit.call("vibe_spawn", { brief: "Count.", label: "count" });
    await reachStatus(kit.list, "w1", "running");
    await until(() => kit?.list.get("w1").activity === "all lines written");
    const waited = await kit.call("vibe_wait", { worker_id: "w1", timeout_seconds: 0.1 });
    expect(waited.text).toContain("Its output so far:\n1\n2\n");
    expect(waited.text).toMatch(
      /\n… \d+ lines \(\d+ characters\) of what it has done so far left out here …\n/,
    );
    expect(waited.text).not.toContain("of the result");
    expect(waited.text).toMatch(/\n3000\nall lines written$/);
  });

  it("in vibe_kill's answer, says what was left out is of what it had done by then", async () => {
    kit = createKit({ backend: createCommandBackend({ command: ["sh", "-c", cli], graceMs: 200 }) });
    await kit.call("vibe_spawn", { brief: "Count.", label: "count" });
    await reachStatus(kit.list, "w1", "running");
    await until(() => kit?.list.get("w1").activity === "all lines written");
    const killed = await kit.call("vibe_kill", { worker_id: "w1" });
    expect(killed.text).toContain("Its output until then:\n1\n2\n");
    expect(killed.text).toMatch(
      /\n… \d+ lines \(\d+ characters\) of what it had done by then left out here …\n/,
    );
    expect(killed.text).not.toContain("of the result");
  });
});
