import { countNoun } from "@tools/registry";
import { withoutDebuggerFrames } from "./adapter-frames.js";
import { sourceLine } from "./source-lines.js";
import type { OutputEntry } from "./output-ring.js";

/**
 * The text of output entries as a reader sees them, one string per entry: each line of a
 * stream other than stdout starts with its label (`[stderr] `), and a line another stream left
 * open is ended first, so that a label never lands inside a line (the newline that then ends
 * the interrupted line, when it comes alone, is not repeated as a blank line). A blank line of
 * such a stream is labelled too (`[stderr]`, without the space). The first entry is taken to
 * start a line.
 */
export function labelOutput(entries: readonly Pick<OutputEntry, "category" | "text">[]): string[] {
  // The stream whose line is open (its last text did not end with a newline), if any.
  let open: string | undefined;
  // The streams whose open line another stream ended, with the newline inserted above: each
  // until its own next text (both can be: stdout's newline may end stderr's open line in turn).
  const interrupted = new Set<string>();
  return entries.map(({ category, text }) => {
    let out = "";
    if (open !== undefined && open !== category) {
      out += "\n";
      interrupted.add(open);
      open = undefined;
    }
    let pieces = text.split(/(?<=\n)/);
    if (interrupted.delete(category)) {
      // The newline that ends the interrupted line (print writes it apart) was given already.
      if (pieces[0] === "\n" || pieces[0] === "\r\n") pieces = pieces.slice(1);
    }
    for (const piece of pieces) {
      if (open === undefined && category !== "stdout")
        out += /^\r?\n$/.test(piece) ? `[${category}]` : `[${category}] `;
      out += piece;
      open = piece.endsWith("\n") ? undefined : category;
    }
    return out;
  });
}

/**
 * The end of `text` in whole lines, at most about `maxChars` characters: the line the cut would
 * fall inside is left out, and a first line saying how many earlier lines were left out (and
 * `hint`, where to read them) takes its place; a line that starts exactly at the bound is
 * kept. A last line longer than `maxChars` alone is cut at its start, marked with "…".
 * `moreLines`, when `text` has lines standing for several (see {@link withoutDebuggerFrames}),
 * tells how many more lines than it has its first `chars` characters stand for.
 */
export function lastLines(
  text: string,
  maxChars: number,
  hint?: string,
  moreLines?: (chars: number) => number,
): string {
  if (text.length <= maxChars) return text;
  const cut = text.length - maxChars;
  // The first line that starts inside the window, or at its start (after the newline just before it).
  const lineStart = text.indexOf("\n", cut - 1) + 1;
  const whole = lineStart > 0 && lineStart < text.length;
  const kept = whole ? text.slice(lineStart) : `…${text.slice(cut)}`;
  const dropped = text.slice(0, whole ? lineStart : cut);
  const lines = dropped.split("\n").length - 1 + (moreLines?.(dropped.length) ?? 0);
  const what = lines > 0 ? `${lines} earlier ${countNoun(lines, "lines")}` : "the line's start";
  const note = `(${what} left out${hint ? `; ${hint}` : ""})`;
  return `${note}\n${kept}`;
}

/** At most this many characters of an exit report's output go to stderr's own last lines. */
const stderrShare = 600;

/** The line before stderr's own last lines in {@link exitTail}. */
const stderrHeading = "(the program's last lines on stderr, written before the lines above:)";

/** The line in place of the debugger's frames a traceback's tail leaves out. */
function debuggerFramesNote(count: number): string {
  return `  … ${count} debugger ${countNoun(count, "frames")} left out (op 'output' shows them)`;
}

/**
 * The end of `output` for a report of how the program ended, without the debugger's own frames
 * in its Python tracebacks (a line says how many went, see {@link withoutDebuggerFrames}; op
 * `output` reads them): its last whole lines,
 * about `maxChars` characters (see {@link lastLines}, `hint` where to read the rest), labelled as
 * `output` labels them, without the final newline. When the program failed (`failed`: not a
 * clean exit with code 0) and stdout written after its last stderr line pushed that line out of
 * them (a traceback or an error line, then a cleanup that logs), stderr's own last lines follow
 * within the same bound, at most {@link stderrShare} characters of it.
 */
export function exitTail(
  output: readonly Pick<OutputEntry, "category" | "text">[],
  maxChars: number,
  hint?: string,
  failed = true,
): string {
  const entries = withoutDebuggerFrames(output, debuggerFramesNote, sourceLine);
  const labelled = labelOutput(entries);
  const text = labelled.join("").replace(/\n$/, "");
  const more = notedLines(entries, labelled);
  const lastStderr = entries.findLastIndex((entry) => entry.category === "stderr");
  if (!failed || text.length <= maxChars || lastStderr < 0) return lastLines(text, maxChars, hint, more);
  // Where the last stderr entry starts, and where the tail's first whole line would start.
  const stderrAt = labelled.slice(0, lastStderr).join("").length;
  const shownFrom = text.indexOf("\n", text.length - maxChars - 1) + 1;
  if (shownFrom > 0 && stderrAt >= shownFrom) return lastLines(text, maxChars, hint, more);
  const stderrEntries = entries.filter((entry) => entry.category === "stderr");
  const stderrLabelled = labelOutput(stderrEntries);
  const stderr = stderrLabelled.join("").replace(/\n$/, "");
  const reason = lastLines(
    stderr,
    Math.min(stderrShare, Math.floor(maxChars / 2)),
    undefined,
    notedLines(stderrEntries, stderrLabelled),
  );
  const rest = Math.max(0, maxChars - reason.length - stderrHeading.length - 2);
  return `${lastLines(text, rest, hint, more)}\n${stderrHeading}\n${reason}`;
}

/**
 * For {@link lastLines}: how many more lines of the output than their own the first `chars`
 * characters of `labelled` (the text of `entries`) stand for, a note of left-out frames counting
 * as the lines it replaced, so that "N earlier lines left out" counts what op `output` shows.
 */
function notedLines(
  entries: readonly { readonly text: string; readonly replaces?: number }[],
  labelled: readonly string[],
): ((chars: number) => number) | undefined {
  // Where each note's line ends (it ends with its newline), and how many lines more it counts.
  const notes: { end: number; more: number }[] = [];
  let end = 0;
  entries.forEach((entry, index) => {
    end += labelled[index]!.length;
    if (entry.replaces !== undefined) notes.push({ end, more: entry.replaces - 1 });
  });
  if (notes.length === 0) return undefined;
  return (chars) => notes.reduce((sum, note) => sum + (note.end <= chars ? note.more : 0), 0);
}
