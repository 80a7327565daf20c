import { ToolsError } from "@tools/registry";

/**
 * True when `path` ends with `/` (or `/.`): POSIX reads such a path as a folder, so a file there
 * is `ENOTDIR`, and resolving it (which drops the slash) must not turn it into the file's path.
 */
export function namesFolder(path: string): boolean {
  return /\/\.?$/.test(path);
}

/**
 * Throws `NOT_A_FILE_PATH` when `path` ends with `/`, for a tool that takes a file path there.
 * `detail` continues "it names a folder" (", and write creates files").
 */
export function refuseFolderPath(path: string, detail: string): void {
  if (!namesFolder(path)) return;
  const file = path.replace(/\/+\.?$/, "");
  throw new ToolsError({
    code: "NOT_A_FILE_PATH",
    message: `'${path}' ends with '/', so it names a folder${detail}; ${file === "" ? "give a file path" : `drop the trailing '/' ('${file}') to name the file`}`,
    data: { path },
  });
}

/**
 * Throws `TILDE_PATH` when `path` starts with `~` as a home folder (`~` alone, `~/…`, or `~user/…`:
 * a `~` followed by a name and a slash): paths are relative to the working directory and nothing
 * expands `~`, so `~/x.txt` would be a folder named `~` in it. Other names starting with `~`
 * (`~backup.txt`, `~$doc.docx`) are files.
 */
export function refuseTildePath(path: string): void {
  // `~backup.txt` or `~$doc.docx` are plain names: only `~`, `~/…` and `~user/…` mean a home.
  if (!/^~(?:$|\/|[A-Za-z_][A-Za-z0-9._-]*\/)/.test(path)) return;
  throw new ToolsError({
    code: "TILDE_PATH",
    message: `'${path}' starts with '~', which is not expanded here: paths are relative to the working directory (or absolute inside it). Give the path from the working directory, or './${path}' for a file or folder really named '${path.split("/")[0]}'`,
    data: { path },
  });
}
