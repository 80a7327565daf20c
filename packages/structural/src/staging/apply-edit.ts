import { nodeFileOperations, warningNotes, writeFiles, type FileOperations } from "@tools/registry";
import { StructuralError } from "../errors/structural-error.js";
import type { StagedEdit } from "./staged-edits.js";

export { nodeFileOperations, type FileOperations };

/**
 * Writes a staged edit, all or nothing (through the registry's `writeFiles`). Every file is
 * re-read first; any byte differing from what was staged rejects the whole change
 * (`EDIT_STALE`, naming the files) before anything is written. Each file is then written
 * through a temp file and a rename; if one write fails, the files already written are restored
 * from the bytes just read (`WRITE_FAILED`). Returns the absolute paths written.
 */
export async function applyStagedEdit(
  edit: StagedEdit,
  ops: FileOperations = nodeFileOperations,
): Promise<string[]> {
  return (await writeStagedEdit(edit, ops)).written;
}

/** What {@link writeStagedEdit} wrote, and what `writeFiles` found besides. */
export interface StagedEditWritten {
  /** The absolute paths written. */
  readonly written: string[];
  /**
   * A change set another process left half written, which `writeFiles` rolled back before this
   * one (in words, naming the files put back); empty when there was none.
   */
  readonly warnings: readonly string[];
}

/**
 * {@link applyStagedEdit}, also returning the outcome's warnings for the tool's answer; an
 * error's message ends with them too.
 */
export async function writeStagedEdit(
  edit: StagedEdit,
  ops: FileOperations = nodeFileOperations,
  /** The run's working directory, named in the write's journal (see `writeFiles`). */
  workspace?: string,
): Promise<StagedEditWritten> {
  const outcome = await writeFiles(
    edit.files.map((file) => ({
      path: file.path,
      label: file.relativePath,
      expected: { sha256: file.originalHash },
      content: file.newText,
    })),
    ops,
    workspace === undefined ? {} : { workspace },
  );
  const notes = warningNotes(outcome.warnings);
  if (outcome.ok) return { written: [...outcome.changed], warnings: outcome.warnings ?? [] };
  if (outcome.moved) {
    const moved = outcome.moved.map(
      (file) => `${file.label} (${file.reason === "changed" ? "changed" : "unreadable or deleted"})`,
    );
    throw new StructuralError({
      code: "EDIT_STALE",
      message:
        `${edit.id} was rejected and nothing was written: ${moved.length} of ${edit.files.length} file(s) changed since it was staged: ` +
        `${moved.join(", ")}. Run ast_edit again to stage the change against the current files.${notes}`,
      data: { editId: edit.id, moved },
    });
  }
  throw new StructuralError({
    code: "WRITE_FAILED",
    message:
      `${edit.id} could not be written: ${outcome.failed}: ${outcome.reason}. ` +
      (outcome.notRestored.length === 0
        ? `The ${outcome.restored} file(s) already written were restored; every file is as it was.`
        : `These files could NOT be restored: ${outcome.notRestored.join(", ")}.`) +
      notes,
    cause: outcome.cause,
    data: { editId: edit.id, notRestored: outcome.notRestored },
  });
}
