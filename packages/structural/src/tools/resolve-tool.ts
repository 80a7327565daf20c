import { defineTool, textResult, warningNotes } from "@tools/registry";
import { z } from "zod";
import { StructuralError } from "../errors/structural-error.js";
import { structuralParserKey } from "../parser/structural-parser.js";
import { nodeFileOperations, writeStagedEdit, type FileOperations } from "../staging/apply-edit.js";
import { stagedEditsKey } from "../staging/staged-edits.js";
import { plural } from "./scope.js";

/** Builds the `resolve` tool; `files` replaces the file operations (tests inject failures). */
export function createResolveTool(files: FileOperations = nodeFileOperations) {
  return defineTool({
    name: "resolve",
    tier: "write",
    parallelSafe: false,
    description: [
      "Accept or discard a change staged by ast_edit. accept re-reads every file; if any changed since staging, the whole",
      "change is rejected and nothing is written. Otherwise all files are written, or none are.",
      'Example: resolve(edit_id: "edit_1", action: "accept").',
    ].join(" "),
    input: z.object({
      edit_id: z.string().min(1).describe('The id from the (proposed) result, e.g. "edit_1"'),
      action: z.enum(["accept", "discard"]).describe("accept writes the staged change; discard drops it"),
    }),
    requires: [structuralParserKey],
    // The staged files, so workspace containment checks them again as they are now (a folder
    // swapped for a symlink out of the working directory since staging is refused, nothing
    // written) and a result wrapper knows from the start which files this call writes.
    paths: (input, run) =>
      input.action === "accept"
        ? (run
            .state(stagedEditsKey)
            .pending.get(input.edit_id)
            ?.files.map((file) => file.path) ?? [])
        : [],
    summarize: (input) => `${input.action} staged change ${input.edit_id}`,
    async execute(input, context) {
      const ledger = context.run.state(stagedEditsKey);
      const edit = ledger.pending.get(input.edit_id);
      if (!edit) {
        const how = ledger.resolved.get(input.edit_id);
        const pending = [...ledger.pending.keys()];
        throw new StructuralError({
          code: "UNKNOWN_EDIT",
          message:
            (how
              ? `${input.edit_id} was already ${how}`
              : `no staged change '${input.edit_id}' in this run`) +
            (pending.length > 0
              ? `; pending: ${pending.join(", ")}`
              : "; nothing is pending (stage one with ast_edit)"),
        });
      }
      ledger.pending.delete(edit.id);
      if (input.action === "discard") {
        ledger.resolved.set(edit.id, "discarded");
        return `${edit.id} discarded; nothing was written`;
      }
      try {
        const { written, warnings } = await writeStagedEdit(edit, files, context.run.workingDirectory);
        ledger.resolved.set(edit.id, "accepted");
        const replacements = edit.files.reduce((sum, file) => sum + file.replacements, 0);
        const list = edit.files.map((file) => `  ${file.relativePath}`).join("\n");
        return textResult(
          `${edit.id} accepted: ${plural(replacements, "replacement")} written to ${plural(written.length, "file")}\n${list}` +
            warningNotes(warnings),
          {
            changedFiles: written,
          },
        );
      } catch (error) {
        if (StructuralError.isInstance(error) && error.code === "WRITE_FAILED") {
          // Every file was restored, so the staged change still applies: keep it for a retry.
          ledger.pending.set(edit.id, edit);
        } else {
          ledger.resolved.set(edit.id, "rejected because files changed after staging");
        }
        throw error;
      }
    },
  });
}

/** `resolve` (write tier): accepts or discards a staged structural change. */
export const resolveTool = createResolveTool();
