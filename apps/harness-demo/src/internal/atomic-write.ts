import { ToolsError, fileNameMaxBytes, warningNotes, writeFiles } from "@tools/registry";

/**
 * Writes a file atomically through the registry's `writeFiles` (a temporary file beside it,
 * then a rename): parent folders are created, an existing file's mode is kept, and a symlink is
 * written through to the file it points at. The temporary name fits in the registry's `fileNameMaxBytes`
 * whatever the target's name; a target whose own name or path is too long is refused with
 * `NAME_TOO_LONG`. With `expected` (the bytes the caller read), a file another writer changed
 * since is not overwritten: `FILE_CHANGED`, naming it as `shown`. Any other failure is thrown as
 * the file system reported it. Returns the outcome's warnings (a change set another process left
 * half written and `writeFiles` rolled back first), for the tool's answer: see `warningNotes` in @tools/registry.
 */
export async function writeFileAtomic(
  path: string,
  content: string,
  options: { expected?: Uint8Array; shown?: string; workspace?: string } = {},
): Promise<readonly string[]> {
  const outcome = await writeFiles(
    [{ path, content, expected: options.expected }],
    undefined,
    options.workspace === undefined ? {} : { workspace: options.workspace },
  );
  if (outcome.ok) return outcome.warnings ?? [];
  if (outcome.moved) {
    const shown = options.shown ?? path;
    const how = outcome.moved[0]?.reason === "deleted" ? "was deleted" : "changed on disk";
    throw new ToolsError({
      code: "FILE_CHANGED",
      message: `${shown} ${how} since it was read for this call (another command or call wrote it meanwhile); nothing was written. Read it again and redo the change.${warningNotes(outcome.warnings)}`,
      data: { path },
    });
  }
  throw nameTooLong(outcome.cause, path) ?? outcome.cause;
}

/** `NAME_TOO_LONG` for an `ENAMETOOLONG` error of a write to `path`, else undefined. */
export function nameTooLong(error: unknown, path: string): ToolsError | undefined {
  if ((error as NodeJS.ErrnoException | undefined)?.code !== "ENAMETOOLONG") return undefined;
  const long = path.split("/").find((part) => Buffer.byteLength(part) > fileNameMaxBytes);
  return new ToolsError({
    code: "NAME_TOO_LONG",
    message:
      long === undefined
        ? `the path is too long for the file system (${Buffer.byteLength(path)} bytes); use shorter folder or file names`
        : `the name '${long.length > 40 ? `${long.slice(0, 40)}…` : long}' is ${Buffer.byteLength(long)} bytes; a file or folder name may be at most ${fileNameMaxBytes} bytes: use a shorter name`,
    data: { path },
    cause: error,
  });
}
