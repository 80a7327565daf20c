import { printOf } from "../client/document-sync.js";
import { readTextFile } from "../files/file-texts.js";
import type { LspSupervisor } from "../supervisor/supervisor.js";
import { splitLines } from "../positions/line-ends.js";

/**
 * Per ledger key, the lines the diagnostics of one look at a file stood on (a print of each
 * line's text, its indentation left out): once the file's text changed, what tells which of them
 * cannot have stayed (their line is gone).
 */
export type LookLines = ReadonlyMap<string, readonly string[]>;

/** Most characters of a file read for its lines (a larger one's are not known). */
const largestRead = 8 * 1024 * 1024;

/** A line's print: re-indenting it leaves it the same line. */
function linePrint(line: string): string {
  const { length, hash } = printOf(line.trim());
  return `${length}:${hash}`;
}

/**
 * The lines of `text` that `at` names (per diagnostic, its ledger key and 0-based line); one past
 * the end of `text` is left out (not known).
 */
export function lookLines(at: Iterable<readonly [key: string, line: number]>, text: string): LookLines {
  const lines = splitLines(text);
  const found = new Map<string, string[]>();
  for (const [key, line] of at) {
    const content = lines[line];
    if (content === undefined) continue;
    const prints = found.get(key);
    if (prints) prints.push(linePrint(content));
    else found.set(key, [linePrint(content)]);
  }
  return found;
}

/**
 * Where the occurrences of a key stood at an earlier look, told against a text now: what picks,
 * of several occurrences of one ledger key, those a write added (see `recordDiagnostics`).
 */
export interface EarlierLines {
  /** The prints of the lines the key's occurrences stood on at the earlier look; none if not known. */
  earlier(key: string): readonly string[] | undefined;
  /** The print of the 0-based line `line` of the text now; undefined past its end. */
  printAt(line: number): string | undefined;
}

/** {@link EarlierLines} of `look` against `text` (split once, when first asked). */
export function earlierLines(look: LookLines, text: string): EarlierLines {
  let lines: string[] | undefined;
  return {
    earlier: (key) => look.get(key),
    printAt(line) {
      lines ??= splitLines(text);
      const content = lines[line];
      return content === undefined ? undefined : linePrint(content);
    },
  };
}

/**
 * Per key, how many of a look's diagnostics stood on a line `text` no longer has (a line there
 * twice holds two): those cannot be among what the file has now. One whose line is still there
 * may have stayed, and is not counted (even if it went and came back meanwhile: not known).
 */
export function linesGone(look: LookLines, text: string): Map<string, number> {
  const present = new Map<string, number>();
  for (const line of splitLines(text)) {
    const print = linePrint(line);
    present.set(print, (present.get(print) ?? 0) + 1);
  }
  const gone = new Map<string, number>();
  for (const [key, prints] of look) {
    const used = new Map<string, number>();
    let count = 0;
    for (const print of prints) {
      const uses = (used.get(print) ?? 0) + 1;
      used.set(print, uses);
      if (uses > (present.get(print) ?? 0)) count += 1;
    }
    if (count > 0) gone.set(key, count);
  }
  return gone;
}

/**
 * The text `file`'s diagnostics are of: its running server's copy when it is open there (as last
 * synced), else the file on disk; undefined when unreadable or over 8 MB.
 */
export function checkedText(supervisor: LspSupervisor, file: string): string | undefined {
  const synced = supervisor.runningClientFor(file)?.syncedText(supervisor.uriOf(file));
  if (synced !== undefined) return synced;
  try {
    return readTextFile(file, largestRead);
  } catch {
    return undefined;
  }
}
