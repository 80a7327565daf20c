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
  // The exception takes up to half of the budget, from its start; an ExceptionGroup with its
  // sub-exceptions up to three quarters, each sub-exception's header and line kept.
  const exception =
    groupText(last, Math.floor(chars * 0.75), Math.max(1, Math.floor(lines * 0.75))) ??
    startOf(last, Math.floor(chars / 2), Math.max(1, Math.floor(lines / 2)));
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
  const pinned = links.map((link, i) => {
    if (i === links.length - 1) return exception;
    const [linkChars, linkLines] = [
      Math.max(200, Math.floor(chars / 8)),
      Math.max(1, Math.floor(lines / 10)),
    ];
    const shown =
      groupText(link.exception, linkChars, linkLines) ?? startOf(link.exception, linkChars, linkLines);
    return `${shown}\n${link.separator ?? ""}`;
  });
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
    .map((line) => cutLine(line, longest))
    .join("\n");
}

/** The note a cut line ends with; the kernel cuts a sub-exception's long message with it too. */
const cutNote = /^([\s\S]*) … \(([\d,]+) more characters of (this line|the message) omitted\)$/;

/**
 * `line` cut after `room` characters, saying how many were left out. A line already cut (by the
 * kernel) is cut again before its note, the count adding up; one whose start fits is left as it is.
 */
function cutLine(line: string, room: number): string {
  if (line.length <= room) return line;
  const cut = cutNote.exec(line);
  const body = cut?.[1] ?? line;
  if (body.length <= room && cut !== null) return line;
  const before = cut === null ? 0 : Number((cut[2] ?? "0").replaceAll(",", ""));
  const omitted = (body.length - room + before).toLocaleString("en-US");
  return `${body.slice(0, room)} … (${omitted} more characters of ${cut?.[3] ?? "this line"} omitted)`;
}

/** The line the kernel puts before each sub-exception of an ExceptionGroup. */
const subExceptionHeader = /^\+-+ sub-exception \d+ of \d+ -+$/;

/** The kernel's lines after a group's last sub-exception shown: what it left out. */
const groupEnd = /^… (and \d+ more sub-exceptions?|its \d+ sub-exceptions? not shown \(.*\))$/;

/** How many sub-exceptions a kernel's line after a group's last one shown says it left out. */
function keptOut(row: string): number {
  if (!groupEnd.test(row)) return 0;
  return Number(/^… (?:and|its) (\d+)/.exec(row)?.[1] ?? 0);
}

/** One sub-exception of a group's text: its header line, its frames, its exception line(s). */
interface SubException {
  readonly header: string;
  readonly frames: readonly string[];
  /** The exception line and the message's other lines, then blank lines and a group's end lines. */
  readonly message: readonly string[];
  readonly end: readonly string[];
}

/** Where a sub-exception's exception line is among the lines after its header. */
function exceptionRow(body: readonly string[]): number {
  // IPython's verbose traceback: "ValueError    Traceback (most recent call last)", frames, then
  // "ValueError: …" (a chain has one such header per exception; the last is the one raised).
  for (let i = body.length - 1; i >= 0; i--) {
    const name = /^(\S+) +Traceback \(most recent call last\)$/.exec(body[i] ?? "")?.[1];
    if (name === undefined) continue;
    const row = body.findIndex((line, j) => j > i && (line === name || line.startsWith(`${name}:`)));
    return row < 0 ? body.length : row;
  }
  // A short traceback (a SyntaxError): indented frames, then the exception line in column 0.
  const list = body.lastIndexOf("Traceback (most recent call last):");
  if (list >= 0) {
    const row = body.findIndex((line, j) => j > list && line !== "" && !line.startsWith(" "));
    return row < 0 ? body.length : row;
  }
  // Made, never raised: the exception line alone.
  return Math.max(
    0,
    body.findIndex((line) => line !== ""),
  );
}

/** A group's text split at its sub-exceptions' headers; undefined when it has none. */
function subExceptions(text: string): { head: string; subs: SubException[] } | undefined {
  const rows = text.split("\n");
  const starts = rows.flatMap((row, i) => (subExceptionHeader.test(row) ? [i] : []));
  if (starts.length === 0) return undefined;
  const subs = starts.map((start, k) => {
    const body = rows.slice(start + 1, starts[k + 1] ?? rows.length);
    const at = exceptionRow(body);
    let endAt = body.length;
    while (endAt > at + 1 && (body[endAt - 1] === "" || groupEnd.test(body[endAt - 1] ?? ""))) endAt--;
    return {
      header: rows[start] ?? "",
      frames: body.slice(0, at),
      message: body.slice(at, endAt),
      end: body.slice(endAt),
    };
  });
  return { head: rows.slice(0, starts[0]).join("\n"), subs };
}

/** Characters of `rows` joined by line breaks, one more for the break joining them to the next. */
function rowsSize(rows: readonly string[]): number {
  return rows.reduce((sum, row) => sum + row.length + 1, 0);
}

/** The line saying what a frame list lost takes at most about this many characters. */
const frameNote = 70;

/**
 * An ExceptionGroup's text (its line, then each sub-exception: header, frames, exception line)
 * within `chars` and `lines`: every sub-exception's header and exception line stay (long ones cut
 * to share the room), and its frames are what is cut, each sub-exception's keeping its innermost
 * whole lines. When even the headers and lines do not fit, the last ones are left out, saying how
 * many (with no room for a note each on what their frames lost, they lose all their frames and one
 * note at the end says so, before any is left out). Undefined when the text has no sub-exceptions.
 */
function groupText(text: string, chars: number, lines: number): string | undefined {
  // Not a group: the caller gives it the share of any exception, not a group's.
  const group = subExceptions(text);
  if (group === undefined) return undefined;
  if (text.length <= chars && countLines(text) <= lines) return text;
  const head = startOf(group.head, Math.max(200, Math.floor(chars / 8)), Math.max(1, Math.floor(lines / 10)));
  // Rows: the text's lines, so `lines` line breaks are `lines + 1` rows.
  const rowBudget = lines + 1;
  const charBudget = chars + 1;
  let room = longLineChars(chars);
  let messageRows = Math.max(1, Math.floor(lines / 10));
  for (;;) {
    const pinned = group.subs.map((sub) => [
      sub.header,
      ...shortMessage(sub.message, room, messageRows),
      ...sub.end,
    ]);
    // A sub-exception with frames keeps a line for them at least: what was left out of them.
    const notes = group.subs.filter((sub) => sub.frames.length > 0).length;
    const pinnedChars =
      head.length + 1 + pinned.reduce((sum, rows) => sum + rowsSize(rows), 0) + notes * (frameNote + 1);
    const pinnedRows = countLines(head) + 1 + pinned.reduce((sum, rows) => sum + rows.length, 0) + notes;
    if (pinnedChars <= charBudget && pinnedRows <= rowBudget) {
      const charShares = evenShares(
        group.subs.map((sub) => Math.max(0, rowsSize(sub.frames) - frameNote - 1)),
        charBudget - pinnedChars,
      );
      const rowShares = evenShares(
        group.subs.map((sub) => Math.max(0, sub.frames.length - 1)),
        rowBudget - pinnedRows,
      );
      const shown = [
        head,
        ...pinned.flatMap((rows, i) => [
          rows[0] ?? "",
          ...cutFrameRows(
            group.subs[i]?.frames ?? [],
            (charShares[i] ?? 0) + frameNote + 1,
            (rowShares[i] ?? 0) + 1,
          ),
          ...rows.slice(1),
        ]),
      ].join("\n");
      return shown.length <= chars && countLines(shown) <= lines ? shown : startOf(shown, chars, lines);
    }
    if (room > 80 || messageRows > 1) {
      room = Math.max(80, Math.floor(room / 2));
      messageRows = Math.max(1, Math.floor(messageRows / 2));
      continue;
    }
    // No room for a note each: every header and line with no frames nor the blank line between
    // them, and one note for them all, before any sub-exception is left out.
    const framed = group.subs.filter((sub) => sub.frames.length > 0);
    if (framed.length > 0) {
      const omittedRows = framed.reduce((sum, sub) => sum + sub.frames.length, 0);
      const omittedChars = framed.reduce((sum, sub) => sum + rowsSize(sub.frames), 0) - 1;
      const note = `… ${describeOmitted(omittedChars, omittedRows)} of the sub-exceptions' tracebacks omitted here …`;
      const bare = [head, ...pinned.flatMap((rows) => rows.filter((row) => row !== "")), note].join("\n");
      if (bare.length <= chars && countLines(bare) <= lines) return bare;
    }
    return firstSubExceptions(head, pinned, chars, lines);
  }
}

/** A sub-exception's exception line(s): at most `rows` lines, each cut after `room` characters. */
function shortMessage(message: readonly string[], room: number, rows: number): string[] {
  const kept = message
    .slice(0, message.length > rows ? Math.max(1, rows - 1) : rows)
    .map((line) => cutLine(line, room));
  const left = message.slice(kept.length);
  if (left.length === 0) return kept;
  return [...kept, `… ${describeOmitted(rowsSize(left) - 1, left.length)} of the message omitted here …`];
}

/**
 * A sub-exception's frame lines within `chars` characters (each line counting its break) and
 * `rows` lines: whole lines, the innermost first (where it was raised), a few outermost when there
 * is room, and a line saying what was left out between them.
 */
function cutFrameRows(frames: readonly string[], chars: number, rows: number): string[] {
  if (frames.length <= rows && rowsSize(frames) <= chars) return [...frames];
  const room = chars - frameNote - 1;
  const roomRows = rows - 1;
  const headShare = roomRows >= 12 ? 0.25 : 0;
  const head: string[] = [];
  while (
    head.length < Math.floor(roomRows * headShare) &&
    rowsSize([...head, frames[head.length] ?? ""]) <= room * headShare
  ) {
    head.push(frames[head.length] ?? "");
  }
  const tail: string[] = [];
  for (let i = frames.length - 1; i >= head.length; i--) {
    const row = frames[i] ?? "";
    if (head.length + tail.length + 1 > roomRows || rowsSize(head) + rowsSize(tail) + row.length + 1 > room)
      break;
    tail.unshift(row);
  }
  const omitted = frames.slice(head.length, frames.length - tail.length);
  const note = `… ${describeOmitted(Math.max(0, rowsSize(omitted) - 1), omitted.length)} of the traceback omitted here …`;
  return [...head, note, ...tail];
}

/** The group's line and as many sub-exceptions' headers and lines as fit, then how many did not. */
function firstSubExceptions(head: string, pinned: readonly string[][], chars: number, lines: number): string {
  const shown = [head];
  let used = head.length;
  let usedLines = countLines(head);
  let count = 0;
  for (const rows of pinned) {
    const text = rows.join("\n");
    // Room for this one and for the line saying what was left out.
    if (used + text.length + 1 + 120 > chars || usedLines + rows.length + 1 > lines) break;
    shown.push(text);
    used += text.length + 1;
    usedLines += rows.length;
    count++;
  }
  // A sub-exception left out here takes along the kernel's lines after it saying how many it
  // left out itself ("… and 6 more sub-exceptions"): those count too.
  const left = pinned
    .slice(count)
    .reduce((sum, rows) => sum + 1 + rows.reduce((more, row) => more + keptOut(row), 0), 0);
  if (left > 0) {
    shown.push(
      `… ${left} more sub-exception${left === 1 ? "" : "s"} left out here: their headers and lines are over the output limits …`,
    );
  }
  return shown.join("\n");
}
