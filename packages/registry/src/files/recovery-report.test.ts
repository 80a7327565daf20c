import { watch, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, expect, it } from "vitest";
import { waitFor } from "../testing/processes.js";
import {
  describeRecovery,
  saveRecoveryReports,
  takeRecoveryReports,
  type RecoveryReport,
} from "./recovery-report.js";

let folder: string | undefined;
afterEach(() => {
  if (folder !== undefined) rmSync(folder, { recursive: true, force: true });
});

const report = (restored: string[], workspace = "/w"): RecoveryReport => ({
  pid: 4242,
  workspace,
  begunAt: Date.parse("2026-12-06T10:58:23.000Z"),
  recoveredAt: Date.parse("2026-12-06T10:58:24.000Z"),
  rolledBack: true,
  restored,
  left: [],
});

it("saves a report under a name no taker reads and renames it whole: no .recovered.json is ever written to", async () => {
  folder = mkdtempSync(join(tmpdir(), "recovery-report-"));
  // Every event on the folder's names, in order (inotify: "rename" for a name made, moved or
  // removed, "change" for a write).
  const events: string[] = [];
  const watcher = watch(folder, (type, name) => events.push(`${type} ${name ?? "?"}`));
  try {
    // Large enough to take several writes.
    const big = report(Array.from({ length: 20_000 }, (_, i) => `/w/some/folder/file-${i}.txt`));
    await saveRecoveryReports(folder, [big]);
    // Events come in order: once the sentinel's is seen, the save's have all been seen.
    writeFileSync(join(folder, "sentinel"), "");
    expect(await waitFor(() => events.some((event) => event.endsWith(" sentinel")), 5000)).toBe(true);
  } finally {
    watcher.close();
  }
  const saved = readdirSync(folder).filter((name) => name.endsWith(".recovered.json"));
  expect(saved).toHaveLength(1);
  expect(events.filter((event) => event.endsWith(".recovered.json"))).toEqual([`rename ${saved[0]}`]);
  expect(events.some((event) => event.endsWith(".recovered.part"))).toBe(true);
  expect(await takeRecoveryReports(folder, readdirSync(folder), "/w")).toEqual([
    expect.objectContaining({ restored: expect.arrayContaining(["/w/some/folder/file-19999.txt"]) }),
  ]);
});

it("takes only the reports of the taker's workspace, leaving another's for a writer there", async () => {
  folder = mkdtempSync(join(tmpdir(), "recovery-report-"));
  await saveRecoveryReports(folder, [report(["/w/a.txt"], "/w"), report(["/v/b.txt"], "/v")]);
  const names = () => readdirSync(folder!).sort();
  expect(await takeRecoveryReports(folder, names(), "/w")).toEqual([
    expect.objectContaining({ workspace: "/w", restored: ["/w/a.txt"] }),
  ]);
  // Not taken (nor removed) by a writer of another workspace, or of none (its folder is gone).
  expect(names()).toHaveLength(1);
  expect(await takeRecoveryReports(folder, names(), "/x")).toEqual([]);
  expect(await takeRecoveryReports(folder, names(), undefined)).toEqual([]);
  expect(names()).toHaveLength(1);
  // Taken by one of its own.
  expect(await takeRecoveryReports(folder, names(), "/v")).toEqual([
    expect.objectContaining({ workspace: "/v", restored: ["/v/b.txt"] }),
  ]);
  expect(names()).toEqual([]);
});

it("gives a report naming no workspace (an earlier version's, or a writer's whose folder was gone) to the next writer, as the sweep tells such a set", async () => {
  folder = mkdtempSync(join(tmpdir(), "recovery-report-"));
  await saveRecoveryReports(folder, [{ ...report(["/u/c.txt"]), workspace: undefined }]);
  const names = () => readdirSync(folder!).sort();
  // No writer's workspace can ever be the one it names: left, it would be told to no one.
  expect(await takeRecoveryReports(folder, names(), "/x")).toEqual([
    expect.objectContaining({ pid: 4242, restored: ["/u/c.txt"] }),
  ]);
  // Once.
  expect(names()).toEqual([]);
});

it("names files by absolute path and ends with what to do", () => {
  expect(describeRecovery(report(["/w/a.txt", "/w/b.txt"]))).toBe(
    "rolled back a change set that process 4242 left half written when it ended (begun 2026-12-06T10:58:23.000Z, rolled back 2026-12-06T10:58:24.000Z): restored 2 files: /w/a.txt, /w/b.txt; those files hold their content from before that set; if that set was a change you wanted, make it again",
  );
  expect(
    describeRecovery({
      ...report(["/w/a.txt"]),
      left: [{ path: "/w/c.txt", reason: "changed since" }],
      kept: "/tmp/j.left",
    }),
  ).toBe(
    "rolled back a change set that process 4242 left half written when it ended (begun 2026-12-06T10:58:23.000Z, rolled back 2026-12-06T10:58:24.000Z): restored 1 file: /w/a.txt; left 1 file as it is: /w/c.txt (changed since); the bytes from before the set are kept in /tmp/j.left; the restored files hold their content from before that set; if that set was a change you wanted, make it again; the files left as they are were changed since by someone else: check them",
  );
});
