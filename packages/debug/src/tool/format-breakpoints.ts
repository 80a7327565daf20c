import type { BreakpointResult, BreakpointStore } from "../session/breakpoint-store.js";
import { limits } from "../session/limits.js";
import { displayPath, sourceLine } from "../session/source-lines.js";
import { lineRanges } from "../internal/line-ranges.js";

function resultLine(file: string, result: BreakpointResult): string {
  const moved =
    result.line !== undefined && result.line !== result.requested ? ` (placed on line ${result.line})` : "";
  const verdict = result.verified ? "verified" : "NOT verified";
  const message = result.message ? `: ${result.message}` : "";
  const text = sourceLine(file, result.line ?? result.requested);
  return `  line ${result.requested}${moved}: ${verdict}${message}${text ? `  | ${text}` : ""}`;
}

/** What was left out of a listing, counted by verdict: `12 verified, 1 NOT verified (line 40), 3 pending`. */
interface LeftOut {
  verified: number;
  unverified: number[];
  pending: number;
  /** Lines whose setting failed in the running session (cleared, or not known). */
  failed: number;
  files: Set<string>;
}

function describeLeftOut(left: LeftOut, { files }: { files: boolean }): string {
  const total = left.verified + left.unverified.length + left.pending + left.failed;
  const kinds: string[] = [];
  if (left.verified > 0) kinds.push(`${left.verified} verified`);
  if (left.unverified.length > 0) {
    const shown = left.unverified.slice(0, 10).join(", ");
    const more = left.unverified.length > 10 ? ", …" : "";
    kinds.push(
      `${left.unverified.length} NOT verified (line${left.unverified.length === 1 ? "" : "s"} ${shown}${more})`,
    );
  }
  if (left.pending > 0) kinds.push(`${left.pending} pending`);
  if (left.failed > 0) kinds.push(`${left.failed} whose setting failed`);
  const where = files ? ` in ${left.files.size} file${left.files.size === 1 ? "" : "s"}` : "";
  return `… ${total} more breakpoint${total === 1 ? "" : "s"}${where} not shown: ${kinds.join(", ")}`;
}

function leftOut(): LeftOut {
  return { verified: 0, unverified: [], pending: 0, failed: 0, files: new Set() };
}

function countResult(left: LeftOut, file: string, result: BreakpointResult): void {
  left.files.add(file);
  if (result.verified) left.verified++;
  else left.unverified.push(result.requested);
}

/**
 * One line per requested breakpoint: requested line, actual line, verified, message; at most
 * {@link limits.breakpointLines} of them, the rest counted by verdict (unverified ones by line).
 */
export function formatBreakpointResults(
  file: string,
  results: readonly BreakpointResult[],
  root: string,
): string {
  const shown = results.slice(0, limits.breakpointLines).map((result) => resultLine(file, result));
  const left = leftOut();
  for (const result of results.slice(limits.breakpointLines)) countResult(left, file, result);
  const more =
    results.length > limits.breakpointLines ? [`  ${describeLeftOut(left, { files: false })}`] : [];
  return [displayPath(file, root), ...shown, ...more].join("\n");
}

/** Paths in the order a listing shows them: `m2.py` before `m10.py`. */
const byPath = new Intl.Collator("en", { numeric: true });

/**
 * The breakpoints of a conversation, by file path then line, with the adapter's answers when a session gave them;
 * `ended`: no session runs, so those answers are labelled as the last session's. At most
 * {@link limits.breakpointLines} lines: a file's pending lines take one, an answered
 * breakpoint one; what does not fit is counted by verdict and file.
 */
export function formatBreakpointStore(
  store: BreakpointStore,
  root: string,
  { ended = false }: { ended?: boolean } = {},
): string {
  // A file whose clearing failed is said only while that session runs (the next gets none of it).
  const kept = [...store.files].filter(([, entry]) => entry.lines.length > 0 || (entry.held && !ended));
  if (kept.length === 0) return "no breakpoints";
  let budget = limits.breakpointLines;
  const parts: string[] = [];
  const left = leftOut();
  const files = kept.map(([file, entry]) => ({ file, entry, path: displayPath(file, root) }));
  files.sort((a, b) => byPath.compare(a.path, b.path));
  for (const { file, entry, path } of files) {
    if (!entry.results) {
      const lines = entry.lines.length > 0 ? entry.lines : (entry.held ?? []);
      if (budget > 0) {
        // A live session's failure to set them says what it holds; after it, they are pending again.
        const state =
          entry.failed && !ended
            ? entry.failed
            : `pending: ${entry.skipped && !ended ? entry.skipped : "sent at launch or attach"}`;
        parts.push(`${path}: lines ${lineRanges(lines)} (${state})`);
        budget--;
      } else if (entry.failed && !ended) {
        left.failed += lines.length;
        left.files.add(file);
      } else {
        left.pending += lines.length;
        left.files.add(file);
      }
      continue;
    }
    const fits = entry.results.slice(0, budget);
    for (const result of entry.results.slice(budget)) countResult(left, file, result);
    if (fits.length === 0) continue;
    budget -= fits.length;
    const header = ended
      ? `${path} (as the last session answered; sent again at the next launch or attach)`
      : path;
    parts.push([header, ...fits.map((result) => resultLine(file, result))].join("\n"));
  }
  if (left.files.size > 0) parts.push(describeLeftOut(left, { files: true }));
  return parts.join("\n");
}
