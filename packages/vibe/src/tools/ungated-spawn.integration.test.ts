import { existsSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createKit, RecordingApprover, reachStatus, type Kit } from "../__fixtures__/test-kit.js";
import { createCommandBackend } from "../backends/command-backend.js";

// The command backend runs a real `sh` per worker: the brief on stdin is a shell script that
// writes a file, as an agent CLI doing its own edits would, with no call through the gate.
describe("vibe_spawn and vibe_send on an ungated (command) backend", () => {
  let kit: Kit | undefined;
  afterEach(async () => {
    await kit?.cleanup();
    kit = undefined;
  });

  it("are refused on read-capped surfaces: the brief never runs", async () => {
    const approver = new RecordingApprover(true);
    kit = createKit({ backend: createCommandBackend({ command: ["sh"] }), approver, approval: "ask" });
    for (const surface of ["readonly", "plan"]) {
      const spawned = await kit.call(
        "vibe_spawn",
        { brief: "echo x > pwned.txt", label: "innocent" },
        surface,
      );
      expect(spawned.error?.code).toBe("TIER_EXCEEDED");
      expect(spawned.text).toContain("vibe_spawn is an exec tool");
    }
    expect(kit.list.list()).toEqual([]);
    expect(existsSync(join(kit.dir, "pwned.txt"))).toBe(false);
    expect(approver.requests).toEqual([]);
  });

  it("ask the operator at exec on every call, the card saying it runs ungated and showing the brief", async () => {
    const denying = new RecordingApprover(false);
    kit = createKit({
      backend: createCommandBackend({ command: ["sh"] }),
      approver: denying,
      approval: "ask",
    });
    const denied = await kit.call("vibe_spawn", { brief: "echo x > pwned.txt", label: "innocent" });
    expect(denied.error?.code).toBe("APPROVAL_DENIED");
    expect(existsSync(join(kit.dir, "pwned.txt"))).toBe(false);
    expect(denying.requests).toHaveLength(1);
    expect(denying.requests[0]?.tier).toBe("exec");
    expect(denying.requests[0]?.summary).toContain("UNGATED");
    expect(denying.requests[0]?.summary).toContain("echo x > pwned.txt");
    await kit.cleanup();

    const allowing = new RecordingApprover(true);
    kit = createKit({
      backend: createCommandBackend({ command: ["sh"] }),
      approver: allowing,
      approval: "ask",
    });
    const spawned = await kit.call("vibe_spawn", { brief: "echo x > allowed.txt", label: "approved" });
    expect(spawned.isError).toBe(false);
    await reachStatus(kit.list, "w1", "done");
    expect(existsSync(join(kit.dir, "allowed.txt"))).toBe(true);
    const sent = await kit.call("vibe_send", { worker_id: "w1", message: "echo y > again.txt" });
    expect(sent.isError).toBe(false);
    expect(allowing.requests.map((request) => `${request.tool}:${request.tier}`)).toEqual([
      "vibe_spawn:exec",
      "vibe_send:exec",
    ]);
    expect(allowing.requests[1]?.summary).toContain("echo y > again.txt");
    const refused = await kit.call("vibe_send", { worker_id: "w1", message: "echo z > z.txt" }, "plan");
    expect(refused.error?.code).toBe("TIER_EXCEEDED");
  });
});
