import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { ServeSession } from "../__fixtures__/cli-process.js";

// `serve --vibe-command sh`: each worker is a real `sh` reading its brief as a script, an agent
// CLI that edits files itself, without the registry's gate.
let dir: string | undefined;
let session: ServeSession | undefined;
afterEach(async () => {
  if (session) await session.close().catch(() => undefined);
  session = undefined;
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

const isCard = (response: Record<string, unknown>) => response["event"] === "card";
/** Whether `pid` names a live process (a zombie, reaped by nobody yet, is not). */
const alive = (pid: number) => {
  try {
    return !/^\d+ \(.*\) Z/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
};
const text = (response: Record<string, unknown>) =>
  JSON.stringify(response["content"] ?? response["error"] ?? "");

describe("serve --vibe-command (an ungated worker backend)", () => {
  it(
    "refuses vibe_spawn on read-capped surfaces and asks at exec, showing the brief, on the main one",
    { timeout: 30_000 },
    async () => {
      dir = mkdtempSync(join(tmpdir(), "serve-vibe-cmd-"));
      session = new ServeSession([
        "--workdir",
        dir,
        "--approval",
        "ask",
        "--operator",
        "jsonl",
        "--vibe-command",
        "sh",
      ]);
      const brief = "echo x > pwned.txt";
      for (const [id, surface] of [
        [1, "readonly"],
        [2, "plan"],
      ] as const) {
        const refused = await session.call({
          id,
          surface,
          tool: "vibe_spawn",
          args: { brief, label: "innocent" },
        });
        expect(refused["ok"]).toBe(false);
        expect(text(refused)).toContain("vibe_spawn is an exec tool");
      }
      expect(existsSync(join(dir, "pwned.txt"))).toBe(false);

      session.sendLine(JSON.stringify({ id: 3, tool: "vibe_spawn", args: { brief, label: "innocent" } }));
      const card = await session.response(isCard);
      expect(card["card"]).toMatchObject({ kind: "permission" });
      expect(JSON.stringify(card["card"])).toContain("UNGATED");
      expect(JSON.stringify(card["card"])).toContain(brief);
      session.sendLine(JSON.stringify({ card_id: card["card_id"], decline: true }));
      const denied = await session.response((response) => response["id"] === 3);
      expect(denied["ok"]).toBe(false);
      expect(existsSync(join(dir, "pwned.txt"))).toBe(false);

      // The worker surface offers no vibe_* (no nested fan-out).
      const nested = await session.call({ id: 4, surface: "worker", tool: "vibe_list", args: {} });
      expect(nested["ok"]).toBe(false);
      expect(text(nested)).toContain("vibe_list");
    },
  );

  it(
    "ends its run whole on a second Ctrl+C during the shutdown: a worker ignoring SIGTERM still gets its SIGKILL",
    { timeout: 30_000 },
    async () => {
      dir = mkdtempSync(join(tmpdir(), "serve-vibe-cmd-"));
      session = new ServeSession(["--workdir", dir, "--approval", "auto", "--vibe-command", "sh"]);
      const pidFile = join(dir, "worker.pid");
      const spawned = await session.call({
        id: 1,
        tool: "vibe_spawn",
        args: { brief: `trap "" TERM\necho $$ > ${pidFile}\nwhile :; do sleep 0.2; done`, label: "stubborn" },
      });
      expect(spawned["ok"]).toBe(true);
      for (let polls = 0; !existsSync(pidFile) && polls < 200; polls++)
        await new Promise((resolve) => setTimeout(resolve, 50));
      const pid = Number(readFileSync(pidFile, "utf8").trim());
      expect(pid).toBeGreaterThan(0);
      session.child.kill("SIGINT");
      // The second one lands inside the worker's 2 s grace (before: Node's default, serve died there).
      await new Promise((resolve) => setTimeout(resolve, 300));
      session.child.kill("SIGINT");
      expect(await session.waitExit(20_000)).toBe(0);
      expect(alive(pid)).toBe(false);
    },
  );

  it(
    "ends promptly at end of input with a vibe_wait in flight: the wait answers that the run is ending",
    { timeout: 30_000 },
    async () => {
      dir = mkdtempSync(join(tmpdir(), "serve-vibe-cmd-"));
      session = new ServeSession(["--workdir", dir, "--approval", "auto", "--vibe-command", "sh"]);
      const spawned = await session.call({
        id: 1,
        tool: "vibe_spawn",
        args: { brief: "sleep 60", label: "sleeper" },
      });
      expect(spawned["ok"]).toBe(true);
      session.sendLine(
        JSON.stringify({ id: 2, tool: "vibe_wait", args: { worker_id: "w1", timeout_seconds: 600 } }),
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      // Bounded: close() fails the test when serve has not exited within 15 s.
      expect(await session.close(15_000)).toBe(0);
      const waited = await session.response((response) => response["id"] === 2, 1000);
      expect(text(waited)).toContain("the run is ending (end of input)");
      // No operator attached: stdout carries responses only, no worker events.
      expect(session.responses.filter((response) => response["event"] === "worker")).toEqual([]);
    },
  );

  it(
    "--operator jsonl: the peer sees each worker start, its progress and how it ended, as worker events",
    { timeout: 30_000 },
    async () => {
      dir = mkdtempSync(join(tmpdir(), "serve-vibe-cmd-"));
      session = new ServeSession([
        "--workdir",
        dir,
        "--approval",
        "auto",
        "--operator",
        "jsonl",
        "--vibe-command",
        "sh",
      ]);
      const worker = (id: string) => (response: Record<string, unknown>) =>
        response["event"] === "worker" && response["worker_id"] === id;
      const spawned = await session.call({
        id: 1,
        tool: "vibe_spawn",
        args: { brief: "echo reading the tests; sleep 0.5; echo all 3 tests pass", label: "tester" },
      });
      expect(spawned["ok"]).toBe(true);
      const done = await session.response(
        (response) => worker("w1")(response) && response["kind"] === "done",
        20_000,
      );
      expect(done).toMatchObject({ status: "done", attempt: 1, label: "tester", tier: "fast" });
      expect(done["result"]).toContain("all 3 tests pass");
      expect(done["text"]).toMatch(
        /^worker w1 "tester" \(fast\) is done after \d+\.\d s: reading the tests …$/,
      );
      const events = session.responses.filter(worker("w1"));
      expect(events.map((event) => event["kind"])).toEqual(["started", "progress", "progress", "done"]);
      expect(events[0]?.["text"]).toBe('worker w1 "tester" (fast) started');
      expect(events[1]).toMatchObject({ activity: "reading the tests", awaiting_approval: false });
      expect(events[2]).toMatchObject({ activity: "all 3 tests pass" });

      await session.call({
        id: 2,
        tool: "vibe_spawn",
        args: { brief: "echo no such file >&2; exit 3", label: "broken" },
      });
      const failed = await session.response(
        (response) => worker("w2")(response) && response["kind"] === "failed",
        20_000,
      );
      expect(failed["result"]).toContain("no such file");
      expect(failed["text"]).toMatch(/^worker w2 "broken" \(fast\) failed after \d+\.\d s: /);

      await session.call({
        id: 3,
        tool: "vibe_spawn",
        args: { brief: "echo working; sleep 60", label: "slow" },
      });
      await session.response((response) => worker("w3")(response) && response["kind"] === "progress", 20_000);
      const killed = await session.call({ id: 4, tool: "vibe_kill", args: { worker_id: "w3" } });
      expect(killed["ok"]).toBe(true);
      const ended = await session.response(
        (response) => worker("w3")(response) && response["kind"] === "killed",
      );
      expect(ended["text"]).toMatch(/^worker w3 "slow" \(fast\) killed after /);
      expect(session.stray).toEqual([]);
    },
  );
});
