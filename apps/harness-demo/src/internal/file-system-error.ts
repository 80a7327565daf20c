import { lstat } from "node:fs/promises";
import { dirname } from "node:path";
import { ToolsError } from "@tools/registry";
import { displayPath } from "./display-path.js";
import { nameTooLong } from "./atomic-write.js";

/**
 * The first folder above `path` that is there but is not a folder (a file where a folder is
 * needed), or undefined.
 */
async function fileInTheWay(path: string): Promise<string | undefined> {
  for (let folder = dirname(path); dirname(folder) !== folder; folder = dirname(folder)) {
    const info = await lstat(folder).catch(() => undefined);
    if (!info) continue;
    if (info.isSymbolicLink() || info.isDirectory()) return undefined;
    return folder;
  }
  return undefined;
}

/**
 * A file-system failure of a write to `path` (absolute) told in the agent's terms: `what` failed
 * and the `advice`, and `message`: both with "nothing was changed" between them.
 * `workingDirectory` makes paths relative. Returns undefined for a failure it has no words for
 * (the caller reports it as it came).
 */
export async function describeWriteFailure(
  error: unknown,
  path: string,
  workingDirectory: string,
): Promise<{ code: string; what: string; advice: string; message: string } | undefined> {
  const described = await describe(error, path, workingDirectory);
  if (!described) return undefined;
  const shown = displayPath(workingDirectory, path);
  const message =
    described.code === "NAME_TOO_LONG"
      ? described.what
      : `could not write ${shown}: ${described.what}; nothing was changed. ${described.advice}`;
  return { ...described, message };
}

async function describe(
  error: unknown,
  path: string,
  workingDirectory: string,
): Promise<{ code: string; what: string; advice: string } | undefined> {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const shown = displayPath(workingDirectory, path);
  switch (code) {
    case "EACCES":
    case "EPERM":
    case "EROFS":
      return {
        code: "PERMISSION_DENIED",
        what:
          code === "EROFS"
            ? "the file system is read-only"
            : "permission denied (the file or its folder is not writable, or is immutable)",
        advice: "Check the permissions (shell: ls -ld on the folder, lsattr) or write elsewhere",
      };
    case "ENOSPC":
    case "EDQUOT":
      return {
        code: "NO_SPACE",
        what: `no space left on the device${code === "EDQUOT" ? " (disk quota exceeded)" : ""}`,
        advice: "Free disk space (shell: df -h) and try again",
      };
    case "EEXIST":
    case "ENOTDIR": {
      const blocker = await fileInTheWay(path);
      if (blocker === undefined) return undefined;
      return {
        code: "PARENT_IS_A_FILE",
        what: `${displayPath(workingDirectory, blocker)} is a file, not a folder, so nothing can be created inside it`,
        advice: "Choose another path",
      };
    }
    case "EISDIR":
      return {
        code: "IS_A_DIRECTORY",
        what: `${shown} is a folder, not a file`,
        advice: "Give a file path",
      };
    default: {
      const tooLong = nameTooLong(error, path);
      return tooLong && { code: "NAME_TOO_LONG", what: tooLong.message, advice: "" };
    }
  }
}

/** {@link describeWriteFailure} as a ToolsError, or the error itself when it has no words for it. */
export async function writeFailure(error: unknown, path: string, workingDirectory: string): Promise<unknown> {
  const described = await describeWriteFailure(error, path, workingDirectory);
  if (!described) return error;
  return new ToolsError({ code: described.code, message: described.message, data: { path }, cause: error });
}

/**
 * A failure to read the file `path` (absolute) for a change, told in the agent's terms: a folder,
 * a FIFO, missing (ENOENT, or ENOTDIR: a parent that is a file), no permission, a name too long;
 * any other failure is `READ_FAILED`, naming the path and the error's code. `tool` names the
 * caller ("edit").
 */
export async function readFailure(
  error: unknown,
  path: string,
  workingDirectory: string,
  tool: string,
): Promise<ToolsError> {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const shown = displayPath(workingDirectory, path);
  const make = (errorCode: string, message: string) =>
    new ToolsError({ code: errorCode, message, data: { path }, cause: error });
  switch (code) {
    case "EISDIR":
      return make(
        "IS_A_DIRECTORY",
        `${shown} is a folder, not a file; ${tool} changes files (give a file path inside it)`,
      );
    case "EINVAL":
      return make(
        "NOT_A_FILE",
        `${shown} is a FIFO, socket or device, not a regular file; ${tool} changes regular files only`,
      );
    case "EACCES":
    case "EPERM":
      return make(
        "PERMISSION_DENIED",
        `could not read ${shown}: permission denied; nothing was changed. Check its permissions (shell: ls -l)`,
      );
    case "ENAMETOOLONG":
      return nameTooLong(error, path) as ToolsError;
    case "ENOTDIR": {
      const blocker = await fileInTheWay(path);
      if (blocker !== undefined) {
        return make(
          "FILE_NOT_FOUND",
          `${shown} does not exist: ${displayPath(workingDirectory, blocker)} is a file, not a folder`,
        );
      }
      return make("FILE_NOT_FOUND", `${shown} does not exist; to create it use write`);
    }
    case "ENOENT":
      return make("FILE_NOT_FOUND", `${shown} does not exist; to create it use write`);
  }
  // Any other failure (EMFILE, EIO, ELOOP, …) is not a missing file: told as it came, with its code.
  const reason = error instanceof Error ? error.message : String(error);
  return make(
    "READ_FAILED",
    `could not read ${shown}${code ? ` (${code})` : ""}: ${reason}; nothing was changed. Try again, or look at the file with the shell`,
  );
}
