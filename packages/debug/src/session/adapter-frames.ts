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
const tracebackFrame = /^ {2}File "([^"]+)", line (\d+)/;

/** A line a frame quotes under its `File` line: its code. */
const frameQuote = /^ {4,}\S/;

/** A line under a frame's code that marks a part of it (Python 3.11+): carets and tildes. */
const caretLine = /^ {4,}[~^][~^ ]*$/;

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
 * The text of a 1-based line of a file (trimmed, at most 200 characters, as `sourceLine` gives
 * it), or undefined when the file cannot be read.
 */
export type SourceLookup = (path: string, line: number) => string | undefined;

/** The frame whose quoted lines are being read. */
interface Frame {
  readonly file: string;
  /** The line its next code line quotes. */
  line: number;
  /** Whether a code line of it was read (a caret line may follow only then). */
  quoted: boolean;
  /** How many indented lines (caret lines aside) the stream has under it (see {@link indentedFrom}). */
  readonly indented: number;
}

/**
 * What `text` is to `frame`: one of its code lines, a caret line under its code, or neither (a
 * line another thread wrote between the traceback's lines, say). A frame of a file that is
 * none (`<frozen runpy>`) quotes nothing. An indented line is its code when it is the only one
 * under the frame (no file is read); where there are several, those that are the file's text
 * at the frame's next lines (as `source` reads it: Python quoted the same file), and none when
 * the file cannot be read.
 */
function quoteOf(text: string, frame: Frame, source: SourceLookup): "code" | "caret" | undefined {
  const line = text.replace(/\r?\n$/, "");
  if (frame.quoted && caretLine.test(line)) return "caret";
  if (!frameQuote.test(line) || frame.file.startsWith("<")) return undefined;
  if (frame.indented === 1) return frame.quoted ? undefined : "code";
  return line.trim().slice(0, 200) === source(frame.file, frame.line) ? "code" : undefined;
}

/**
 * How many indented lines other than caret lines the stream has from `index` on, up to its next
 * line that is not indented (the next frame, the error, a line of another thread).
 */
function indentedFrom<T extends OutputLine>(entries: readonly T[], index: number, stream: string): number {
  let count = 0;
  for (let at = index; at < entries.length; at++) {
    const text = entries[at]!.text.replace(/\r?\n$/, "");
    if (entries[at]!.category !== stream) continue;
    if (!frameQuote.test(text)) break;
    if (!caretLine.test(text)) count++;
  }
  return count;
}

/** No file is read: where a frame has several indented lines, none is taken as its code (see {@link quoteOf}). */
const noSource: SourceLookup = () => undefined;

/**
 * The output without the frames of the debugger in its Python tracebacks: a program run under
 * debugpy that dies of an uncaught exception writes, before the user's frames, those of runpy,
 * debugpy's `__main__` and `cli.py`, and pydevd's runpy (about ten). Only such frames go, each
 * with the lines it quotes (its code, as `source` reads it from the file, and a caret line),
 * and only in a traceback: the leading frames under a "Traceback (most recent call last):"
 * line, up to the last one of debugpy's files before a frame of any other file (a runpy frame
 * with no debugpy frame after it stays). A line in their place, in the same stream, says how
 * many went (`note`), and carries how many lines of the output it stands for. A line between
 * those frames that is none of theirs (another thread's, even indented like a frame's code;
 * another stream's), with more of them after it, stays, right after that note. The program's
 * frames, its other text and any other stream's lines stay as written; where nothing goes,
 * `entries` is returned itself.
 */
export function withoutDebuggerFrames<T extends OutputLine>(
  entries: readonly T[],
  note: (count: number) => string,
  source: SourceLookup = noSource,
): readonly (T | LeftOutNote)[] {
  let kept: (T | LeftOutNote)[] | undefined;
  let copied = 0;
  for (let at = 0; at < entries.length; at++) {
    const header = entries[at]!;
    if (!tracebackHeader.test(header.text)) continue;
    const stream = header.category;
    /** A frame line of the run (runpy's or debugpy's) in the header's stream, else undefined. */
    const runFrame = (entry: T): RegExpExecArray | undefined => {
      if (entry.category !== stream) return undefined;
      const frame = tracebackFrame.exec(entry.text);
      return frame && (adapterFile.test(frame[1]!) || runpyFile.test(frame[1]!)) ? frame : undefined;
    };
    // The frames right under the header, in its stream, while each is runpy's or debugpy's.
    let frames = 0;
    let dropTo = -1;
    let dropped = 0;
    let frame: Frame | undefined;
    let ours = false;
    const between: number[] = [];
    // Where the frames go on after lines kept between them (see below).
    let goesOnAt = -1;
    let next = at + 1;
    while (next < entries.length) {
      const entry = entries[next]!;
      const found = runFrame(entry);
      if (found) {
        frame = {
          file: found[1]!,
          line: Number(found[2]),
          quoted: false,
          indented: indentedFrom(entries, next + 1, stream),
        };
        ours = adapterFile.test(frame.file);
        frames++;
        next++;
        if (ours) {
          dropTo = next;
          dropped = frames;
        }
        continue;
      }
      if (!frame) break;
      const quote = entry.category === stream ? quoteOf(entry.text, frame, source) : undefined;
      if (quote) {
        if (quote === "code") {
          frame.quoted = true;
          frame.line++;
        }
        next++;
        if (ours) dropTo = next;
        continue;
      }
      // A frame of any other file (the user's) ends the leading frames: debugpy's after it stay.
      if (entry.category === stream && tracebackFrame.test(entry.text)) break;
      // Another line: kept, and the frames go on after it when the stream's next line that is
      // not indented (past the frame's quoted lines and other such lines) is one of them.
      if (goesOnAt <= next) {
        let after = next + 1;
        while (
          after < entries.length &&
          (entries[after]!.category !== stream || frameQuote.test(entries[after]!.text))
        )
          after++;
        if (after >= entries.length || runFrame(entries[after]!) === undefined) break;
        goesOnAt = after;
      }
      between.push(next);
      next++;
    }
    if (dropped === 0) continue;
    kept ??= [];
    const stays = between.filter((index) => index < dropTo);
    const replaces = entries
      .slice(at + 1, dropTo)
      .filter((_, offset) => !stays.includes(at + 1 + offset))
      .reduce((lines, entry) => lines + (entry.text.endsWith("\n") ? 1 : 0), 0);
    kept.push(
      ...entries.slice(copied, at + 1),
      { category: stream, text: `${note(dropped)}\n`, replaces },
      ...stays.map((index) => entries[index]!),
    );
    copied = dropTo;
    at = dropTo - 1;
  }
  if (!kept) return entries;
  kept.push(...entries.slice(copied));
  return kept;
}
