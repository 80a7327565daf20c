import { stateKey } from "@tools/registry";
import type { Diagnostic } from "vscode-languageserver-protocol";
import { byPosition, codeText, severityName } from "../format/diagnostics.js";
import { FileKeyedMap, FileKeyedSet } from "../files/file-keyed.js";
import { ledgerMessage } from "./ledger-message.js";
import { earlierLines, lookLines, linesGone, type EarlierLines, type LookLines } from "./look-lines.js";

/**
 * Per-run record of the diagnostics already reported: per file, (severity, code, message) → how
 * many. Position is deliberately not in the key, so a diagnostic that moved is not new; a second
 * occurrence of the same message in the same file is. A file's counts are replaced, never
 * changed in place, so a copy of the outer map keeps what it had. The run's ledger knows a file
 * by its real path, whichever path (through a symlink) it is recorded or asked by.
 */
export type DiagnosticsLedger = Map<string, ReadonlyMap<string, number>>;

/** The ledger's per-run slot. */
export const diagnosticsLedgerKey = stateKey<DiagnosticsLedger>(
  "LSP diagnostics ledger",
  // A file reached through a symlinked folder or file is one file (see `FileKeyedMap`).
  () => new FileKeyedMap(),
);

/**
 * The ledger key of one diagnostic within its file: severity, code and message, the inferred
 * types pyright prints into its messages left out (see `ledgerMessage`).
 */
function ledgerKey(diagnostic: Diagnostic): string {
  return [severityName(diagnostic), codeText(diagnostic), ledgerMessage(diagnostic)].join("\u0000");
}

/** What one check of a file found against the ledger. */
export interface LedgerDelta {
  /** Diagnostics not reported before (beyond the count already reported for their key). */
  readonly introduced: Diagnostic[];
  /** How many of the current diagnostics were reported earlier. */
  readonly stillPresent: number;
}

/**
 * Compares a file's current diagnostics with the ledger and records them. The ledger keeps, per
 * key, the count now present: a diagnostic that is fixed and later comes back is reported again.
 * Linear in the file's diagnostics, whatever the ledger holds for other files. `lines`: where
 * the file's occurrences stood at an earlier look, which picks, of a key with more occurrences
 * than recorded, those added (see {@link pickAdded}).
 */
export function recordDiagnostics(
  ledger: DiagnosticsLedger,
  file: string,
  current: readonly Diagnostic[],
  lines?: EarlierLines,
): LedgerDelta {
  const { delta, counts } = compareWithLedger(ledger, file, current, lines);
  setCounts(ledger, file, counts);
  return delta;
}

/**
 * The diagnostics of `current` beyond what `file` had in every one of `ledgers` (per key, the
 * largest count any of them holds, less those `gone` since), the ledgers left as they are.
 */
export function beyondAll(
  ledgers: readonly DiagnosticsLedger[],
  file: string,
  current: readonly Diagnostic[],
  gone: ReadonlyMap<string, number> = new Map(),
): Diagnostic[] {
  const known = new Map<string, number>();
  for (const ledger of ledgers) {
    for (const [key, count] of ledger.get(file) ?? []) known.set(key, Math.max(known.get(key) ?? 0, count));
  }
  for (const [key, count] of gone) {
    const left = (known.get(key) ?? 0) - count;
    if (left > 0) known.set(key, left);
    else known.delete(key);
  }
  return compareWithLedger(new Map([[file, known]]), file, current).delta.introduced;
}

function compareWithLedger(
  ledger: DiagnosticsLedger,
  file: string,
  current: readonly Diagnostic[],
  lines?: EarlierLines,
): { delta: LedgerDelta; counts: Map<string, number> } {
  const groups = new Map<string, Diagnostic[]>();
  for (const diagnostic of current) {
    const key = ledgerKey(diagnostic);
    const group = groups.get(key);
    if (group) group.push(diagnostic);
    else groups.set(key, [diagnostic]);
  }
  const known = ledger.get(file);
  const introduced: Diagnostic[] = [];
  let stillPresent = 0;
  const counts = new Map<string, number>();
  for (const [key, diagnostics] of groups) {
    const reported = known?.get(key) ?? 0;
    stillPresent += Math.min(reported, diagnostics.length);
    if (diagnostics.length > reported) {
      introduced.push(...pickAdded(diagnostics, diagnostics.length - reported, lines, key));
    }
    counts.set(key, diagnostics.length);
  }
  return { delta: { introduced, stillPresent }, counts };
}

/**
 * Which `added` of a key's occurrences are new, the others being those recorded before. The key
 * holds no position, so content decides: an occurrence standing on a line whose text (indentation
 * aside) one of the key's occurrences stood on at the earlier look is taken for that one, each
 * earlier line matched once (a multiset: a line there twice holds two). The new ones are those
 * left unmatched; when more are unmatched than added (a line that held one was edited too) or
 * no earlier lines are known, the last by position, as before; when fewer, the unmatched plus
 * the last matched ones. In position order.
 */
function pickAdded(
  occurrences: readonly Diagnostic[],
  added: number,
  lines: EarlierLines | undefined,
  key: string,
): Diagnostic[] {
  const sorted = byPosition(occurrences);
  const earlier = lines?.earlier(key);
  if (!lines || !earlier || earlier.length === 0) return sorted.slice(-added);
  const left = new Map<string, number>();
  for (const print of earlier) left.set(print, (left.get(print) ?? 0) + 1);
  const matched = new Set<Diagnostic>();
  for (const diagnostic of sorted) {
    const print = lines.printAt(diagnostic.range.start.line);
    const count = print === undefined ? 0 : (left.get(print) ?? 0);
    if (count === 0) continue;
    left.set(print!, count - 1);
    matched.add(diagnostic);
  }
  const unmatched = sorted.filter((diagnostic) => !matched.has(diagnostic));
  const picked = new Set(
    unmatched.length >= added
      ? unmatched.slice(-added)
      : [
          ...unmatched,
          ...sorted.filter((diagnostic) => matched.has(diagnostic)).slice(unmatched.length - added),
        ],
  );
  return sorted.filter((diagnostic) => picked.has(diagnostic));
}

/** Sets a file's counts, dropping the file when it has none. */
function setCounts(ledger: DiagnosticsLedger, file: string, counts: ReadonlyMap<string, number>): void {
  if (counts.size === 0) ledger.delete(file);
  else ledger.set(file, counts);
}

/**
 * Takes diagnostics that were recorded but not shown (over a listing's bound) back out of the
 * ledger, one occurrence each, so a later check reports them as new instead of as earlier ones.
 */
export function forgetDiagnostics(
  ledger: DiagnosticsLedger,
  file: string,
  diagnostics: readonly Diagnostic[],
): void {
  const counts = new Map(ledger.get(file));
  for (const diagnostic of diagnostics) {
    const key = ledgerKey(diagnostic);
    const left = (counts.get(key) ?? 0) - 1;
    if (left > 0) counts.set(key, left);
    else counts.delete(key);
  }
  setCounts(ledger, file, counts);
}

/**
 * Per run, the errors and warnings each file had when last looked at, shown or not: what a file
 * a write did not change is compared with, so that only what the write caused is reported, not
 * what the file had before (see `diagnosticsOnWrite`). Same keys as the ledger.
 */
export interface DiagnosticsLooks {
  readonly counts: DiagnosticsLedger;
  /** The files looked at (a clean file has no key in `counts`). */
  readonly files: Set<string>;
  /**
   * Per file not open on a server that publishes for such files (gopls), the mark of the publish
   * its last look read: a later publish is compared at the next write, whenever it came.
   */
  readonly published: Map<string, number>;
  /**
   * Per file open on its server, the server's changes mark when the look was taken (see
   * `LanguageClient.changesMark`): a look at an older mark may no longer be what the file has.
   */
  readonly marks: Map<string, number>;
  /**
   * Files open alongside a write that were not checked again after it in time, and servers
   * (language and root) whose pass after a write had not ended: what the write did to them is
   * still to be compared, so their looks are not taken again before the next write.
   */
  readonly pending: Set<string>;
  /**
   * Files looked at some time in the run, their look dropped since or not (a file deleted is
   * taken out: made again, it is a new file).
   */
  readonly everLooked: Set<string>;
  /**
   * Per file, the counts of its last look, kept when the look is dropped (`forgetLooks`): what
   * it had then predates whatever came after, even when that look no longer tells what it had
   * just before a write.
   */
  readonly lastSeen: DiagnosticsLedger;
  /**
   * Per file, the lines the diagnostics of its last look stood on (see `LookLines`), kept with
   * `lastSeen`; none when that look's text was not known, or when what was reported of the file
   * since (a bounded lsp diagnostics) is newer than the look.
   */
  readonly lastLines: Map<string, LookLines>;
}

/** Looks of a run that has looked at nothing yet. */
export function emptyDiagnosticsLooks(): DiagnosticsLooks {
  // A file reached through a symlinked folder or file is one file (see `FileKeyedMap`).
  return {
    counts: new FileKeyedMap(),
    files: new FileKeyedSet(),
    published: new FileKeyedMap(),
    marks: new FileKeyedMap(),
    pending: new FileKeyedSet(),
    everLooked: new FileKeyedSet(),
    lastSeen: new FileKeyedMap(),
    lastLines: new FileKeyedMap(),
  };
}

/** The looks' per-run slot. */
export const diagnosticsLooksKey = stateKey<DiagnosticsLooks>("LSP diagnostics looks", emptyDiagnosticsLooks);

/**
 * Records a look at a file's diagnostics, taken at its server's changes `mark` when it is open
 * there, and the lines they stood on in `text` (the text they are of; asked only when there are
 * any); returns those new since the previous look (none at the first: what a file had before
 * anyone looked is not new).
 */
export function noteLook(
  looks: DiagnosticsLooks,
  file: string,
  current: readonly Diagnostic[],
  mark?: number,
  text?: () => string | undefined,
): Diagnostic[] {
  const first = !looks.files.has(file);
  looks.files.add(file);
  looks.everLooked.add(file);
  recordDiagnostics(looks.lastSeen, file, current);
  const of = current.length > 0 ? text?.() : undefined;
  // The previous look's lines tell which occurrences of a key are new since it.
  const previous = looks.lastLines.get(file);
  const since = previous && of !== undefined ? earlierLines(previous, of) : undefined;
  if (of === undefined) looks.lastLines.delete(file);
  else {
    looks.lastLines.set(
      file,
      lookLines(
        current.map((diagnostic) => [ledgerKey(diagnostic), diagnostic.range.start.line] as const),
        of,
      ),
    );
  }
  if (mark === undefined) looks.marks.delete(file);
  else looks.marks.set(file, mark);
  looks.pending.delete(file);
  const { introduced } = recordDiagnostics(looks.counts, file, current, since);
  return first ? [] : introduced;
}

/**
 * Per key, how many of the diagnostics `file` had at its last look are known to be gone from
 * its text now (`text`, asked only when that look's lines are known): their line is no longer in
 * it (see `linesGone`). None when that look's lines or the text now are not known. A look that
 * is dropped keeps telling what predates what came after it, but not for an occurrence whose line
 * is gone since: fixed meanwhile (a change outside the tools that nothing checked), what has its
 * key now may have come back with a later write.
 */
export function goneSinceLastLook(
  looks: DiagnosticsLooks,
  file: string,
  text: () => string | undefined,
): Map<string, number> {
  const lines = looks.lastLines.get(file);
  const now = lines === undefined ? undefined : text();
  return lines === undefined || now === undefined ? new Map() : linesGone(lines, now);
}

/**
 * Forgets the looks at a file: a look that no longer tells what it had (its next check lists
 * what was neither reported nor seen before), or a file deleted (the caller also clears
 * `everLooked`, `lastSeen` and `lastLines`: made again, it is a new file).
 */
export function forgetLooks(looks: DiagnosticsLooks, file: string): void {
  looks.files.delete(file);
  looks.published.delete(file);
  looks.marks.delete(file);
  looks.pending.delete(file);
  recordDiagnostics(looks.counts, file, []);
}

/**
 * Records in the ledger what was shown of a file a write did not change: `shown` is added, what
 * is no longer present is dropped, and nothing else is (what the file had before is not reported,
 * so not recorded either). Returns how many diagnostics reported earlier are gone from it.
 */
export function recordAlongside(
  ledger: DiagnosticsLedger,
  file: string,
  current: readonly Diagnostic[],
  shown: readonly Diagnostic[],
): number {
  const present = countByKey(current);
  const added = countByKey(shown);
  const counts = new Map<string, number>();
  let gone = 0;
  for (const [key, known] of ledger.get(file) ?? []) {
    const now = present.get(key) ?? 0;
    if (known > now) gone += known - now;
    if (now > 0) counts.set(key, Math.min(known, now));
  }
  for (const [key, count] of added) {
    counts.set(key, Math.min(present.get(key) ?? 0, (counts.get(key) ?? 0) + count));
  }
  setCounts(ledger, file, counts);
  return gone;
}

function countByKey(diagnostics: readonly Diagnostic[]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const diagnostic of diagnostics) {
    const key = ledgerKey(diagnostic);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return counts;
}
