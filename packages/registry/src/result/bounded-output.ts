import { headOf, tailOf } from "./whole-characters.js";

/** Limits of {@link boundText}. */
export interface TextBounds {
  /**
   * Most lines kept; default 200. One line over is shown rather than cut: its note would take
   * that line's place and say less.
   */
  maxLines?: number;
  /** Most characters kept (after the line cut); default 20 000. */
  maxChars?: number;
  /** Keep the end instead of the start (logs, program output); default false. */
  keep?: "head" | "tail";
  /** Word for what is counted in the note, default "lines". */
  unit?: string;
}

/** The kept text and what was cut, so a caller can say so in its own words. */
export interface BoundedText {
  readonly text: string;
  readonly truncated: boolean;
  readonly omittedLines: number;
  readonly omittedChars: number;
}

/**
 * Cuts text to a number of lines and characters and says how much was left out:
 * `"… 120 more lines"` (or `"… 120 earlier lines"` when keeping the tail). Every package uses this
 * for output the model reads, so limits look the same everywhere.
 */
export function boundText(input: string, bounds: TextBounds = {}): BoundedText {
  const maxLines = bounds.maxLines ?? 200;
  const maxChars = bounds.maxChars ?? 20_000;
  const keepTail = bounds.keep === "tail";
  const unit = bounds.unit ?? "lines";
  const lines = input.split("\n");
  if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
  let kept = lines;
  let omittedLines = 0;
  // A note "… 1 more line" costs the line it stands for: show the line itself (the character
  // bound below still applies).
  if (lines.length > maxLines && !(lines.length === maxLines + 1 && maxLines > 0)) {
    omittedLines = lines.length - maxLines;
    kept = keepTail ? lines.slice(-maxLines) : lines.slice(0, maxLines);
  }
  let text = kept.join("\n");
  let omittedChars = 0;
  if (text.length > maxChars) {
    // Between whole characters (see headOf).
    const shown = keepTail ? tailOf(text, maxChars) : headOf(text, maxChars);
    omittedChars = text.length - shown.length;
    text = shown;
  }
  const truncated = omittedLines > 0 || omittedChars > 0;
  if (!truncated) return { text, truncated, omittedLines, omittedChars };
  const notes: string[] = [];
  if (omittedLines > 0)
    notes.push(`${omittedLines} ${keepTail ? "earlier" : "more"} ${countNoun(omittedLines, unit)}`);
  if (omittedChars > 0) notes.push(`${omittedChars} more ${countNoun(omittedChars, "characters")}`);
  const note = `… ${notes.join(", ")}`;
  return {
    text: keepTail ? `${note}\n${text}` : `${text}\n${note}`,
    truncated,
    omittedLines,
    omittedChars,
  };
}

/**
 * Keeps at most `limit` items and returns the note for the rest ("… 12 more references"), or an
 * empty note when nothing was left out.
 */
export function boundList<T>(items: readonly T[], limit: number, unit: string): { items: T[]; note: string } {
  if (items.length <= limit) return { items: [...items], note: "" };
  const left = items.length - limit;
  return { items: items.slice(0, limit), note: `… ${left} more ${countNoun(left, unit)}` };
}

/**
 * `plural` as the noun for `count` things: its singular for one ("1 more line", "1 more entry",
 * "1 more match"), as given otherwise. Regular English plurals only; a multi-word unit has its
 * last word changed ("code actions" → "code action").
 */
export function countNoun(count: number, plural: string): string {
  if (count !== 1) return plural;
  if (plural.endsWith("ies")) return `${plural.slice(0, -3)}y`;
  if (/(ch|sh|ss|x|z)es$/.test(plural)) return plural.slice(0, -2);
  // "status", "class", "analysis" are singular already.
  if (/(us|ss|is)$/.test(plural)) return plural;
  if (plural.endsWith("s")) return plural.slice(0, -1);
  return plural;
}
