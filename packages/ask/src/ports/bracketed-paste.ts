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
  sequence?: string;
}

/**
 * A paste arrives in one burst: a gap this long (ms) between its keys means its end marker never
 * came (a terminal that sends only the start marker, or a paste cut short), and the paste is over.
 */
export const pasteGapMs = 1_000;

/** A control character, which a paste carries as text only when it is a tab. */
const control = /[\p{Cc}]/u;

/**
 * Reads what is pasted between the markers into `readline`'s line as text: a line break in a paste
 * never submits the reply (the human reviews it, then presses Enter); a run of line breaks between
 * pasted text is one space (a reply is one line), and one at the start or end of the paste (a line
 * copied with its newline) is dropped, so a pasted secret is kept exactly. Other keys a paste may
 * carry (a backspace, an arrow's escape, Ctrl+C's byte) are not acted on and insert nothing. A
 * paste whose end marker does not come within {@link pasteGapMs} of its last key is over: the next
 * key is typing again, so Enter submits and Ctrl+C declines (the card is never stuck in a paste).
 * Listens first on `input` (where readline reads keys) and marks such a key as one readline does
 * nothing with. Returns a function that stops listening.
 */
export function readPastesAsText(input: NodeJS.ReadableStream, readline: Interface): () => void {
  let pasting = false;
  // Pasted text so far in this paste, and a line break after it not yet written as a space.
  let inserted = false;
  let lineBreak = false;
  // When the paste's last key came, to end a paste whose end marker never comes.
  let lastKeyAt = 0;
  const onKey = (text: string | undefined, key: Key | undefined) => {
    const name = key?.name;
    if (name === "paste-start") {
      pasting = true;
      lastKeyAt = performance.now();
      inserted = false;
      lineBreak = false;
      return;
    }
    if (name === "paste-end") {
      pasting = false;
      return;
    }
    if (!pasting || key === undefined) return;
    const now = performance.now();
    if (now - lastKeyAt > pasteGapMs) {
      // No end marker after the paste's burst: this key is typed, and acted on as such.
      pasting = false;
      return;
    }
    lastKeyAt = now;
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
    // A Ctrl key with a name readline has no binding for: it does nothing with it. Readline reads
    // undo and redo (Ctrl+_ and Ctrl+^) from the key's bytes, not its name: they go too.
    key.sequence = "";
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
