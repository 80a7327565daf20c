import { readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { describe, expect, it } from "vitest";
import { descendantsOf, signalProcesses, type ProcessIdentity } from "@tools/registry";
import { isAlive, waitGone } from "../internal/process-tree.js";
import { startListeningAdapter } from "./adapter-process.js";
import { findOnPath } from "./find-binary.js";
import { reaperPython } from "./launch-plan.js";

const searchPath = process.env.PATH ?? "";
const python = reaperPython(searchPath);
const sleep = findOnPath("sleep", searchPath);

/** The process's command name (/proc/<pid>/comm), or "" once it is gone. */
function commandOf(pid: number): string {
  try {
    return readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  } catch {
    return "";
  }
}

describe.skipIf(process.platform !== "linux")("startListeningAdapter under the reaper shim", () => {
  it("ends the adapter itself, not only the shim, when it never prints its address", async () => {
    expect(python && sleep, "python3 and sleep must be on PATH").toBeTruthy();
    // A stand-in for a delve that never listens (a real dlv always does): `sleep`, which prints
    // nothing. It runs as the shim's child, as dlv does.
    const started = startListeningAdapter(sleep!, ["600"], tmpdir(), () => undefined, 1500, python);
    const outcome = started.then(
      () => "listening",
      (error: unknown) => String(error),
    );
    // Found with their start times: ended at the end only while still the same processes.
    let adapter: ProcessIdentity[] = [];
    try {
      // The shim (our child) and the adapter under it, found while the wait for the address runs.
      const deadline = Date.now() + 1000;
      while (adapter.length === 0 && Date.now() < deadline) {
        adapter = descendantsOf(process.pid).filter(({ pid }) => commandOf(pid) === "sleep");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect(adapter, "the adapter under the shim").toHaveLength(1);
      expect(await outcome).toContain("printed no listen address within 1500 ms");
      expect(
        await waitGone(
          adapter.map(({ pid }) => pid),
          5000,
        ),
      ).toBe(true);
    } finally {
      signalProcesses(
        adapter.filter(({ pid }) => isAlive(pid)),
        "SIGKILL",
      );
    }
  });
});
