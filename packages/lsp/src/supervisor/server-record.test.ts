import { describe, expect, it } from "vitest";
import type { ServerSpec } from "../servers/server-table.js";
import {
  checkBackoff,
  countCrash,
  resetCrashes,
  stableUptimeMs,
  type CrashedClient,
  type ServerRecord,
} from "./server-record.js";

const spec: ServerSpec = {
  language: "c",
  extensions: [".c"],
  markers: ["compile_commands.json"],
  command: "clangd",
  args: [],
};

const hour = 3_600_000;

function newRecord(): ServerRecord {
  return { key: "c\u0000/p", spec, root: "/p", crashes: 0, lastCrashAt: 0 };
}

/** A client that crashed at `crashedAt` after `uptimeMs` of uptime (0: while starting). */
function crashed(crashedAt: number | undefined, uptimeMs: number | undefined = 1000): CrashedClient {
  return { crashedAt, uptimeMs, failure: "exited on SIGKILL", stderrTail: () => "" };
}

/** The back-off error `checkBackoff` throws at `now`, or undefined when a restart is allowed. */
function refusal(record: ServerRecord, now: number): string | undefined {
  try {
    checkBackoff(record, "p", now);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

describe("crash count and back-off", () => {
  it("dates a crash when it happened, not when it was noticed", () => {
    const record = newRecord();
    const t0 = 1_000_000;
    countCrash(record, crashed(t0), undefined, t0 + 10);
    // The second crash happened an hour later, and is noticed another hour later.
    countCrash(record, crashed(t0 + hour), undefined, t0 + 2 * hour);
    expect(record.crashes).toBe(2);
    expect(record.lastCrashAt).toBe(t0 + hour);
    expect(refusal(record, t0 + 2 * hour)).toBeUndefined();
    // Right after the crash itself, the 1 s back-off still holds.
    expect(refusal(record, t0 + hour + 200)).toMatch(/failed 2 times; the next restart is allowed in 1 s/);
  });

  it("grows the back-off for crashes in quick succession, up to 30 s", () => {
    const record = newRecord();
    let now = 5_000_000;
    const waits: (string | undefined)[] = [];
    for (let crash = 1; crash <= 8; crash++) {
      now += 100;
      countCrash(record, crashed(now, 0), "exited with code 3", now + 1);
      waits.push(refusal(record, now + 1)?.match(/allowed in (\d+) s/)?.[1]);
    }
    expect(record.crashes).toBe(8);
    expect(waits).toEqual([undefined, "1", "2", "4", "8", "16", "30", "30"]);
    expect(refusal(record, now + 30_000)).toBeUndefined();
  });

  it("counts a crash after a stable run as the first again", () => {
    const record = newRecord();
    let now = 9_000_000;
    for (let crash = 1; crash <= 5; crash++) countCrash(record, crashed((now += 100)), undefined, now);
    expect(record.crashes).toBe(5);
    expect(refusal(record, now + 1)).toMatch(/failed 5 times/);
    now += stableUptimeMs + 100;
    countCrash(record, crashed(now, stableUptimeMs), undefined, now);
    expect(record.crashes).toBe(1);
    expect(refusal(record, now)).toBeUndefined();
    // Just short of a stable run, the count goes on.
    countCrash(record, crashed((now += 100), stableUptimeMs - 1), undefined, now);
    expect(record.crashes).toBe(2);
    expect(refusal(record, now)).toMatch(/A crash after 60 s of uptime counts as the first again/);
  });

  it("counts each client once, and dates a start that never marked itself crashed by now", () => {
    const record = newRecord();
    const client = crashed(undefined, undefined);
    countCrash(record, client, "did not answer initialize within 1500 ms", 42_000);
    countCrash(record, client, undefined, 43_000);
    expect(record).toMatchObject({
      crashes: 1,
      lastCrashAt: 42_000,
      lastFailure: "did not answer initialize within 1500 ms",
    });
    countCrash(record, crashed(undefined, undefined), undefined, 42_500);
    expect(record.crashes).toBe(2);
    expect(refusal(record, 43_000)).toMatch(/allowed in 1 s/);
    resetCrashes(record);
    expect(refusal(record, 43_000)).toBeUndefined();
  });
});
