import type { Interface } from "node:readline";

/**
 * Bracketed paste mode: once `on` is written, the terminal sends a paste between `ESC[200~` and
 * `ESC[201~` (readline's keys `paste-start` and `paste-end`), so it can be told from typing. `off`
 * ends it; a program that leaves it on hands the markers to whatever reads the terminal next.
 */
export const bracketedPaste = { on: "\u001b[?2004h", off: "\u001b[?2004l" } as const;

/** A key as readline's keypress events give it. */
interface Key {
  name?: string;
  ctrl?: boolean;
  meta?: boolean;
  shift?: boolean;
}

/** A control character, which a paste carries as text only when it is a tab. */
const control = /[\p{Cc}]/u;

/**
 * Reads what is pasted between the markers into `readline`'s line as text: a line break in a paste
 * never submits the reply (the human reviews it, then presses Enter); a run of line breaks between
 * pasted text is one space (a reply is one line), and one at the start or end of the paste (a line
 * copied with its newline) is dropped, so a pasted secret is kept exactly. Other keys a paste may
 * carry (a backspace, an arrow's escape, Ctrl+C's byte) are not acted on and insert nothing.
 * Listens first on `input` (where readline reads keys) and marks such a key as one readline does
 * nothing with. Returns a function that stops listening.
 */
export function readPastesAsText(input: NodeJS.ReadableStream, readline: Interface): () => void {
  let pasting = false;
  // Pasted text so far in this paste, and a line break after it not yet written as a space.
  let inserted = false;
  let lineBreak = false;
  const onKey = (text: string | undefined, key: Key | undefined) => {
    const name = key?.name;
    if (name === "paste-start") {
      pasting = true;
      inserted = false;
      lineBreak = false;
      return;
    }
    if (name === "paste-end") {
      pasting = false;
      return;
    }
    if (!pasting || key === undefined) return;
    const isText =
      !key.ctrl &&
      !key.meta &&
      typeof text === "string" &&
      text !== "" &&
      (text === "\t" || !control.test(text));
    if (isText) {
      // Readline inserts this key after this listener returns: the space goes in first.
      if (lineBreak) readline.write(" ");
      lineBreak = false;
      inserted = true;
      return;
    }
    if (name === "return" || name === "enter") lineBreak = inserted;
    // A Ctrl key with a name readline has no binding for: it does nothing with it.
    key.name = "pasted-key";
    key.ctrl = true;
    key.meta = false;
    key.shift = false;
  };
  input.prependListener("keypress", onKey);
  return () => {
    input.removeListener("keypress", onKey);
  };
}
