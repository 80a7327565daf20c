/** A combining mark: drawn on the character before it. */
const mark = /^\p{M}$/u;
/** Joiners, variation selectors and skin tones: drawn on the character before them, taking no column. */
const zeroWidth: readonly (readonly [number, number])[] = [
  [0x200b, 0x200f],
  [0x2060, 0x2060],
  [0xfe00, 0xfe0f],
  [0x1f3fb, 0x1f3ff],
];
/** East Asian Wide and Fullwidth characters: two columns each in a terminal (emoji are below). */
const doubleWidth: readonly (readonly [number, number])[] = [
  [0x1100, 0x115f],
  [0x2e80, 0x303e],
  [0x3041, 0x33ff],
  [0x3400, 0x4dbf],
  [0x4e00, 0x9fff],
  [0xa000, 0xa4cf],
  [0xa960, 0xa97f],
  [0xac00, 0xd7a3],
  [0xf900, 0xfaff],
  [0xfe10, 0xfe19],
  [0xfe30, 0xfe6f],
  [0xff00, 0xff60],
  [0xffe0, 0xffe6],
  [0x16fe0, 0x16fe4],
  [0x17000, 0x18cff],
  [0x1b000, 0x1b2ff],
  [0x1f200, 0x1f2ff],
  [0x20000, 0x3fffd],
];
/** Emoji drawn as emoji by default (✅ ❌ 🚀 🫠 …): two columns, as terminals draw them. */
const emoji = /^\p{Emoji_Presentation}/u;
/** Variation selector 16: asks for the emoji form (⚠️), two columns wide. */
const emojiForm = "\ufe0f";
/** A tab moves to the next multiple of this many columns. */
const tabStop = 8;
const graphemes = new Intl.Segmenter(undefined, { granularity: "grapheme" });

function within(code: number, ranges: readonly (readonly [number, number])[]): boolean {
  return ranges.some(([first, last]) => code >= first && code <= last);
}

/**
 * How many columns a character as drawn (a grapheme: a letter with its marks, an emoji sequence)
 * takes in a terminal at column `at` (an estimate: 0, 1 or 2, or up to the next tab stop).
 */
function columnsOf(character: string, at: number): number {
  if (character === "\t") return tabStop - (at % tabStop);
  const first = String.fromCodePoint(character.codePointAt(0) ?? 0);
  const code = first.codePointAt(0) ?? 0;
  if (mark.test(first) || within(code, zeroWidth)) return 0;
  if (character.includes(emojiForm) || emoji.test(first) || within(code, doubleWidth)) return 2;
  return 1;
}

function* charactersOf(text: string): Iterable<string> {
  for (const { segment } of graphemes.segment(text)) yield segment;
}

/** How many columns `text` takes in a terminal, starting at the line's first column. */
export function displayWidth(text: string): number {
  let width = 0;
  for (const character of charactersOf(text)) width += columnsOf(character, width);
  return width;
}

/**
 * The longest start of `text` that fits in `columns` (at least one character, so a line always
 * advances), `text` starting at column `at`.
 */
function fitting(text: string, columns: number, at = 0): string {
  let width = at;
  let end = 0;
  for (const character of charactersOf(text)) {
    width += columnsOf(character, width);
    if (width - at > columns && end > 0) break;
    end += character.length;
  }
  return text.slice(0, end);
}

/**
 * One line folded into lines of at most `columns` columns, broken at spaces where it can be (a
 * word wider than the line is broken where it must be). Continuation lines keep the line's
 * indentation, and under a numbered option ("  2. SQLite …") line up with its label. A rule
 * ("-- Question ------") is shortened to fit instead.
 */
function wrapLine(line: string, columns: number): string[] {
  if (displayWidth(line) <= columns) return [line];
  if (/^-- \S+ -+$/.test(line)) return [fitting(line, columns)];
  const indent = /^(\s*(?:\d+\.\s)?)/.exec(line)?.[1] ?? "";
  const hanging = " ".repeat(Math.min(indent.length, Math.floor(columns / 2)));
  const lines: string[] = [];
  let rest = line;
  let lead = "";
  while (displayWidth(lead + rest) > columns) {
    const room = columns - lead.length;
    const head = fitting(rest, room, lead.length);
    // Break at the last space within the room; a word wider than the room is broken where it must be.
    // On the first line, never within its indentation or option number.
    const space = head.lastIndexOf(" ");
    const earliest = Math.max(1, lead === "" ? indent.length : 0);
    const cut = rest[head.length] === " " ? head.length : space >= earliest ? space : head.length;
    lines.push(lead + rest.slice(0, cut).trimEnd());
    rest = rest.slice(cut).trimStart();
    lead = hanging;
  }
  lines.push(lead + rest);
  return lines;
}

/**
 * `text` (lines ended by "\n") folded to a terminal `columns` wide, at spaces, so the terminal
 * never breaks a word: a card reads the same on a narrow terminal as on a wide one.
 */
export function wrapLines(text: string, columns: number): string {
  if (!(columns >= 20)) return text;
  return text
    .split("\n")
    .flatMap((line) => wrapLine(line, columns))
    .join("\n");
}

/**
 * How many rows of a terminal `columns` wide the lines of `text` (each ended by "\n") take, as the
 * terminal wraps a line wider than itself: what a redraw has to clear after a resize. A wide
 * character that does not fit in a row's last column goes to the next row, as a terminal draws it.
 */
export function rowsOf(text: string, columns: number): number {
  const lines = text.split("\n");
  // What follows the last "\n" is the line the cursor is on, not a row above it.
  lines.pop();
  return lines.reduce((rows, line) => rows + rowsOfLine(line, columns), 0);
}

function rowsOfLine(line: string, columns: number): number {
  let rows = 1;
  // Columns taken in the current row.
  let at = 0;
  for (const character of charactersOf(line)) {
    if (character === "\t") {
      // A tab moves to the next stop, never past the last column, and never wraps.
      at = at >= columns ? at : Math.min(columns - 1, at + columnsOf(character, at));
      continue;
    }
    const width = columnsOf(character, at);
    if (width === 0) continue;
    if (at > 0 && at + width > columns) {
      rows++;
      at = 0;
    }
    at += width;
  }
  return rows;
}
