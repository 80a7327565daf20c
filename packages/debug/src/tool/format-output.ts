import { boundText, countNoun } from "@tools/registry";
import { limits } from "../session/limits.js";
import type { OutputRing } from "../session/output-ring.js";
import { exitTail, labelOutput } from "../session/output-text.js";

/** Lines of one `output` answer, beside {@link limits.outputChars}. */
const outputLines = 400;

/**
 * One `output` answer: the program's output from `cursor` forward (each line of a stream other
 * than stdout labelled, see {@link labelOutput}), whole lines (ring entries) up to
 * {@link limits.outputChars} characters and 400 lines, then the cursor just after the last one
 * shown and how much is left after it (or, when the newest line has no newline yet, the cursor
 * of that line, which the ring may still extend). A cursor whose output the ring already dropped
 * is told how many lines it missed; the answer starts at the oldest one kept.
 */
export function formatOutput(ring: OutputRing, cursor: number): string {
  // Every entry is a line at least (see the count below): no page holds more entries than this.
  const { entries, dropped } = ring.read(cursor, outputLines + 1);
  const texts = labelOutput(entries);
  let chars = 0;
  let lines = 0;
  let taken = 0;
  for (const text of texts) {
    // A line left open counts as one, as the bound below counts it.
    const entryLines = text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
    // Always one entry, even over the bound: a cursor must move on.
    if (taken > 0 && (chars + text.length > limits.outputChars || lines + entryLines > outputLines)) break;
    chars += text.length;
    lines += entryLines;
    taken++;
  }
  const shown = boundText(texts.slice(0, taken).join(""), {
    maxChars: limits.outputChars,
    maxLines: outputLines,
  });
  const next = taken > 0 ? entries[taken - 1]!.seq + 1 : ring.end;
  const parts: string[] = [];
  if (dropped > 0) {
    const start = entries[0]?.seq ?? ring.end;
    parts.push(
      `(${dropped} earlier output ${dropped === 1 ? "line was" : "lines were"} dropped from the buffer before this was read; it starts at cursor ${start})`,
    );
  }
  parts.push(shown.text || "(no output)");
  const left = ring.end - next;
  if (left > 0) {
    const leftChars = ring.charsFrom(next);
    parts.push(
      `(next cursor: ${next}; ${left} more ${countNoun(left, "lines")} (${leftChars} ${countNoun(leftChars, "characters")}) after it: ` +
        `read on with {"op":"output","cursor":${next}})`,
    );
  } else if (taken > 0 && !entries[taken - 1]!.text.endsWith("\n")) {
    // The newest line is still open: its rest joins the same entry, so the cursor stays on it.
    const open = entries[taken - 1]!.seq;
    parts.push(
      `(next cursor: ${open}, at the last line, which has no newline yet: reading from there shows it again with whatever follows it; no more output yet)`,
    );
  } else parts.push(`(next cursor: ${next}; no more output yet)`);
  return parts.join("\n");
}

/**
 * What the program wrote from `cursor` (where the output stood when a `continue` or step began)
 * to the exit that wait ended in: the likeliest why of the exit (a traceback, a panic, an error
 * line), its last whole lines up to about 1500 characters, after the cursor that reads it all;
 * when the program failed (`failed`: not a clean exit with code 0), stderr's last lines too if
 * later stdout pushed them out (see `exitTail`).
 */
export function formatOutputSince(ring: OutputRing, cursor: number, what: string, failed = true): string {
  const { entries, dropped } = ring.read(cursor);
  const text = labelOutput(entries).join("").replace(/\n$/, "");
  if (text === "") return `(the program wrote no output since ${what})`;
  const start = entries[0]?.seq ?? cursor;
  const lost =
    dropped > 0 ? `; ${dropped} earlier ${countNoun(dropped, "lines")} dropped from the buffer` : "";
  return `output since ${what} (read it with {"op":"output","cursor":${start}}${lost}):\n${exitTail(entries, 1500, undefined, failed)}`;
}
