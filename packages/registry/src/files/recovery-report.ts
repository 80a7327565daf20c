import { randomBytes } from "node:crypto";
import * as fs from "node:fs/promises";
import { join } from "node:path";
import { boundList, countNoun } from "../result/bounded-output.js";
import { readRegularFile } from "./read-regular-file.js";

// What a roll back of a dead writer's change set did, told to whoever writes next: the agent that
// wrote the set never heard back, and may take it for written. A roll back by `writeFiles`' own
// sweep is told by that call's outcome (`warnings`); one by the reaper of a host that ended, when
// no writer of ours is alive to hear it, is saved beside the journals and told by the next
// `writeFiles` of any process (the first to take it; each is told once).

/** A file a roll back did not touch. */
export interface LeftFile {
  /** How the writer named it. */
  readonly label: string;
  readonly reason: string;
}

/** What recovering one journal did. */
export interface RecoveryReport {
  /** The process that was writing the set, when its journal says (journals of earlier versions do not). */
  readonly pid: number | undefined;
  /** When the set was begun (its journal's last write), in ms since the epoch. */
  readonly begunAt: number;
  /** When it was recovered, in ms since the epoch. */
  readonly recoveredAt: number;
  /** False when the set was not rolled back (found too late, or its journal is corrupt). */
  readonly rolledBack: boolean;
  /** The files put back as they were before the set (or removed, when the set created them). */
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

function fileList(labels: readonly string[]): string {
  const { items, note } = boundList(labels, namedFiles, "files");
  return [...items, ...(note === "" ? [] : [note])].join(", ");
}

/**
 * A report in words, for a tool to show: "rolled back a change set that process 4242 left half
 * written when it ended (begun 2026-12-06T10:58:23.000Z, rolled back …): restored 2 files: a.txt,
 * b.txt".
 */
export function describeRecovery(report: RecoveryReport): string {
  const writer = report.pid === undefined ? "a process" : `process ${report.pid}`;
  const begun = new Date(report.begunAt).toISOString();
  const kept = report.kept === undefined ? "" : `; the bytes from before the set are kept in ${report.kept}`;
  const left = report.left.map(({ label, reason }) => `${label} (${reason})`);
  if (!report.rolledBack) {
    return `found a change set that ${writer} left half written when it ended (begun ${begun}) and did not roll it back: ${left.join("; ")}${kept}`;
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
  return `${done}: ${restored}${leftText}${kept}`;
}

/** How a saved report's name ends (never a journal's: no sweep takes it for one). */
export const savedReportSuffix = ".recovered.json";

/** Saves reports worth telling in the journal folder `folder`, for the next `writeFiles` to tell. */
export async function saveRecoveryReports(folder: string, reports: readonly RecoveryReport[]): Promise<void> {
  for (const report of reports.filter(worthTelling)) {
    const path = join(folder, `${randomBytes(6).toString("hex")}${savedReportSuffix}`);
    await fs.writeFile(path, JSON.stringify(report), { flag: "wx", mode: 0o600 });
  }
}

/** A saved report checked field by field; undefined when it is not one. */
function checkReport(value: unknown): RecoveryReport | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const report = value as Partial<Record<keyof RecoveryReport, unknown>>;
  const strings = (list: unknown) => Array.isArray(list) && list.every((item) => typeof item === "string");
  const ok =
    (report.pid === undefined || Number.isSafeInteger(report.pid)) &&
    Number.isFinite(report.begunAt) &&
    Number.isFinite(report.recoveredAt) &&
    typeof report.rolledBack === "boolean" &&
    strings(report.restored) &&
    Array.isArray(report.left) &&
    report.left.every(
      (file: unknown) =>
        typeof file === "object" &&
        file !== null &&
        typeof (file as LeftFile).label === "string" &&
        typeof (file as LeftFile).reason === "string",
    ) &&
    (report.kept === undefined || typeof report.kept === "string");
  return ok ? (report as RecoveryReport) : undefined;
}

/** Most bytes of a saved report read (a set of many files left names them all). */
const maxReportBytes = 1 << 20;

/**
 * Takes the reports saved in `folder` (each by one taker only: the one whose removal of it
 * succeeds), oldest roll back first. A file that is not a report is removed and passed by.
 */
export async function takeRecoveryReports(
  folder: string,
  names: readonly string[],
): Promise<RecoveryReport[]> {
  const reports: RecoveryReport[] = [];
  for (const name of names) {
    if (!name.endsWith(savedReportSuffix)) continue;
    const path = join(folder, name);
    const text = await readRegularFile(path, maxReportBytes).then(
      (bytes) => bytes.toString("utf8"),
      () => undefined,
    );
    const taken = await fs.unlink(path).then(
      () => true,
      () => false,
    );
    if (text === undefined || !taken) continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      continue;
    }
    const report = checkReport(parsed);
    if (report !== undefined) reports.push(report);
  }
  return reports.sort((a, b) => a.recoveredAt - b.recoveredAt);
}
