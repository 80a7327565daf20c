import { TailBuffer } from "./tail-buffer.js";
import { tailOf } from "@tools/registry";

// Colour and cursor escapes: CSI sequences (one cut short by a line's end or another escape with
// its parameters, as a terminal shows none of them), strings (OSC, DCS, …) to their terminator or
// the end of their line at most, and the other escapes (ESC ( B, ESC 7, …); an agent CLI run under
// FORCE_COLOR or with a spinner writes them; the model reads plain text. A lone ESC goes too.
const escapes =
  // eslint-disable-next-line no-control-regex
  /\u001b\[[0-?]*[ -/]*[@-~]?|\u001b[\]PX^_][^\u0007\u001b\n]*(?:\u0007|\u001b\\)?|\u001b[ -/]*[0-~]|\u001b/g;

/**
 * An escape begun at the end of a text and not finished yet: the rest may come with the next
 * chunk of output (`ESC [ 3` … `2 m`), when it is all of an escape, not text.
 */
// eslint-disable-next-line no-control-regex
const unfinishedEscape = /\u001b(?:\[[0-?]*[ -/]*|[\]PX^_][^\u0007\u001b\n]*\u001b?|[ -/]*)$/;

/**
 * Control characters a terminal shows nothing for: NUL, the bell, vertical tab, form feed, the
 * rest of C0, DEL and C1. Tab and line feed are text; backspace and carriage return are handled
 * as the cursor moves they are. With them the bidi embeddings, overrides and isolates (U+202A–
 * U+202E, U+2066–U+2069), which reorder the text around them (a right-to-left override shows
 * "exe.tset" as "test.exe"): the model and the operator would read it differently. The marks
 * (U+200E, U+200F, U+061C) stay: they spell right-to-left text and reorder nothing around them.
 */
// eslint-disable-next-line no-control-regex
const unseen = /[\u0000-\u0007\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/**
 * A CLI's output (or any worker's text: a model's answer, a failure quoting one) as the plain text
 * the model and the operator read: escape sequences removed; of each line rewritten with carriage
 * returns (a progress bar, a spinner) only what it showed last; what a backspace goes back over
 * erased, as a spinner drawn in place (`|\b/\b-\b`), a correction (`teh\b\bhe`) or overstruck
 * bold (`b\bb`) leave it; NUL, bells, the other control characters but tab and line feed, and the
 * bidi controls that reorder text (see {@link unseen}) left out. Line endings of carriage returns
 * (`\r\n`, `\r\r\n`) end a line and rewrite nothing.
 */
export function plainOutput(text: string): string {
  return text.replace(escapes, "").split("\n").map(plainLine).join("\n");
}

/** One line (without its `\n`) of {@link plainOutput}: escapes removed already. */
function plainLine(line: string): string {
  let end = line.length;
  while (end > 0 && line.charCodeAt(end - 1) === 13) end--;
  const shown = line.slice(line.lastIndexOf("\r", end - 1) + 1, end);
  const seen = shown.replace(unseen, "");
  if (!seen.includes("\b")) return seen;
  // A backspace takes back the character before it (a whole one: both halves of an emoji), never
  // beyond the start of the line.
  const kept: string[] = [];
  for (const char of seen) {
    if (char === "\b") kept.pop();
    else kept.push(char);
  }
  return kept.join("");
}

/**
 * The end of a stream of CLI output as {@link plainOutput}'s plain text, taken line by line as it
 * arrives (an escape or a line split between chunks is taken whole), so that what it keeps and
 * counts as left out is what the model reads: the `maxChars` last characters of the plain text,
 * and how many before them were let go. Of a line not ended yet it holds what it shows since its
 * last carriage return; one longer than {@link heldMaxChars} without one goes to the plain text
 * in parts, where a backspace cannot take back what went before its part (a carriage return that
 * rewrites it takes back all of its parts). Memory stays bounded: of the line, `heldMaxChars` and
 * the chunk being added at most (an escape string however long is let go as it comes); of the
 * plain text, twice `maxChars`, and as much again of a line passed on in parts.
 */
export class PlainOutputTail {
  /** The plain text of the lines ended. */
  private readonly plain: TailBuffer;
  /**
   * The plain text the line not ended yet has passed on already (the start of a line too long to
   * hold, see {@link passStart}): apart from {@link plain} until the line ends, so that a carriage
   * return rewriting the line lets go of it and leaves the lines before it kept.
   */
  private passedLine: TailBuffer;
  /** The raw text of the line not ended yet. */
  private pending = "";
  /**
   * The line not ended yet as plain text, while text that moves no cursor can be added to it as
   * it is (no escape unfinished, no carriage return in it); else undefined.
   */
  private shown: string | undefined = "";
  /** How many characters of plain text the line not ended yet has passed on ({@link passedLine}). */
  private linePassed = 0;
  /**
   * True when what the line passed on ends in a carriage return nothing shown has followed yet
   * (only escapes: `50%\r` and a colour reset, or a long title): text after it rewrites the line.
   */
  private returnPassed = false;

  constructor(private readonly maxChars: number) {
    this.plain = new TailBuffer(maxChars);
    this.passedLine = new TailBuffer(maxChars);
  }

  /**
   * Takes a chunk of output; returns the progress line it makes, the last line with something
   * in it as it shows now (the line being written, without an escape not finished yet), or ""
   * when it added nothing to show.
   */
  push(chunk: string): string {
    // A chunk of text alone, on a line that is held (a model's answer streamed a few characters
    // at a time): added to what the line shows, without reading the line again. Not after a
    // return passed on with the line's start: text after it rewrites the line.
    if (
      this.shown !== undefined &&
      !this.returnPassed &&
      this.pending.length + chunk.length <= heldMaxChars &&
      !cursorMoves.test(chunk)
    ) {
      this.pending += chunk;
      this.shown += chunk.replace(unseen, "");
      return this.shown.trim() === "" ? "" : this.shown;
    }
    this.pending += chunk;
    this.shown = undefined;
    const newline = this.pending.lastIndexOf("\n");
    let ended = "";
    if (newline >= 0) {
      // The line whose start was passed on ends here: rewritten on its way, that start goes.
      const first = this.pending.slice(0, this.pending.indexOf("\n"));
      if (this.linePassed > 0 && readReturns(first, this.returnPassed).from >= 0) this.takeBackPassed();
      this.plain.append(this.passedLine);
      this.passedLine = new TailBuffer(this.maxChars);
      this.linePassed = 0;
      this.returnPassed = false;
      ended = plainOutput(this.pending.slice(0, newline + 1));
      this.plain.push(ended);
      this.pending = this.pending.slice(newline + 1);
    }
    // A return held from an earlier chunk may rewrite a line whose start was passed on.
    if (chunk.includes("\r") || this.returnPassed || (this.linePassed > 0 && this.pending.includes("\r")))
      this.dropRewritten();
    if (this.pending.length > heldMaxChars) {
      this.passStart();
      // A return it passed on may be followed by text already held: that rewrites the line.
      if (this.returnPassed) this.dropRewritten();
    }
    const current = this.currentLine();
    if (current.trim() !== "") return current;
    const lines = ended.split("\n").filter((line) => line.trim() !== "");
    return lines[lines.length - 1] ?? "";
  }

  /**
   * The plain text kept: the end of the output, its line not ended yet included, `maxChars` at
   * most (also when that line is longer).
   */
  text(): string {
    return this.kept().text;
  }

  /** How many characters of plain text from the start of the output are no longer kept. */
  dropped(): number {
    return this.kept().dropped;
  }

  private kept(): { text: string; dropped: number } {
    // What the line passed on and let go lay between the lines ended and what it kept: of those
    // lines, none is kept then.
    const ended = this.plain.text();
    const gap = this.passedLine.dropped() > 0;
    const whole = (gap ? "" : ended) + this.passedLine.text() + this.currentLine();
    const text = tailOf(whole, this.maxChars);
    const dropped = this.plain.dropped() + (gap ? ended.length : 0) + this.passedLine.dropped();
    return { text, dropped: dropped + whole.length - text.length };
  }

  /** The line being written as plain text, without an escape not finished yet. */
  private currentLine(): string {
    if (this.shown !== undefined) return this.shown;
    const unfinished = unfinishedEscape.exec(this.pending);
    const line = plainOutput(unfinished ? this.pending.slice(0, unfinished.index) : this.pending);
    if (!unfinished && !this.pending.includes("\r")) this.shown = line;
    return line;
  }

  /**
   * Lets go of what the line showed before its last carriage return that something follows (a
   * progress bar's earlier states): it is shown no more. As in {@link plainOutput}, a carriage
   * return followed by nothing but escapes and other carriage returns rewrites nothing yet (a
   * line ending in `\r`, then a colour reset, then `\n`), and one inside an escape string (an OSC
   * title may hold one) is all escape.
   */
  private dropRewritten(): void {
    const unfinished = unfinishedEscape.exec(this.pending);
    const line = unfinished ? this.pending.slice(0, unfinished.index) : this.pending;
    const { from } = readReturns(line, this.returnPassed);
    if (from < 0) return;
    this.pending = this.pending.slice(from);
    this.takeBackPassed();
  }

  /** Lets go of what the line not ended yet passed on: a carriage return rewrote it. */
  private takeBackPassed(): void {
    this.passedLine = new TailBuffer(this.maxChars);
    this.linePassed = 0;
    this.returnPassed = false;
  }

  /**
   * Passes the start of a line too long to hold to the plain text, cut before the last escape
   * near the cut (it may go on past it) and between the halves of no emoji. An escape string
   * begun before the cut and not ended by it (a long hyperlink, a title) is all escape: its
   * content before the cut is let go, and the held part starts with its introducer again, so
   * what follows up to its end is still read as escape. The held part stays {@link partHeldChars}
   * (and two) characters, however long the string.
   */
  private passStart(): void {
    let cut = this.pending.length - partHeldChars;
    let held = "";
    const escape = this.pending.lastIndexOf("\u001b", cut - 1);
    let passEnd: number;
    if (escape >= 0 && openEscape.test(this.pending.slice(escape, cut))) {
      passEnd = escape;
      // Its introducer before the cut: ESC and the bracket or letter after it, or ESC alone.
      held = this.pending.slice(
        escape,
        escape + 1 < cut && /[\]PX^_[]/.test(this.pending[escape + 1]!) ? escape + 2 : escape + 1,
      );
    } else {
      if (escape >= 0 && cut - escape < partHeldChars) cut = escape;
      const code = this.pending.charCodeAt(cut);
      if (code >= 0xdc00 && code <= 0xdfff) cut--;
      passEnd = cut;
    }
    const raw = this.pending.slice(0, passEnd);
    this.returnPassed = readReturns(raw, this.returnPassed).held;
    const passed = plainOutput(raw);
    this.passedLine.push(passed);
    this.linePassed += passed.length;
    this.pending = held + this.pending.slice(cut);
  }
}

/**
 * The carriage returns of `line` (one line or part of one, without its `\n` and without an escape
 * not finished yet), after a return passed on before it when `returnBefore`: `from`, where what
 * the line shows starts, after its last return that rewrites it (one followed by text, not only
 * by escapes and other returns; see {@link PlainOutputTail.dropRewritten}), or -1 when none does;
 * `held`, whether it ends in a return nothing shown has followed yet.
 */
function readReturns(line: string, returnBefore: boolean): { from: number; held: boolean } {
  let from = -1;
  let lastReturn: number | undefined = returnBefore ? -1 : undefined;
  for (const token of line.matchAll(rewriteTokens)) {
    if (token[0] === "\r") lastReturn = token.index;
    else if (token[1] === undefined && lastReturn !== undefined) {
      from = lastReturn + 1;
      lastReturn = undefined;
    }
  }
  return { from, held: lastReturn !== undefined };
}

/**
 * An escape begun and not ended, which {@link escapes} takes whole however long it is: a string
 * (OSC, DCS, …) to its terminator, a control sequence (CSI) over its parameters, an escape over its
 * intermediates. Its introducer followed by what is left of it is still all of an escape.
 */
// eslint-disable-next-line no-control-regex
const openEscape = /^\u001b(?:[\]PX^_][^\u0007\u001b\n]*|\[[0-?]*[ -/]*|[ -/]*)$/;

/** Most characters of a line not ended yet {@link PlainOutputTail} holds before it passes its start on. */
const heldMaxChars = 4096;

/** How much of a line too long to hold stays held when its start is passed on. */
const partHeldChars = 1024;

/** What may move the cursor or end an escape: a chunk with none of these only adds to its line. */
// eslint-disable-next-line no-control-regex
const cursorMoves = /[\n\r\b\u001b]/;

/** A line as {@link PlainOutputTail.dropRewritten} reads it: escapes (group 1), carriage returns, and text. */
const rewriteTokens = new RegExp(`(${escapes.source})|\r|[^\r\u001b]+`, "g");
