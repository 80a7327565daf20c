import { countLines, describeOmitted, headAndTail, headLength } from "./cut-text.js";
import { plainText } from "./output-text.js";

/** An error output as a kernel sends it. */
export interface ErrorOutput {
  readonly ename: string;
  readonly evalue: string;
  readonly traceback: readonly string[];
}

/**
 * An error's traceback as text within `chars` characters and `lines` line breaks. What says what
 * went wrong is kept first: the exception line (its type and the start of its message; a message
 * too long is cut after its start, never before it) and the innermost frames, where it was
 * raised; a deep traceback loses frames from its middle, keeping a few outermost ones (where the
 * cell called in). The exception line is found where Python puts it, last (`ValueError: …`); a
 * traceback of another form (JavaScript's stack, the message first) keeps its start and its end.
 */
export function tracebackText(error: ErrorOutput, chars: number, lines: number): string {
  const elements = error.traceback.map(plainText);
  const whole = elements.length > 0 ? elements.join("\n") : plainText(`${error.ename}: ${error.evalue}`);
  if (whole.length <= chars && countLines(whole) <= lines) return whole;
  const last = elements.at(-1) ?? "";
  if (elements.length < 2 || !startsWithName(last, error.ename)) {
    return headAndTail(cutLongLines(whole, chars), chars, lines, "the traceback");
  }
  // The exception takes up to half of the budget, from its start.
  const exception = startOf(last, Math.floor(chars / 2), Math.max(1, Math.floor(lines / 2)));
  const frames = cutLongLines(elements.slice(0, -1).join("\n"), chars);
  const framesChars = Math.max(0, chars - exception.length - 1);
  const framesLines = Math.max(1, lines - countLines(exception) - 1);
  // The outermost frames get a quarter of what is left, the innermost the rest.
  const shown = headAndTail(frames, framesChars, framesLines, "the traceback", 0.25);
  // Joined as the whole is: an element's own last line break, then the one between elements.
  return `${shown}\n${exception}`;
}

/** True when `text` is the exception line of `ename`: `ValueError: …`, or the name alone. */
function startsWithName(text: string, ename: string): boolean {
  if (ename === "" || !text.startsWith(ename)) return false;
  const next = text.charAt(ename.length);
  return next === "" || next === ":" || next === "\n";
}

/** The start of `text` within `chars` and `lines`, a last line saying what was left out of it. */
function startOf(text: string, chars: number, lines: number): string {
  if (text.length <= chars && countLines(text) <= lines) return text;
  const marker = (omitted: string) =>
    `… ${describeOmitted(omitted.length, countLines(omitted))} of the message omitted here …`;
  // The marker's line and up to about 100 characters come out of the budget.
  const kept = text.slice(0, headLength(text, Math.max(0, chars - 100), Math.max(0, lines - 1)));
  const shown = kept === "" ? text.slice(0, Math.max(0, chars - 100)) : kept;
  const omitted = text.slice(shown.length);
  return `${shown}${shown.endsWith("\n") ? "" : "\n"}${marker(omitted)}`;
}

/**
 * Lines longer than an eighth of `chars` (at least 200) cut after their start, with what was left
 * out of each said on it: a long source line or message in a frame does not crowd out the others.
 */
function cutLongLines(text: string, chars: number): string {
  const longest = Math.max(200, Math.floor(chars / 8));
  return text
    .split("\n")
    .map((line) =>
      line.length <= longest
        ? line
        : `${line.slice(0, longest)} … (${(line.length - longest).toLocaleString("en-US")} more characters of this line omitted)`,
    )
    .join("\n");
}
