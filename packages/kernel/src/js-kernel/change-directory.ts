import { homedir } from "node:os";
import { join } from "node:path";

/**
 * `%cd` could not go there, or cannot read its argument: shown as its one line (`CdError: …`),
 * not as a stack of the rewritten line.
 */
export class CdError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CdError";
  }
}

/** The folder before the last `%cd`, for `%cd -`. */
let previousDirectory: string | undefined;

/**
 * JavaScript's `%cd <argument>`, as IPython's as far as it goes without Python: `-q` goes there
 * quietly, `-` goes back to the folder before the last `%cd`, nothing at all (or `~`) to the home
 * folder, `~/x` under it, and one pair of quotes around the folder is dropped. `$name` and
 * `{expr}` are refused, not taken as a folder's name: Python's `%cd` expands them, and a
 * JavaScript cell computes a folder with `process.chdir(…)`. Returns the line to print (the new
 * folder), or undefined with `-q`; throws a CdError saying what was wrong.
 */
export function changeDirectory(argument: string): string | undefined {
  let text = argument.trim();
  const line = `%cd ${text}`.trim();
  let quiet = false;
  while (/^-q(\s|$)/.test(text)) {
    quiet = true;
    text = text.slice(2).trim();
  }
  if (text.length >= 2 && text[0] === text.at(-1) && (text[0] === "'" || text[0] === '"')) {
    text = text.slice(1, -1);
  } else if (/\$[A-Za-z_{]|\{[^}]*\}/.test(text)) {
    throw new CdError(
      `${line}: JavaScript's %cd does not expand $name or {expr} (Python's does); quote a folder named so ('${text}'), or go to a computed one with process.chdir(…)`,
    );
  }
  const here = process.cwd();
  let target: string;
  if (text === "-") {
    if (previousDirectory === undefined)
      throw new CdError(`${line}: there is no previous folder yet (no %cd before this one)`);
    target = previousDirectory;
  } else if (text === "" || text === "~") {
    target = homedir();
  } else {
    target = text.startsWith("~/") ? join(homedir(), text.slice(2)) : text;
  }
  try {
    process.chdir(target);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const where = `(the cell is in ${here})`;
    if (code === "ENOENT") throw new CdError(`${line}: no such folder: '${target}' ${where}`);
    if (code === "ENOTDIR") throw new CdError(`${line}: '${target}' is a file, not a folder ${where}`);
    if (code === "EACCES") throw new CdError(`${line}: no permission to enter '${target}' ${where}`);
    throw new CdError(`${line}: ${(error as Error).message} ${where}`);
  }
  previousDirectory = here;
  return quiet ? undefined : process.cwd();
}
