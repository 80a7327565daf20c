import { createHash, randomBytes } from "node:crypto";
import * as fs from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { StructuralError } from "../errors/structural-error.js";
import type { StagedEdit } from "./staged-edits.js";

/** The file operations `applyStagedEdit` uses; tests inject failures here. */
export interface FileOperations {
  readFile(path: string): Promise<Uint8Array>;
  writeFile(path: string, data: string | Uint8Array, options: { mode: number }): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  stat(path: string): Promise<{ mode: number }>;
}

/** The real file system. */
export const nodeFileOperations: FileOperations = {
  readFile: (path) => fs.readFile(path),
  writeFile: (path, data, options) => fs.writeFile(path, data, { mode: options.mode }),
  rename: (from, to) => fs.rename(from, to),
  unlink: (path) => fs.unlink(path),
  stat: (path) => fs.stat(path),
};

async function writeAtomically(
  ops: FileOperations,
  path: string,
  data: string | Uint8Array,
  mode: number,
): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    await ops.writeFile(temp, data, { mode });
    await ops.rename(temp, path);
  } catch (error) {
    await ops.unlink(temp).catch(() => undefined);
    throw error;
  }
}

/**
 * Writes a staged edit, all or nothing. Every file is re-read first; any byte differing from what
 * was staged rejects the whole change (`EDIT_STALE`, naming the files) before anything is
 * written. Each file is then written through a temp file and a rename; if one write fails, the
 * files already written are restored from the bytes just read (`WRITE_FAILED`). Returns the
 * absolute paths written.
 */
export async function applyStagedEdit(
  edit: StagedEdit,
  ops: FileOperations = nodeFileOperations,
): Promise<string[]> {
  const originals = new Map<string, { bytes: Uint8Array; mode: number }>();
  const moved: string[] = [];
  for (const file of edit.files) {
    try {
      const bytes = await ops.readFile(file.path);
      const { mode } = await ops.stat(file.path);
      const hash = createHash("sha256").update(bytes).digest("hex");
      if (hash !== file.originalHash) moved.push(`${file.relativePath} (changed)`);
      originals.set(file.path, { bytes, mode });
    } catch {
      moved.push(`${file.relativePath} (unreadable or deleted)`);
    }
  }
  if (moved.length > 0) {
    throw new StructuralError({
      code: "EDIT_STALE",
      message:
        `${edit.id} was rejected and nothing was written: ${moved.length} of ${edit.files.length} file(s) changed since it was staged: ` +
        `${moved.join(", ")}. Run ast_edit again to stage the change against the current files.`,
      data: { editId: edit.id, moved },
    });
  }
  const written: string[] = [];
  for (const file of edit.files) {
    const original = originals.get(file.path);
    if (!original) continue;
    try {
      await writeAtomically(ops, file.path, file.newText, original.mode & 0o7777);
      written.push(file.path);
    } catch (error) {
      const notRestored: string[] = [];
      for (const path of written) {
        const backup = originals.get(path);
        if (!backup) continue;
        await writeAtomically(ops, path, backup.bytes, backup.mode & 0o7777).catch(() =>
          notRestored.push(path),
        );
      }
      const reason = error instanceof Error ? error.message : String(error);
      throw new StructuralError({
        code: "WRITE_FAILED",
        message:
          `${edit.id} could not be written: ${file.relativePath}: ${reason}. ` +
          (notRestored.length === 0
            ? `The ${written.length} file(s) already written were restored; every file is as it was.`
            : `These files could NOT be restored: ${notRestored.join(", ")}.`),
        cause: error,
        data: { editId: edit.id, notRestored },
      });
    }
  }
  return written;
}
