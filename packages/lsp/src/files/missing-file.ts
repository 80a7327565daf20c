import { lstatSync, readdirSync, readlinkSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { LspError } from "../errors/lsp-error.js";

/** Most names of the file's folder listed in {@link missingFileError}. */
const listedNames = 10;

/** Whether `error` says a path does not exist (ENOENT, or a folder on the way that is a file: ENOTDIR). */
export function isMissing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/**
 * Throws `LSP_FILE_NOT_FOUND` (see {@link missingFileError}) when `file` does not exist: checked
 * before anything else of an action that takes a file, so neither a server is started for it nor
 * its missing root marker reported. A folder, or a file that cannot be read, is left to the action.
 */
export function requireExistingFile(file: string, display: (path: string) => string): void {
  try {
    statSync(file);
  } catch (error) {
    if (isMissing(error)) throw missingFileError(file, display, error);
  }
}

/**
 * `LSP_FILE_NOT_FOUND` for `file`: it does not exist (deleted, or never created), what to give
 * instead, and what its folder holds (or that the folder does not exist either).
 */
export function missingFileError(file: string, display: (path: string) => string, cause?: unknown): LspError {
  const folder = dirname(file);
  const shown = display(folder);
  const named = shown === "." || shown === "" ? "the working directory" : `${shown}/`;
  let there: string;
  const folderLink = danglingLink(folder);
  try {
    const names = readdirSync(folder, { withFileTypes: true })
      .filter((entry) => !entry.name.startsWith("."))
      .map((entry) => (entry.isDirectory() ? `${entry.name}/` : entry.name))
      .sort();
    const more = names.length > listedNames ? ` and ${names.length - listedNames} more` : "";
    there =
      names.length === 0
        ? `${named} is empty`
        : `${named} holds ${names.slice(0, listedNames).join(", ")}${more}`;
  } catch {
    there =
      folderLink !== undefined
        ? `${display(folder)} is a symbolic link to ${display(folderLink)}, which does not exist`
        : `there is no folder ${named} either`;
  }
  // A link whose target is gone is listed in its folder: "does not exist" alone would contradict it.
  const link = danglingLink(file);
  const what =
    link !== undefined
      ? `${display(file)} is a symbolic link to ${display(link)}, which does not exist`
      : `${display(file)} does not exist (deleted or never created)`;
  return new LspError({
    code: "LSP_FILE_NOT_FOUND",
    message: `${what}: give the path of an existing file, relative to the working directory; ${there}`,
    ...(cause !== undefined ? { cause } : {}),
  });
}

/** The target `path` links to, when `path` is a symbolic link (whose target is then missing); else undefined. */
function danglingLink(path: string): string | undefined {
  try {
    if (!lstatSync(path).isSymbolicLink()) return undefined;
    return resolve(dirname(path), readlinkSync(path));
  } catch {
    return undefined;
  }
}
