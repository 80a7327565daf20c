import {
  existsSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  writeFileSync,
  mkdirSync,
} from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import type { TextEdit, WorkspaceEdit } from "vscode-languageserver-protocol";
import { LspError } from "../errors/lsp-error.js";

/** What applying a workspace edit did. */
export interface AppliedEdit {
  /** Files written, created or deleted, in first-touched order (absolute paths). */
  readonly changedFiles: string[];
  /** Text edits per file. */
  readonly editCounts: Map<string, number>;
  /** Old path → new path for each file the edit moved. */
  readonly moves: Map<string, string>;
}

type Plan = Map<string, string | null>;

function pathOf(uri: string): string {
  if (!uri.startsWith("file:")) {
    throw new LspError({
      code: "LSP_RENAME_FAILED",
      message: `the edit touches a non-file uri ${uri}; nothing was written`,
    });
  }
  return fileURLToPath(uri);
}

function offsetAt(text: string, line: number, character: number): number {
  let offset = 0;
  for (let current = 0; current < line; current++) {
    const next = text.indexOf("\n", offset);
    if (next === -1) return text.length;
    offset = next + 1;
  }
  const lineEnd = text.indexOf("\n", offset);
  return Math.min(offset + character, lineEnd === -1 ? text.length : lineEnd);
}

/** Applies text edits to a text, last first, so earlier offsets stay valid. */
export function applyTextEdits(text: string, edits: readonly TextEdit[]): string {
  const located = edits.map((edit) => ({
    start: offsetAt(text, edit.range.start.line, edit.range.start.character),
    end: offsetAt(text, edit.range.end.line, edit.range.end.character),
    newText: edit.newText,
  }));
  located.sort((a, b) => b.start - a.start || b.end - a.end);
  let result = text;
  for (const edit of located) result = result.slice(0, edit.start) + edit.newText + result.slice(edit.end);
  return result;
}

/**
 * Applies a WorkspaceEdit all or nothing. `documentChanges` (when present, authoritative) are
 * applied in order, including create/rename/delete; otherwise `changes`. Everything is computed in
 * memory first (a document version that no longer matches ours rejects the edit), then written;
 * if a write fails, every file already written is restored and nothing is left half-applied.
 */
export function applyWorkspaceEdit(
  edit: WorkspaceEdit,
  versionOf: (uri: string) => number | undefined,
): AppliedEdit {
  const plan: Plan = new Map();
  const originals = new Map<string, string | null>();
  const editCounts = new Map<string, number>();
  const moves = new Map<string, string>();
  const order: string[] = [];
  const touch = (path: string): void => {
    if (!order.includes(path)) order.push(path);
  };
  const current = (path: string): string | null => {
    if (plan.has(path)) return plan.get(path)!;
    const original = existsSync(path) ? readFileSync(path, "utf8") : null;
    originals.set(path, original);
    plan.set(path, original);
    return original;
  };
  const fail = (message: string): never => {
    throw new LspError({ code: "LSP_RENAME_FAILED", message: `${message}; nothing was written` });
  };
  const editText = (uri: string, edits: readonly TextEdit[]): void => {
    const path = pathOf(uri);
    const text = current(path);
    if (text === null) fail(`the edit changes ${path}, which does not exist`);
    plan.set(path, applyTextEdits(text!, edits));
    editCounts.set(path, (editCounts.get(path) ?? 0) + edits.length);
    touch(path);
  };

  if (edit.documentChanges) {
    for (const change of edit.documentChanges) {
      if ("textDocument" in change) {
        const expected = change.textDocument.version;
        const ours = versionOf(change.textDocument.uri);
        if (expected !== null && expected !== undefined && ours !== undefined && expected !== ours) {
          fail(
            `${change.textDocument.uri} changed since the server computed the edit (version ${expected}, now ${ours})`,
          );
        }
        editText(
          change.textDocument.uri,
          change.edits.map((e) => ("newText" in e ? e : { range: e.range, newText: e.snippet.value })),
        );
      } else if (change.kind === "create") {
        const path = pathOf(change.uri);
        if (current(path) !== null && !change.options?.overwrite) {
          if (change.options?.ignoreIfExists) continue;
          fail(`the edit creates ${path}, which already exists`);
        }
        plan.set(path, "");
        touch(path);
      } else if (change.kind === "rename") {
        const from = pathOf(change.oldUri);
        const to = pathOf(change.newUri);
        const text = current(from);
        if (text === null) fail(`the edit moves ${from}, which does not exist`);
        if (current(to) !== null && !change.options?.overwrite) {
          if (change.options?.ignoreIfExists) continue;
          fail(`the edit moves ${from} onto ${to}, which already exists`);
        }
        plan.set(to, text);
        plan.set(from, null);
        moves.set(from, to);
        touch(from);
        touch(to);
      } else if (change.kind === "delete") {
        const path = pathOf(change.uri);
        if (existsSync(path) && statSync(path).isDirectory()) fail(`the edit deletes the folder ${path}`);
        if (current(path) === null && !change.options?.ignoreIfNotExists)
          fail(`the edit deletes ${path}, which does not exist`);
        plan.set(path, null);
        touch(path);
      }
    }
  } else {
    for (const [uri, edits] of Object.entries(edit.changes ?? {})) editText(uri, edits);
  }

  const written: string[] = [];
  try {
    for (const path of order) {
      const next = plan.get(path);
      if (next === originals.get(path)) continue;
      written.push(path);
      if (next === null || next === undefined) {
        if (existsSync(path)) unlinkSync(path);
      } else {
        mkdirSync(dirname(path), { recursive: true });
        const temporary = `${path}.lsp-rename-${process.pid}.tmp`;
        writeFileSync(temporary, next);
        renameSync(temporary, path);
      }
    }
  } catch (error) {
    for (const path of written.reverse()) {
      const original = originals.get(path);
      try {
        if (original === null || original === undefined) {
          if (existsSync(path)) unlinkSync(path);
        } else writeFileSync(path, original);
      } catch {
        // best effort: the message below says the rollback ran
      }
    }
    throw new LspError({
      code: "LSP_RENAME_FAILED",
      message: `writing the edit failed (${(error as Error).message}); the ${written.length} file(s) already written were restored`,
      cause: error,
    });
  }
  return { changedFiles: order.filter((path) => plan.get(path) !== originals.get(path)), editCounts, moves };
}
