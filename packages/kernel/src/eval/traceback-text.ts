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
  const chained = chainedText(elements, exception, chars, lines);
  if (chained !== undefined) return chained;
  const frames = cutLongLines(elements.slice(0, -1).join("\n"), chars);
  const framesChars = Math.max(0, chars - exception.length - 1);
  const framesLines = Math.max(1, lines - countLines(exception) - 1);
  // The outermost frames get a quarter of what is left, the innermost the rest.
  const shown = headAndTail(frames, framesChars, framesLines, "the traceback", 0.25);
  // Joined as the whole is: an element's own last line break, then the one between elements.
  return `${shown}\n${exception}`;
}

/** The lines IPython puts between chained exceptions, each in an element of its own. */
const chainSeparators: readonly string[] = [
  "The above exception was the direct cause of the following exception:",
  "During handling of the above exception, another exception occurred:",
];

/** One exception of a chain: its frames, then its line (and the separator after it, but the last). */
interface ChainLink {
  readonly frames: readonly string[];
  readonly exception: string;
  readonly separator?: string;
}

/**
 * The exceptions of a chained traceback, earliest first: an element that is a separator follows
 * the earlier exception's line. Undefined when there is no chain.
 */
function chainLinks(elements: readonly string[]): ChainLink[] | undefined {
  const links: ChainLink[] = [];
  let start = 0;
  elements.forEach((element, i) => {
    const before = elements[i - 1];
    if (i - 1 < start || i === elements.length - 1 || before === undefined) return;
    if (!chainSeparators.includes(element.trim())) return;
    links.push({ frames: elements.slice(start, i - 1), exception: before, separator: element });
    start = i + 1;
  });
  if (links.length === 0) return undefined;
  links.push({ frames: elements.slice(start, -1), exception: elements.at(-1) ?? "" });
  return links;
}

/**
 * A chained traceback within `chars` and `lines`: every exception's line (the last one as
 * `exception`, the earlier ones cut after their start) and the separators between them stay;
 * only frames are cut, each exception's from its middle, the budget left shared evenly between
 * them. Undefined when there is no chain, or too many links to keep them all.
 */
function chainedText(
  elements: readonly string[],
  exception: string,
  chars: number,
  lines: number,
): string | undefined {
  const links = chainLinks(elements);
  if (links === undefined) return undefined;
  const pinned = links.map((link, i) =>
    i === links.length - 1
      ? exception
      : `${startOf(link.exception, Math.max(200, Math.floor(chars / 8)), Math.max(1, Math.floor(lines / 10)))}\n${link.separator ?? ""}`,
  );
  const frames = links.map((link) => cutLongLines(link.frames.join("\n"), chars));
  // Pieces are joined by a line break each: frames, pinned, frames, pinned…
  const joins = links.length * 2 - 1;
  const framesChars = chars - pinned.reduce((sum, text) => sum + text.length, 0) - joins;
  const framesLines = lines - pinned.reduce((sum, text) => sum + countLines(text), 0) - joins;
  // Each cut frame list needs room for its marker (a line, about 100 characters) and a little more.
  if (framesChars < links.length * 300 || framesLines < links.length * 4) return undefined;
  const charShares = evenShares(
    frames.map((text) => text.length),
    framesChars,
  );
  const lineShares = evenShares(
    frames.map((text) => countLines(text)),
    framesLines,
  );
  return pinned
    .map((text, i) => {
      const shown = headAndTail(
        frames[i] ?? "",
        charShares[i] ?? 0,
        lineShares[i] ?? 0,
        "the traceback",
        0.25,
      );
      return shown === "" ? text : `${shown}\n${text}`;
    })
    .join("\n");
}

/**
 * `budget` shared between `needs`: each gets what it needs up to an even share of what the ones
 * needing less left over.
 */
function evenShares(needs: readonly number[], budget: number): number[] {
  const shares = needs.map(() => 0);
  const order = needs.map((need, index) => ({ need, index })).sort((a, b) => a.need - b.need);
  let left = budget;
  order.forEach(({ need, index }, position) => {
    const share = Math.min(need, Math.floor(left / (order.length - position)));
    shares[index] = share;
    left -= share;
  });
  return shares;
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

/** The part of a cell's characters (or lines) its error's traceback may take: half. */
export function tracebackShare(limit: number): number {
  return Math.floor(limit / 2);
}

/** The longest line a traceback of `chars` characters shows whole: an eighth of it, at least 200. */
export function longLineChars(chars: number): number {
  return Math.max(200, Math.floor(chars / 8));
}

/**
 * Lines longer than an eighth of `chars` (at least 200) cut after their start, with what was left
 * out of each said on it: a long source line or message in a frame does not crowd out the others.
 */
function cutLongLines(text: string, chars: number): string {
  const longest = longLineChars(chars);
  return text
    .split("\n")
    .map((line) =>
      line.length <= longest
        ? line
        : `${line.slice(0, longest)} … (${(line.length - longest).toLocaleString("en-US")} more characters of this line omitted)`,
    )
    .join("\n");
}
