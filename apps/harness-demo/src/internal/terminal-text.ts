/* eslint-disable no-control-regex -- this module reads and removes terminal control characters */
/**
 * Terminal control sequences: CSI (colours, cursor moves, erase line: `ESC [ … final`), OSC
 * (window titles, hyperlinks: `ESC ] … BEL` or `ESC ] … ESC \`, never across a line end), and the
 * two- and three-character escapes (`ESC =`, `ESC ( B`).
 */
const controlSequence =
  /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b\n]*(?:\x07|\x1b\\)|\x1b[()*+][0-9A-Za-z]|\x1b[@-Z\\-_=>]/g;

/** C0 control characters a terminal shows as nothing (backspace, bell, a stray ESC), after the sequences went. */
const invisibleControl = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;

/** Characters that are not text: U+FFFD (bytes that are no UTF-8) and C0 controls other than \t \n \r ESC. */
const notText = /[\uFFFD\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f]/g;

/**
 * Output as a terminal would have left it on screen, for a model to read: colour and cursor
 * sequences removed, a line redrawn after carriage returns (a progress bar, `10%\r55%\r100%`)
 * kept as its last drawing, a character a backspace went back over as what was drawn over it, a
 * CRLF line end read as LF, and the controls a terminal shows as nothing dropped. Line ends are never removed, so line counts stay those of the raw output.
 */
export function terminalText(raw: string): string {
  if (!/[\x00-\x08\x0b-\x1f\x7f]/.test(raw)) return raw;
  const plain = raw.replace(controlSequence, "");
  const drawn = plain
    .split("\n")
    .map((line) => {
      const body = line.endsWith("\r") ? line.slice(0, -1) : line;
      if (!body.includes("\r")) return body;
      const drawings = body.split("\r").filter((drawing) => drawing !== "");
      return drawings[drawings.length - 1] ?? "";
    })
    .join("\n");
  return eraseBackspaces(drawn).replace(invisibleControl, "");
}

/** A character followed by a backspace is overwritten: a spinner (`|\b/\b-`), man's overstrike bold. */
function eraseBackspaces(text: string): string {
  let erased = text;
  // One pass per backspace in a row; a longer run's rest is dropped with the other controls.
  for (let pass = 0; pass < 64 && /[^\n\x08]\x08/.test(erased); pass++)
    erased = erased.replace(/[^\n\x08]\x08/g, "");
  return erased;
}

/**
 * True when `raw` is not text: it has a NUL, or at least 8 characters that are bytes of no
 * UTF-8 character (U+FFFD) or control characters, and they are over a tenth of it (`cat` of an
 * executable, a gzip stream). A single cut character (`head -c 1` of an `é`) is still text.
 */
export function looksBinary(raw: string): boolean {
  if (raw.includes("\x00")) return true;
  const odd = raw.match(notText)?.length ?? 0;
  return odd >= 8 && odd * 10 > raw.length;
}

/**
 * Where the binary part of output that {@link looksBinary} starts: the start of its first line
 * with a NUL, or with at least 4 characters that are not text making over a tenth of it. The
 * lines before it are text a command printed first (`echo header; cat image.png`).
 */
export function binaryStart(raw: string): number {
  let start = 0;
  while (start < raw.length) {
    const newline = raw.indexOf("\n", start);
    const end = newline === -1 ? raw.length : newline;
    const line = raw.slice(start, end);
    const odd = line.match(notText)?.length ?? 0;
    if (line.includes("\x00") || (odd >= 4 && odd * 10 > line.length)) return start;
    start = end + 1;
  }
  return 0;
}
