import { readFile, stat } from "node:fs/promises";
import { ToolsError } from "@tools/registry";
import { looksBinary } from "../internal/binary-content.js";
import { applyHunks } from "./apply-hunks.js";
import type { PatchOperation } from "./parse-patch.js";

/** What one file becomes: new text, or deleted (`content` undefined). */
export interface PlannedFile {
  readonly absolute: string;
  readonly content: string | undefined;
}

/** The whole outcome of a patch, computed before anything is written. */
export interface PatchPlan {
  /** Files to write or delete, in patch order. */
  readonly files: readonly PlannedFile[];
  /** One `A`/`M`/`D`/`R` line per operation, git-status style. */
  readonly summary: readonly string[];
}

function failure(message: string): ToolsError {
  return new ToolsError({ code: "PATCH_FAILED", message: `${message}. Nothing was written.` });
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}

async function readLines(
  absolute: string,
  path: string,
): Promise<{ lines: string[]; eol: string; finalNewline: boolean }> {
  const bytes = await readFile(absolute).catch(() => undefined);
  if (!bytes) throw failure(`Update File ${path}: the file does not exist (use Add File to create it)`);
  if (looksBinary(bytes)) throw failure(`Update File ${path}: the file is binary`);
  const text = bytes.toString("utf8");
  const eol = text.includes("\r\n") ? "\r\n" : "\n";
  const lines = text.split(/\r?\n/);
  const finalNewline = text === "" || text.endsWith("\n");
  if (finalNewline) lines.pop();
  return { lines, eol, finalNewline };
}

/**
 * Computes every file's new content from parsed operations, reading the current files, and
 * fails — before anything is written — on the first operation that cannot apply.
 * `resolve` maps a patch path to an absolute path inside the working directory.
 */
export async function planPatch(
  operations: readonly PatchOperation[],
  resolve: (path: string) => string,
): Promise<PatchPlan> {
  const files = new Map<string, PlannedFile>();
  const summary: string[] = [];
  const claim = (absolute: string, path: string) => {
    if (files.has(absolute))
      throw failure(`${path} appears more than once in the patch; combine its changes`);
  };
  for (const operation of operations) {
    const absolute = resolve(operation.path);
    claim(absolute, operation.path);
    if (operation.kind === "add") {
      if (await exists(absolute)) {
        throw failure(`Add File ${operation.path}: the file already exists (use Update File to change it)`);
      }
      const content = operation.lines.length === 0 ? "" : `${operation.lines.join("\n")}\n`;
      files.set(absolute, { absolute, content });
      summary.push(`A ${operation.path}`);
    } else if (operation.kind === "delete") {
      if (!(await exists(absolute))) throw failure(`Delete File ${operation.path}: the file does not exist`);
      files.set(absolute, { absolute, content: undefined });
      summary.push(`D ${operation.path}`);
    } else {
      const current = await readLines(absolute, operation.path);
      const updated = applyHunks(operation.path, current.lines, operation.hunks);
      const content =
        updated.length === 0 ? "" : updated.join(current.eol) + (current.finalNewline ? current.eol : "");
      if (operation.moveTo === undefined) {
        files.set(absolute, { absolute, content });
        summary.push(`M ${operation.path}`);
      } else {
        const target = resolve(operation.moveTo);
        claim(target, operation.moveTo);
        if (await exists(target)) {
          throw failure(`Move to ${operation.moveTo}: the target already exists`);
        }
        files.set(absolute, { absolute, content: undefined });
        files.set(target, { absolute: target, content });
        summary.push(`R ${operation.path} → ${operation.moveTo}`);
      }
    }
  }
  return { files: [...files.values()], summary };
}
