import { randomBytes } from "node:crypto";
import * as fs from "node:fs/promises";
import { join } from "node:path";
import { boundList, countNoun } from "../result/bounded-output.js";
import { readRegularFile } from "./read-regular-file.js";

// What a roll back of a dead writer's change set did, told to whoever writes next: the agent that
// wrote the set never heard back, and may take it for written. A roll back by `writeFiles`' own
// sweep is told by that call's outcome (`warnings`) when the set was written in the workspace that
// call works in; one by the reaper of a host that ended, when no writer of ours is alive to hear
// it, or by a sweep working in another workspace, is saved beside the journals and told by the
// next `writeFiles` working in the set's workspace (the first to take it; each is told once). A
// session in another project of the same user is never told of files it did not write.

/** A file a roll back did not touch. */
export interface LeftFile {
  /**
   * Its absolute path (never the writer's label, relative to a working folder: a report may
   * reach another session), or {@link wholeSet}.
   */
  readonly path: string;
  readonly reason: string;
}

/** The {@link LeftFile.path} of a set not rolled back at all (found too late, or corrupt). */
export const wholeSet = "(the whole set)";

/** What recovering one journal did. */
export interface RecoveryReport {
  /** The process that was writing the set, when its journal says (journals of earlier versions do not). */
  readonly pid: number | undefined;
  /**
   * The workspace the set was written in (its writer's working folder), when its journal says:
   * only a writer working there is told of it.
   */
  readonly workspace?: string;
  /** When the set was begun (its journal's last write), in ms since the epoch. */
  readonly begunAt: number;
  /** When it was recovered, in ms since the epoch. */
  readonly recoveredAt: number;
  /** False when the set was not rolled back (found too late, or its journal is corrupt). */
  readonly rolledBack: boolean;
  /** The files put back as they were before the set (or removed, when the set created them), by absolute path. */
  readonly restored: readonly string[];
  /** The files left as they are (or, not rolled back, why); the journal is then kept. */
  readonly left: readonly LeftFile[];
  /** Where the journal was kept for a human (`<name>.left`, beside a `.left.txt`), when it was. */
  readonly kept?: string;
}

/** Whether a report has anything to tell: a set cut off before it touched a file has not. */
export function worthTelling(report: RecoveryReport): boolean {
  return !report.rolledBack || report.restored.length > 0 || report.left.length > 0;
}

/** Most files a report names; the rest are counted. */
const namedFiles = 20;

function fileList(paths: readonly string[]): string {
  const { items, note } = boundList(paths, namedFiles, "files");
  return [...items, ...(note === "" ? [] : [note])].join(", ");
}

/**
 * A report in words, for a tool to show, naming files by absolute path and ending with what to
 * do: "rolled back a change set that process 4242 left half written when it ended (begun
 * 2026-12-06T10:58:23.000Z, rolled back …): restored 2 files: /w/a.txt, /w/b.txt; those files
 * hold their content from before that set; if that set was a change you wanted, make it again".
 */
export function describeRecovery(report: RecoveryReport): string {
  const writer = report.pid === undefined ? "a process" : `process ${report.pid}`;
  const begun = new Date(report.begunAt).toISOString();
  const kept = report.kept === undefined ? "" : `; the bytes from before the set are kept in ${report.kept}`;
  const left = report.left.map(({ path, reason }) => `${path} (${reason})`);
  if (!report.rolledBack) {
    return `found a change set that ${writer} left half written when it ended (begun ${begun}) and did not roll it back: ${left.join("; ")}${kept}; the files it was writing may hold part of it: check them before relying on them`;
  }
  const done = `rolled back a change set that ${writer} left half written when it ended (begun ${begun}, rolled back ${new Date(report.recoveredAt).toISOString()})`;
  const restored =
    report.restored.length === 0
      ? "no file needed restoring"
      : `restored ${report.restored.length} ${countNoun(report.restored.length, "files")}: ${fileList(report.restored)}`;
  const leftText =
    left.length === 0
      ? ""
      : `; left ${left.length} ${countNoun(left.length, "files")} as ${left.length === 1 ? "it is" : "they are"}: ${fileList(left)}`;
  const advice = [
    ...(report.restored.length === 0
      ? []
      : [
          `${left.length === 0 ? "those" : "the restored"} files hold their content from before that set; if that set was a change you wanted, make it again`,
        ]),
    ...(left.length === 0
      ? []
      : ["the files left as they are were changed since by someone else: check them"]),
  ];
  return `${done}: ${restored}${leftText}${kept}${advice.map((text) => `; ${text}`).join("")}`;
}

/** How a saved report's name ends (never a journal's: no sweep takes it for one). */
export const savedReportSuffix = ".recovered.json";

/** How the name of a report being saved ends: no taker reads it before its rename. */
export const unsavedReportSuffix = ".recovered.part";

/**
 * Saves reports worth telling in the journal folder `folder`, for the next `writeFiles` to tell:
 * each written whole under a name no taker reads (`<random>.recovered.part`), then renamed to
 * `<random>.recovered.json`, so that a taker never reads one half written.
 */
export async function saveRecoveryReports(folder: string, reports: readonly RecoveryReport[]): Promise<void> {
  for (const report of reports.filter(worthTelling)) {
    const name = randomBytes(6).toString("hex");
    const unsaved = join(folder, `${name}${unsavedReportSuffix}`);
    try {
      await fs.writeFile(unsaved, JSON.stringify(report), { flag: "wx", mode: 0o600 });
      await fs.rename(unsaved, join(folder, `${name}${savedReportSuffix}`));
    } catch (error) {
      await fs.unlink(unsaved).catch(() => undefined);
      throw error;
    }
  }
}

/** A saved report checked field by field; undefined when it is not one. */
function checkReport(value: unknown): RecoveryReport | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const report = value as Partial<Record<keyof RecoveryReport, unknown>>;
  const strings = (list: unknown) => Array.isArray(list) && list.every((item) => typeof item === "string");
  const ok =
    (report.pid === undefined || Number.isSafeInteger(report.pid)) &&
    (report.workspace === undefined || typeof report.workspace === "string") &&
    Number.isFinite(report.begunAt) &&
    Number.isFinite(report.recoveredAt) &&
    typeof report.rolledBack === "boolean" &&
    strings(report.restored) &&
    Array.isArray(report.left) &&
    report.left.every(
      (file: unknown) =>
        typeof file === "object" &&
        file !== null &&
        typeof (file as LeftFile).path === "string" &&
        typeof (file as LeftFile).reason === "string",
    ) &&
    (report.kept === undefined || typeof report.kept === "string");
  return ok ? (report as RecoveryReport) : undefined;
}

/** Most bytes of a saved report read (a set of many files left names them all). */
const maxReportBytes = 1 << 20;

/** A saved report's text checked; undefined when it is not a report. */
function parseReport(text: string): RecoveryReport | undefined {
  try {
    return checkReport(JSON.parse(text));
  } catch {
    return undefined;
  }
}

/**
 * Takes the reports saved in `folder` of sets written in `workspace` (each by one taker only:
 * the one whose removal of it succeeds), oldest roll back first. A report of another workspace is
 * left for a writer there (a week at most: old-leftovers.ts), and so is every report naming one
 * when `workspace` is undefined. A report that names none (saved by an earlier version, or of a
 * set whose writer's working folder was gone) is taken by any writer, as the sweep tells such a
 * set itself: no writer could ever match it. A file that is not a report is removed and passed by.
 */
export async function takeRecoveryReports(
  folder: string,
  names: readonly string[],
  workspace: string | undefined,
): Promise<RecoveryReport[]> {
  const reports: RecoveryReport[] = [];
  for (const name of names) {
    if (!name.endsWith(savedReportSuffix)) continue;
    const path = join(folder, name);
    const text = await readRegularFile(path, maxReportBytes).then(
      (bytes) => bytes.toString("utf8"),
      () => undefined,
    );
    if (text === undefined) continue;
    const report = parseReport(text);
    // Another workspace's: not this writer's to tell, nor to take from the one it belongs to.
    if (report?.workspace !== undefined && report.workspace !== workspace) continue;
    const taken = await fs.unlink(path).then(
      () => true,
      () => false,
    );
    if (taken && report !== undefined) reports.push(report);
  }
  return reports.sort((a, b) => a.recoveredAt - b.recoveredAt);
}
