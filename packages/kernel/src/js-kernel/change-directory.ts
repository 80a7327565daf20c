import { closeSync, openSync, readSync } from "node:fs";
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

/** The user database `~name` is looked up in. */
export const passwdFile = "/etc/passwd";

/** The most of {@link passwdFile} read for one `~name` (a user listed past it is not found). */
const passwdBytesMax = 1 << 20;

/**
 * The home folder of user `name` as `file` (passwd format: `name:x:uid:gid:gecos:home:shell`)
 * lists it, reading at most 1 MiB; undefined when it does not, or cannot be read.
 */
export function userHome(name: string, file = passwdFile): string | undefined {
  let text: string;
  try {
    const fd = openSync(file, "r");
    try {
      const buffer = Buffer.alloc(passwdBytesMax);
      let length = 0;
      for (let read = -1; read !== 0 && length < buffer.length; length += read)
        read = readSync(fd, buffer, length, buffer.length - length, null);
      text = buffer.toString("utf8", 0, length);
    } finally {
      closeSync(fd);
    }
  } catch {
    return undefined;
  }
  for (const line of text.split("\n")) {
    const fields = line.split(":");
    if (fields.length >= 7 && fields[0] === name && fields[5] !== "") return fields[5];
  }
  return undefined;
}

/** The folder before the last `%cd`, for `%cd -`. */
let previousDirectory: string | undefined;

/**
 * JavaScript's `%cd <argument>`, as IPython's as far as it goes without Python: `-q` goes there
 * quietly, `-` goes back to the folder before the last `%cd`, nothing at all (or `~`) to the home
 * folder, `~/x` under it, `~name` (and `~name/x`) to user name's home as `passwd` lists it
 * (/etc/passwd; a user not there is refused), and one pair of quotes around the folder is dropped.
 * `$name` and `{expr}` are refused, not taken as a folder's name: Python's `%cd` expands them, and
 * a JavaScript cell computes a folder with `process.chdir(…)`. Returns the line to print (the new
 * folder), or undefined with `-q`; throws a CdError saying what was wrong.
 */
export function changeDirectory(argument: string, passwd = passwdFile): string | undefined {
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
  } else if (text.startsWith("~/")) {
    target = join(homedir(), text.slice(2));
  } else if (text.startsWith("~")) {
    const slash = text.indexOf("/");
    const name = text.slice(1, slash < 0 ? undefined : slash);
    const home = userHome(name, passwd);
    if (home === undefined)
      throw new CdError(
        `${line}: no user '${name}' in ${passwd}, so no home folder to go to (the cell is in ${here}); give the folder's path (one named so: %cd ./${text})`,
      );
    target = slash < 0 ? home : join(home, text.slice(slash + 1));
  } else {
    target = text;
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
