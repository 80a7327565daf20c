// An adapter's refusal can carry a Python traceback whose frames are the adapter's own (debugpy
// evaluates through pydevd, and a SyntaxError in the expression comes back under ~10 pydevd
// frames): those frames say nothing about the user's code and are left out.

/** A traceback frame line: `  File "/path/x.py", line 12, in name` (or without `, in name`). */
const frameLine = /^\s*File "([^"]+)", line \d+/;

/**
 * Files of the adapter itself, as installed: debugpy (with its vendored pydevd) and a separately
 * packaged pydevd, in a site-packages or dist-packages folder. A user's own folder named
 * `debugpy` (a clone of its repository) is not the adapter.
 */
const adapterFile =
  /[/\\](?:site|dist)-packages[/\\](?:(?:debugpy|pydevd|_pydevd_bundle|_pydevd_frame_eval|_pydev_bundle|pydevd_plugins)[/\\]|pydevd\.py$)/;

/**
 * The message without the traceback frames of the adapter's own files (and the code lines each
 * quotes); the user's frames and the error itself stay. A "Traceback (most recent call last):"
 * header left with no frame under it goes too.
 */
export function withoutAdapterFrames(message: string): string {
  const lines = message.split("\n");
  const kept: string[] = [];
  let dropping = false;
  for (const line of lines) {
    const frame = frameLine.exec(line);
    if (frame) {
      dropping = adapterFile.test(frame[1]!);
      if (!dropping) kept.push(line);
      continue;
    }
    // A frame's quoted code (and caret lines) is indented deeper than its `File` line.
    if (dropping && /^\s{4,}\S/.test(line)) continue;
    dropping = false;
    kept.push(line);
  }
  if (kept.length === lines.length) return message;
  // A header whose frames were all the adapter's: the next kept line is no frame.
  const result = kept.filter(
    (line, index) =>
      !(line.trim() === "Traceback (most recent call last):" && !frameLine.test(kept[index + 1] ?? "")),
  );
  return result.join("\n").trim();
}

/** The first line of a Python traceback, as the interpreter writes it (at the line's start). */
const tracebackHeader = /^Traceback \(most recent call last\):\r?\n?$/;

/** A frame line as a traceback writes it: two spaces, then `File "…", line N`. */
const tracebackFrame = /^ {2}File "([^"]+)", line \d+/;

/** A line a frame quotes under its `File` line: its code, a caret under a part of it. */
const frameQuote = /^ {4,}\S/;

/**
 * The standard library's runpy, which starts debugpy (`python -m debugpy`) and runs the
 * program for it: its frames come before debugpy's own.
 */
const runpyFile = /(?:^<frozen runpy>$|[/\\](?:python\d+(?:\.\d+)?|Lib)[/\\]runpy\.py$)/i;

/** One line of the program's output (see `OutputRing`). */
interface OutputLine {
  readonly category: string;
  readonly text: string;
}

/** The line {@link withoutDebuggerFrames} puts in place of the frames it left out. */
export interface LeftOutNote extends OutputLine {
  /** How many lines of the output it stands for (the frames and the lines they quote). */
  readonly replaces: number;
}

/**
 * The output without the frames of the debugger in its Python tracebacks: a program run under
 * debugpy that dies of an uncaught exception writes, before the user's frames, those of runpy,
 * debugpy's `__main__` and `cli.py`, and pydevd's runpy (about ten). Only such frames go, each
 * with the lines it quotes (its code, a caret), and only in a traceback: the leading frames
 * under a "Traceback (most recent call last):" line, up to the last one of debugpy's files
 * before a frame of any other file (a runpy frame with no debugpy frame after it stays). A line
 * in their place, in the same stream, says how many went (`note`), and carries how many lines
 * of the output it stands for. The program's frames, its other text and any other stream's
 * lines stay as written; where nothing goes, `entries` is returned itself.
 */
export function withoutDebuggerFrames<T extends OutputLine>(
  entries: readonly T[],
  note: (count: number) => string,
): readonly (T | LeftOutNote)[] {
  let kept: (T | LeftOutNote)[] | undefined;
  let copied = 0;
  for (let at = 0; at < entries.length; at++) {
    const header = entries[at]!;
    if (!tracebackHeader.test(header.text)) continue;
    // The frames right under the header, in its stream, while each is runpy's or debugpy's.
    let frames = 0;
    let dropTo = -1;
    let dropped = 0;
    let next = at + 1;
    while (next < entries.length && entries[next]!.category === header.category) {
      const file = tracebackFrame.exec(entries[next]!.text)?.[1];
      if (file === undefined) break;
      const ours = adapterFile.test(file);
      if (!ours && !runpyFile.test(file)) break;
      next++;
      while (
        next < entries.length &&
        entries[next]!.category === header.category &&
        frameQuote.test(entries[next]!.text)
      )
        next++;
      frames++;
      if (ours) {
        dropTo = next;
        dropped = frames;
      }
    }
    if (dropped === 0) continue;
    kept ??= [];
    const replaces = entries
      .slice(at + 1, dropTo)
      .reduce((lines, entry) => lines + (entry.text.endsWith("\n") ? 1 : 0), 0);
    kept.push(...entries.slice(copied, at + 1), {
      category: header.category,
      text: `${note(dropped)}\n`,
      replaces,
    });
    copied = dropTo;
    at = dropTo - 1;
  }
  if (!kept) return entries;
  kept.push(...entries.slice(copied));
  return kept;
}
