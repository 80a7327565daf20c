import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ServeSession } from "../__fixtures__/cli-process.js";
import { processAlive, waitFor } from "../__fixtures__/wait-for.js";

let dir: string;
let session: ServeSession | undefined;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "harness-demo-cancel-")));
});

afterEach(async () => {
  if (session && session.child.exitCode === null && session.child.signalCode === null) await session.close();
  session = undefined;
  await rm(dir, { recursive: true, force: true });
});

describe("serve: cancelling one call", () => {
  it("a cancel line stops the call in flight with that id, which answers as cancelled; the session goes on", async () => {
    session = new ServeSession(["--workdir", dir, "--approval", "auto"]);
    session.sendLine(
      JSON.stringify({ id: 1, tool: "shell", args: { command: "echo $$ > pid; exec sleep 801" } }),
    );
    const pidFile = join(dir, "pid");
    let pid = 0;
    await waitFor(
      async () => {
        pid = Number((await readFile(pidFile, "utf8").catch(() => "")).trim());
        return pid > 0;
        // Bounded, with room for a loaded machine: serve loads every package before the first call.
      },
      "the shell call's pid file",
      30_000,
    );
    expect(processAlive(pid)).toBe(true);

    // A second request with the id still in flight is refused; the first keeps running.
    const duplicate = await session.call({ id: 1, tool: "read", args: { path: "pid" } });
    expect(duplicate).toMatchObject({ id: 1, ok: false });
    expect(duplicate["error"]).toContain("already in flight");
    expect(processAlive(pid)).toBe(true);

    session.sendLine(JSON.stringify({ id: "c", cancel: 1 }));
    expect(await session.response((response) => response["id"] === "c")).toMatchObject({ ok: true });
    const cancelled = await session.response((response) => response["id"] === 1 && response !== duplicate);
    expect(cancelled).toMatchObject({ ok: false, error: "shell was cancelled" });
    await waitFor(() => !processAlive(pid), "the cancelled command to end", 10_000);

    // An id with no call in flight is answered clearly.
    const unknown = await session.call({ id: "c2", cancel: 1 });
    expect(unknown).toMatchObject({ ok: false });
    expect(unknown["error"]).toContain("no call with id 1 is in flight");

    // The run goes on: the same id may be used again.
    session.sendLine(JSON.stringify({ id: 1, tool: "shell", args: { command: "echo again" } }));
    const again = await session.response((response) => response["id"] === 1 && response["ok"] === true);
    expect(JSON.stringify(again["content"])).toContain("again");
    expect(await session.close()).toBe(0);
    expect(session.stray).toEqual([]);
  }, 90_000);
});
