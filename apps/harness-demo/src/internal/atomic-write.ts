import { randomBytes } from "node:crypto";
import { chmod, mkdir, realpath, rename, rm, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join } from "node:path";

/** A temporary file next to `path`, written but not yet renamed into place. */
export interface StagedWrite {
  readonly path: string;
  readonly temporary: string;
}

/**
 * Writes `content` to a temporary file in the target's folder (creating parent folders), keeping
 * the existing file's mode; a symlink is written through to the file it points at. Nothing is visible at `path` until {@link commitWrite}.
 */
export async function stageWrite(path: string, content: string): Promise<StagedWrite> {
  // Write through a symlink to its target: renaming onto the link would replace the link itself.
  const target = await realpath(path).catch(() => path);
  const folder = dirname(target);
  await mkdir(folder, { recursive: true });
  const temporary = join(folder, `.${basename(target)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  const mode = await existingMode(target);
  await writeFile(temporary, content, { encoding: "utf8", flag: "wx" });
  if (mode !== undefined) await chmod(temporary, mode);
  return { path: target, temporary };
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
    throw error;
  }
}

async function existingMode(path: string): Promise<number | undefined> {
  try {
    return (await stat(path)).mode & 0o7777;
  } catch {
    return undefined;
  }
}
