/* eslint-disable no-control-regex -- this module reads and removes terminal control characters */
import { countNoun } from "@tools/registry";
/**
 * Terminal control sequences: CSI (colours, cursor moves, erase line: `ESC [ … final`), OSC
 * (window titles, hyperlinks: `ESC ] … BEL` or `ESC ] … ESC \`, never across a line end), and the
 * two- and three-character escapes (`ESC =`, `ESC ( B`).
 */
const controlSequence =
  /\x1b\[([0-?]*)[ -/]*([@-~])|\x1b\][^\x07\x1b\n]*(?:\x07|\x1b\\)|\x1b[()*+][0-9A-Za-z]|\x1b[@-Z\\-_=>]/g;

/** A control character: a line without one is taken as it is. */
const drawn = /[\x00-\x08\x0b-\x1f\x7f]/;

/** Controls a terminal shows as nothing, tab and line end aside. */
const invisible = new RegExp(drawn.source, "g");

/** What moves the cursor back or erases: a line holding one is drawn cell by cell (see {@link drawLine}). */
const movesBack = /[\r\b]|\x1b\[[0-9;]*[KG]/;

/**
 * Characters that are not text: U+FFFD (bytes that are no UTF-8) and the C0 controls a program
 * printing text does not write (NUL, …); not tab, line ends, form feed, backspace, bell, SO/SI or
 * ESC, which terminal output has and {@link terminalText} draws.
 */
const notText = /[\uFFFD\x00-\x06\x0b\x10-\x1a\x1c-\x1f\x7f]/g;

/** Whether text holds a character that is not text (see {@link notText}). */
const someNotText = new RegExp(notText.source);

/** The note standing for binary lines left out (see {@link withoutBinary}). */
function binaryNote(characters: number): string {
  return `(binary data, ${characters} ${countNoun(characters, "characters")}: not shown; to look at it, pipe it through \`od -c | head\` or \`xxd | head\`)`;
}

/**
 * Output as a terminal would have left it on screen, for a model to read: colour codes removed,
 * each line drawn as a terminal draws it (a carriage return or a backspace moves back and what
 * follows draws over, an erase-line clears: a progress bar `10%\r55%\r100%` is `100%`), a CRLF
 * line end read as LF, and the controls a terminal shows as nothing dropped. Line ends are never
 * removed, so line counts stay those of the raw output.
 */
export function terminalText(raw: string): string {
  if (!drawn.test(raw)) return raw;
  return raw
    .split("\n")
    .map((line) => {
      const body = line.endsWith("\r") ? line.slice(0, -1) : line;
      if (!drawn.test(body)) return body;
      // Nothing moves back: the sequences and invisible controls go, tabs stay tabs.
      if (!movesBack.test(body)) return body.replace(controlSequence, "").replace(invisible, "");
      return drawLine(body);
    })
    .join("\n");
}

/** One line as a terminal leaves it: a row of cells and a cursor (see {@link terminalText}). */
function drawLine(line: string): string {
  const cells: string[] = [];
  let cursor = 0;
  const write = (text: string): void => {
    // Code points, so that a surrogate pair is one cell.
    for (const char of text) {
      if (char === "\r") cursor = 0;
      else if (char === "\b") cursor = Math.max(0, cursor - 1);
      else if (char === "\t") {
        const next = (Math.floor(cursor / 8) + 1) * 8;
        while (cursor < next) cells[cursor++] ??= " ";
      } else if (drawn.test(char)) continue;
      else {
        while (cells.length < cursor) cells.push(" ");
        cells[cursor++] = char;
      }
    }
  };
  let from = 0;
  for (const sequence of line.matchAll(controlSequence)) {
    write(line.slice(from, sequence.index));
    from = sequence.index + sequence[0].length;
    const [, parameter = "", final] = sequence;
    if (final === "K") {
      // Erase in line: to its end (0), to its start (1), all of it (2); the cursor stays.
      if (parameter === "" || parameter === "0") cells.length = Math.min(cells.length, cursor);
      else if (parameter === "1")
        for (let cell = 0; cell <= cursor && cell < cells.length; cell++) cells[cell] = " ";
      else if (parameter === "2") cells.length = 0;
    } else if (final === "G") {
      // Cursor to a column (1-based).
      cursor = Math.max(0, (Number.parseInt(parameter, 10) || 1) - 1);
    }
  }
  write(line.slice(from));
  return cells.join("");
}

/** Whether a line is binary data: at least 4 characters that are not text, over a tenth of it. */
function isBinaryLine(line: string): boolean {
  const odd = line.match(notText)?.length ?? 0;
  return odd >= 4 && odd * 10 > line.length;
}

/**
 * `raw` with its binary lines left out, each run of them one note saying how many characters
 * it held (the text around stays: `echo header; cat image.png`, a log with a stray binary
 * record). Where the binary lines are most of what lies from the first to the last (`cat` of an
 * executable, which has stretches that read as text), all of that goes in one note.
 */
export function withoutBinary(raw: string): string {
  if (!someNotText.test(raw)) return raw;
  const lines = raw.split("\n");
  const binary = lines.map(isBinaryLine);
  const first = binary.indexOf(true);
  if (first === -1) return raw;
  const last = binary.lastIndexOf(true);
  let spanChars = 0;
  let binaryChars = 0;
  for (let index = first; index <= last; index++) {
    spanChars += lines[index]!.length + 1;
    if (binary[index]) binaryChars += lines[index]!.length + 1;
  }
  // Mostly binary from its first binary line to its last: the text lines between are stretches
  // of the same data.
  if (binaryChars * 2 > spanChars) for (let index = first; index <= last; index++) binary[index] = true;
  const out: string[] = [];
  for (let index = 0; index < lines.length;) {
    if (!binary[index]) {
      out.push(lines[index++]!);
      continue;
    }
    let characters = 0;
    for (; index < lines.length && binary[index]; index++) characters += lines[index]!.length + 1;
    // The last line has no line end of its own.
    out.push(binaryNote(index === lines.length ? characters - 1 : characters));
  }
  return out.join("\n");
}
