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
