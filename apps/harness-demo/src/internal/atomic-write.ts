import { createHash, randomBytes } from "node:crypto";
import { chmod, mkdir, realpath, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { ToolsError } from "@tools/registry";

/** The longest file name (bytes) of the file systems Linux and macOS use (NAME_MAX). */
export const maxNameBytes = 255;

/** A temporary file next to `path`, written but not yet renamed into place. */
export interface StagedWrite {
  readonly path: string;
  readonly temporary: string;
}

/**
 * Writes `content` to a temporary file in the target's folder (creating parent folders), keeping
 * the existing file's mode; a symlink is written through to the file it points at. Nothing is visible at `path` until {@link commitWrite}.
 * The temporary name fits in {@link maxNameBytes} whatever the target's name (see
 * {@link stagingName}); a target whose own name or path is too long is refused with
 * `NAME_TOO_LONG`.
 */
export async function stageWrite(path: string, content: string): Promise<StagedWrite> {
  // Write through a symlink to its target: renaming onto the link would replace the link itself.
  const target = await realpath(path).catch(() => path);
  const folder = dirname(target);
  try {
    await mkdir(folder, { recursive: true });
    const temporary = join(folder, stagingName(basename(target)));
    const mode = await existingMode(target);
    await writeFile(temporary, content, { encoding: "utf8", flag: "wx" });
    if (mode !== undefined) await chmod(temporary, mode);
    return { path: target, temporary };
  } catch (error) {
    throw nameTooLong(error, path) ?? error;
  }
}

/**
 * The temporary file's name for a target named `name`: `.name.PID.RANDOM.tmp`, or, when that
 * would pass {@link maxNameBytes}, the name cut (on a character boundary) and a hash of the whole
 * name in its place, so two long names that start alike still get different temporary files.
 */
export function stagingName(name: string): string {
  const suffix = `.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  const whole = `.${name}${suffix}`;
  if (Buffer.byteLength(whole) <= maxNameBytes) return whole;
  const hash = `~${createHash("sha256").update(name).digest("hex").slice(0, 16)}`;
  const room = maxNameBytes - 1 - Buffer.byteLength(hash) - Buffer.byteLength(suffix);
  let kept = "";
  for (const char of name) {
    if (Buffer.byteLength(kept + char) > room) break;
    kept += char;
  }
  return `.${kept}${hash}${suffix}`;
}

/** `NAME_TOO_LONG` for an `ENAMETOOLONG` error of a write to `path`, else undefined. */
export function nameTooLong(error: unknown, path: string): ToolsError | undefined {
  if ((error as NodeJS.ErrnoException | undefined)?.code !== "ENAMETOOLONG") return undefined;
  const long = path.split("/").find((part) => Buffer.byteLength(part) > maxNameBytes);
  return new ToolsError({
    code: "NAME_TOO_LONG",
    message:
      long === undefined
        ? `the path is too long for the file system (${Buffer.byteLength(path)} bytes); use shorter folder or file names`
        : `the name '${long.length > 40 ? `${long.slice(0, 40)}…` : long}' is ${Buffer.byteLength(long)} bytes; a file or folder name may be at most ${maxNameBytes} bytes: use a shorter name`,
    data: { path },
    cause: error,
  });
}

/** Moves a staged file into place: a rename, so readers see the old or the new file, never half. */
export async function commitWrite(staged: StagedWrite): Promise<void> {
  await rename(staged.temporary, staged.path);
}

/** Removes a staged file that will not be committed. */
export async function discardWrite(staged: StagedWrite): Promise<void> {
  await rm(staged.temporary, { force: true });
}

/** Writes a file atomically: temporary file in the same folder, then rename. */
export async function writeFileAtomic(path: string, content: string): Promise<void> {
  const staged = await stageWrite(path, content);
  try {
    await commitWrite(staged);
  } catch (error) {
    await discardWrite(staged);
    throw nameTooLong(error, path) ?? error;
  }
}

async function existingMode(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).mode & 0o7777;
  } catch {
    return undefined;
  }
}
