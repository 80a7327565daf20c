import { existsSync, lstatSync, realpathSync, rmdirSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  nodeFileOperations,
  readRegularFileSync,
  warningNotes,
  writeFiles,
  type FileChange,
  type FileOperations,
} from "@tools/registry";
import type { TextEdit, WorkspaceEdit } from "vscode-languageserver-protocol";
import { LspError } from "../errors/lsp-error.js";
import { folderFiles } from "./folder-files.js";
import { someOf } from "../format/some-of.js";
import { lineSpans } from "../positions/line-ends.js";
import { wholeColumns } from "../positions/whole-occurrences.js";

/**
 * Whether `text` (what an edit replaces, a prepareRename range) is the name `name`, a sigil
 * before it allowed: a private `#count`, a raw `r#type`, a lifetime, a decorator.
 */
export function readsAsName(text: string, name: string): boolean {
  return text === name || text.replace(/^(?:#|@|\$|r#|')/, "") === name;
}

/** At most 80 UTF-16 units of `text` (a surrogate pair kept whole), for a message. */
function someText(text: string): string {
  if (text.length <= 80) return text;
  const low = text.charCodeAt(80);
  return `${text.slice(0, low >= 0xdc00 && low <= 0xdfff ? 79 : 80)}…`;
}

/** What the edit is applied against: the documents the server holds, and how paths are shown. */
export interface EditBase {
  /** The version of an open document, as last synced. */
  versionOf(uri: string): number | undefined;
  /** Whether the server holds `uri` open, and with exactly `text`. */
  isOpen(uri: string): boolean;
  isSynced(uri: string, text: string): boolean;
  /** A path as shown in messages (relative to the working directory). */
  display(path: string): string;
  /**
   * Whether the edit may touch `path` (absolute): inside the working directory, symlinks
   * followed. A server may answer with edits anywhere (a library's declaration file).
   */
  writable(path: string): boolean;
  /**
   * The name being renamed, when the edit is a rename's: a text edit replacing text that does not
   * name it as a whole identifier (a module path, another word), or an edit that replaces it
   * nowhere, is refused whole.
   */
  readonly oldName?: string;
}

/** What applying a workspace edit did. */
export interface AppliedEdit {
  /** Files written, created or deleted, in first-touched order (absolute paths). */
  readonly changedFiles: string[];
  /** Text edits per file. */
  readonly editCounts: Map<string, number>;
  /** Old path → new path for each file the edit moved. */
  readonly moves: Map<string, string>;
  /**
   * What the write found besides: a change set another process left half written, which the
   * registry's `writeFiles` rolled back first (in words, naming the files put back).
   */
  readonly warnings: readonly string[];
}

/** Path → planned content: text, the bytes of a file moved unchanged, or null for absent. */
type Plan = Map<string, string | Uint8Array | null>;

/** A file as read before the edit: its bytes (the content the write expects) and text. */
interface Original {
  readonly bytes: Uint8Array;
  readonly text: string;
}

function pathOf(uri: string): string {
  if (!uri.startsWith("file:")) {
    throw new LspError({
      code: "LSP_RENAME_FAILED",
      message: `the edit touches a non-file uri ${uri}; nothing was written`,
    });
  }
  return fileURLToPath(uri);
}

/** The offset of a position, clamped to the text; `outside` is told when it had to be. */
function offsetAt(
  spans: { starts: readonly number[]; ends: readonly number[] },
  text: string,
  line: number,
  character: number,
  outside?: () => void,
): number {
  const start = spans.starts[line];
  const end = spans.ends[line];
  if (start === undefined || end === undefined) {
    outside?.();
    return text.length;
  }
  // The spec reads a character past the line's end as the end; a rename's edits never need it.
  if (start + character > end) outside?.();
  return Math.min(start + character, end);
}

/**
 * Applies text edits to a text, as if last first (earlier offsets stay valid). `outside` is told
 * when an edit lies beyond the text (the server computed it against another version of the
 * file); `replaces` is told the text each edit replaces, with the edit and the text of the line
 * it starts on, before any is applied; `overlap` is told when an edit starts inside the one
 * before it (LSP forbids it; without `overlap` it is cut to start where that one ended). Linear
 * in the text and the edits: the line starts are found once, and the result is joined once.
 */
export function applyTextEdits(
  text: string,
  edits: readonly TextEdit[],
  outside?: () => void,
  replaces?: (replaced: string, edit: TextEdit, lineText: string) => void,
  overlap?: () => void,
): string {
  const spans = lineSpans(text);
  const located = edits.map((edit, index) => ({
    start: offsetAt(spans, text, edit.range.start.line, edit.range.start.character, outside),
    end: offsetAt(spans, text, edit.range.end.line, edit.range.end.character, outside),
    newText: edit.newText,
    index,
  }));
  if (replaces) {
    for (const edit of located) {
      const given = edits[edit.index]!;
      const line = given.range.start.line;
      const lineText = text.slice(spans.starts[line] ?? text.length, spans.ends[line] ?? text.length);
      replaces(text.slice(edit.start, edit.end), given, lineText);
    }
  }
  // Inserts at one position appear in the order given (LSP); edits never overlap (LSP): one that
  // does is told to `overlap`, or cut to start where the one before it ended.
  located.sort((a, b) => a.start - b.start || a.end - b.end || a.index - b.index);
  const parts: string[] = [];
  let done = 0;
  for (const edit of located) {
    if (edit.start < done) overlap?.();
    const start = Math.max(edit.start, done);
    parts.push(text.slice(done, start), edit.newText);
    done = Math.max(edit.end, start);
  }
  parts.push(text.slice(done));
  return parts.join("");
}

/** Every file uri a WorkspaceEdit touches, in order, each once. */
export function touchedUris(edit: WorkspaceEdit): string[] {
  const uris = new Set<string>();
  if (edit.documentChanges) {
    for (const change of edit.documentChanges) {
      if ("textDocument" in change) uris.add(change.textDocument.uri);
      else if (change.kind === "rename") uris.add(change.oldUri).add(change.newUri);
      else uris.add(change.uri);
    }
  } else {
    for (const uri of Object.keys(edit.changes ?? {})) uris.add(uri);
  }
  return [...uris];
}

/** The largest file a rename reads and rewrites, in bytes. */
const largestEdited = 32 * 1024 * 1024;

/**
 * The bytes of the file at `path` before the edit, or undefined when there is none (missing,
 * unopenable, or a folder: handled by the caller). Read through the registry's
 * `readRegularFileSync` (opened without blocking): a FIFO or a device named by the server's edit
 * is refused, not read (the read would never end), and so is a file over {@link largestEdited}.
 */
function readOriginal(path: string, base: EditBase, fail: (message: string) => never): Buffer | undefined {
  try {
    return readRegularFileSync(path, largestEdited);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EINVAL") fail(`the edit touches ${base.display(path)}, which is not a regular file`);
    if (code === "EFBIG")
      fail(`the edit touches ${base.display(path)}, which is over ${largestEdited / 1024 / 1024} MiB`);
    // Not there to open (as before): taken as absent; a failure of the read itself is thrown.
    if (code !== undefined && cannotOpen.has(code)) return undefined;
    throw error;
  }
}

/** Why a path cannot be opened for reading: then there is no file before the edit. */
const cannotOpen = new Set(["ENOENT", "ENOTDIR", "EACCES", "EPERM", "ELOOP", "ENAMETOOLONG", "EISDIR"]);

function isSymbolicLink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** `path` with its symbolic links resolved, as far as it exists (a file to be created: itself). */
function realPathOf(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    return path;
  }
}

/** True for an existing regular file no one may write (no write bit in its mode). */
function isReadOnly(path: string): boolean {
  try {
    const stats = statSync(path);
    return stats.isFile() && (stats.mode & 0o222) === 0;
  } catch {
    return false;
  }
}

/**
 * Applies a WorkspaceEdit all or nothing. `documentChanges` (when present, authoritative) are
 * applied in order, including create/rename/delete; otherwise `changes`. An edit that touches a
 * file outside the working directory (`base.writable`) is refused whole. Everything is computed
 * in memory first against the files as the server saw them: a document version that no longer
 * matches ours, or a file open on the server whose disk text differs from the server's copy,
 * rejects the edit. The result is written through the registry's `writeFiles` (each file checked
 * unchanged since it was read, temp file and rename, mode kept; if a write fails, every file
 * already written is restored and nothing is left half-applied).
 */
export async function applyWorkspaceEdit(
  edit: WorkspaceEdit,
  base: EditBase,
  ops: FileOperations = nodeFileOperations,
): Promise<AppliedEdit> {
  return writePlannedEdit(planWorkspaceEdit(edit, base), ops);
}

/**
 * A workspace edit checked and worked out in memory, not written: what {@link writePlannedEdit}
 * writes. `texts` holds, for each changed file that exists before and after (no file moved,
 * created or deleted), its text before and after.
 */
export interface PlannedEdit extends Omit<AppliedEdit, "warnings"> {
  readonly changes: readonly FileChange[];
  readonly texts: ReadonlyMap<string, { readonly before: string; readonly after: string }>;
  /** Folders a folder move empties, removed once everything is written. */
  readonly emptied: readonly string[];
}

/**
 * Checks a workspace edit and works out every file's content after it, reading the files but
 * writing nothing; refuses (throws `LSP_RENAME_FAILED`) as {@link applyWorkspaceEdit} does.
 */
export function planWorkspaceEdit(edit: WorkspaceEdit, base: EditBase): PlannedEdit {
  const touched = touchedUris(edit).map(pathOf);
  const outside = touched.filter((path) => !base.writable(path));
  if (outside.length > 0) {
    throw new LspError({
      code: "LSP_RENAME_FAILED",
      message: `the rename would also change files outside the working directory (${someOf(outside, 5)}); nothing was written. Rename a symbol declared in the project, or make the change by hand.`,
      data: { outside },
    });
  }
  // Written through a temp file and a rename, a file's mode is no guard (and root passes every
  // check): a file made read-only is refused here.
  const readOnly = touched.filter((path) => isReadOnly(path));
  if (readOnly.length > 0) {
    throw new LspError({
      code: "LSP_RENAME_FAILED",
      message: `the rename would change read-only files (${someOf(
        readOnly.map((path) => base.display(path)),
        5,
      )}); nothing was written. Make them writable (chmod u+w) if they are meant to change, then call again.`,
      data: { readOnly },
    });
  }
  const plan: Plan = new Map();
  const originals = new Map<string, Original | null>();
  const editCounts = new Map<string, number>();
  const moves = new Map<string, string>();
  const order: string[] = [];
  const touch = (path: string): void => {
    if (!order.includes(path)) order.push(path);
  };
  const fail = (message: string): never => {
    throw new LspError({ code: "LSP_RENAME_FAILED", message: `${message}; nothing was written` });
  };
  const current = (path: string): string | null => {
    if (plan.has(path)) {
      const planned = plan.get(path)!;
      if (!(planned instanceof Uint8Array)) return planned;
      const text = Buffer.from(planned).toString("utf8");
      plan.set(path, text);
      return text;
    }
    let original: Original | null = null;
    const bytes = readOriginal(path, base, fail);
    if (bytes) {
      original = { bytes, text: bytes.toString("utf8") };
      const uri = pathToFileURL(path).href;
      // The server computed its edit against its copy: offsets into another text would corrupt it.
      if (base.isOpen(uri) && !base.isSynced(uri, original.text))
        fail(
          `${base.display(path)} changed on disk since the language server last read it; run lsp_rename again`,
        );
    }
    originals.set(path, original);
    plan.set(path, original?.text ?? null);
    return original?.text ?? null;
  };
  /** Text edits replacing the old name, and the first replacing other text (see `EditBase.oldName`). */
  let namesReplaced = 0;
  let otherReplaced:
    | { path: string; replaced: string; line: number; lineText: string; newText: string }
    | undefined;
  /** Folders a folder move emptied: removed once everything is written. */
  const emptied: string[] = [];
  /** A folder rename, as the move of each file in it (written all or nothing like any other). */
  const moveFolder = (
    from: string,
    to: string,
    options: { overwrite?: boolean; ignoreIfExists?: boolean } | undefined,
  ): void => {
    const inside = (path: string, folder: string): boolean =>
      path === folder || path.startsWith(folder + sep);
    const taken = existsSync(to) || [...plan].some(([path, content]) => content !== null && inside(path, to));
    if (taken) {
      if (options?.ignoreIfExists && !options.overwrite) return;
      fail(`the edit moves the folder ${base.display(from)} onto ${base.display(to)}, which already exists`);
    }
    const listed = folderFiles(from);
    if (typeof listed === "string")
      fail(`the edit moves the folder ${base.display(from)}, but ${listed}; move it by hand`);
    const { files, folders } = listed as Exclude<typeof listed, string>;
    // Files this edit created in the folder before moving it go along.
    const created = [...plan.keys()].filter((path) => inside(path, from) && !files.includes(path));
    for (const file of [...files, ...created]) {
      const text = current(file);
      if (text === null) continue;
      const original = originals.get(file);
      const target = join(to, relative(from, file));
      // A file moved as it was keeps its exact bytes (binary files too).
      plan.set(target, original && text === original.text ? original.bytes : text);
      plan.set(file, null);
      moves.set(file, target);
      touch(file);
      touch(target);
    }
    emptied.push(...folders.reverse());
  };
  const editText = (uri: string, edits: readonly TextEdit[]): void => {
    const path = pathOf(uri);
    const text = current(path);
    if (text === null) fail(`the edit changes ${base.display(path)}, which does not exist`);
    // A file the server does not hold open was read by it from disk, perhaps before it changed
    // (open ones were compared above): an edit beyond the text is the sign, and applied clamped
    // it would corrupt the file.
    plan.set(
      path,
      applyTextEdits(
        text!,
        edits,
        () =>
          fail(
            `${base.display(path)} changed on disk since the language server read it (an edit lies beyond its text); run lsp_rename again`,
          ),
        (replaced, given, lineText) => {
          if (base.oldName === undefined || replaced === "") return;
          if (readsAsName(replaced, base.oldName)) namesReplaced += 1;
          else
            otherReplaced ??= {
              path,
              replaced,
              line: given.range.start.line,
              lineText: lineText.trim(),
              newText: given.newText,
            };
        },
        () =>
          fail(
            `the server's edits of ${base.display(path)} overlap (LSP forbids it: applied, they would garble the file); run lsp_rename again, or rename by hand`,
          ),
      ),
    );
    editCounts.set(path, (editCounts.get(path) ?? 0) + edits.length);
    touch(path);
  };

  if (edit.documentChanges) {
    for (const change of edit.documentChanges) {
      if ("textDocument" in change) {
        const expected = change.textDocument.version;
        const ours = base.versionOf(change.textDocument.uri);
        if (expected !== null && expected !== undefined && ours !== undefined && expected !== ours) {
          fail(
            `${base.display(pathOf(change.textDocument.uri))} changed since the server computed the edit (version ${expected}, now ${ours}); run lsp_rename again`,
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
          fail(`the edit creates ${base.display(path)}, which already exists`);
        }
        plan.set(path, "");
        touch(path);
      } else if (change.kind === "rename") {
        const from = pathOf(change.oldUri);
        const to = pathOf(change.newUri);
        if (!plan.has(from) && isSymbolicLink(from))
          fail(`the edit moves ${base.display(from)}, a symbolic link; move it by hand`);
        if (!plan.has(from) && existsSync(from) && statSync(from).isDirectory()) {
          moveFolder(from, to, change.options);
          continue;
        }
        const text = current(from);
        if (text === null) fail(`the edit moves ${base.display(from)}, which does not exist`);
        if (current(to) !== null && !change.options?.overwrite) {
          if (change.options?.ignoreIfExists) continue;
          fail(`the edit moves ${base.display(from)} onto ${base.display(to)}, which already exists`);
        }
        plan.set(to, text);
        plan.set(from, null);
        moves.set(from, to);
        touch(from);
        touch(to);
      } else if (change.kind === "delete") {
        const path = pathOf(change.uri);
        if (!plan.has(path) && isSymbolicLink(path))
          fail(`the edit deletes ${base.display(path)}, a symbolic link; delete it by hand`);
        if (existsSync(path) && statSync(path).isDirectory())
          fail(`the edit deletes the folder ${base.display(path)}`);
        if (current(path) === null && !change.options?.ignoreIfNotExists)
          fail(`the edit deletes ${base.display(path)}, which does not exist`);
        plan.set(path, null);
        touch(path);
      }
    }
  } else {
    for (const [uri, edits] of Object.entries(edit.changes ?? {})) editText(uri, edits);
  }

  // A rename moving files (a package's, a module's) rewrites the paths naming them too.
  if (
    base.oldName !== undefined &&
    otherReplaced &&
    (moves.size === 0 || wholeColumns(otherReplaced.replaced, base.oldName).length === 0)
  ) {
    const other = otherReplaced;
    fail(
      [
        `the server's edit for '${base.oldName}' also replaces ${JSON.stringify(someText(other.replaced))}, which is not that name, with ${JSON.stringify(someText(other.newText))} at ${base.display(other.path)}:${other.line + 1} (${someText(other.lineText)}):`,
        `the server ties another name to this symbol (an alias, as in 'export { x as y }', with its importers, or a module path) and would rename it too.`,
        `To rename only '${base.oldName}', edit its uses by hand (lsp references lists them); to rename ${JSON.stringify(someText(other.replaced))} as well, rename it on its own (lsp_rename from a line where it is written) or by hand`,
      ].join(" "),
    );
  }
  if (base.oldName !== undefined && namesReplaced === 0 && moves.size === 0) {
    fail(
      `the server's edit replaces '${base.oldName}' nowhere: it is not a rename of that identifier. Check the symbol with lsp references, or edit by hand`,
    );
  }
  const changedFiles = order.filter((path) => plan.get(path) !== (originals.get(path)?.text ?? null));
  // Two paths of one file (a symbolic link and its target): written twice, one edit set is lost.
  const realPaths = new Map<string, string>();
  for (const path of changedFiles) {
    const real = realPathOf(path);
    const other = realPaths.get(real);
    if (other !== undefined)
      fail(
        `the edit changes ${base.display(other)} and ${base.display(path)}, which are one file (a symbolic link); make the change by hand`,
      );
    realPaths.set(real, path);
  }
  const changes: FileChange[] = changedFiles.map((path) => ({
    path,
    label: base.display(path),
    expected: originals.get(path)?.bytes ?? null,
    content: plan.get(path) ?? null,
  }));
  const texts = new Map<string, { before: string; after: string }>();
  for (const path of changedFiles) {
    const before = originals.get(path);
    const after = plan.get(path);
    if (before && typeof after === "string" && !moves.has(path))
      texts.set(path, { before: before.text, after });
  }
  return { changes, changedFiles, editCounts, moves, texts, emptied };
}

/**
 * Writes a {@link planWorkspaceEdit} result all or nothing: a file changed on disk since it was
 * read for the plan fails the whole write (`LSP_RENAME_FAILED`), every file as it was.
 */
export async function writePlannedEdit(
  planned: PlannedEdit,
  ops: FileOperations = nodeFileOperations,
  /** The run's working directory, named in the write's journal (see `writeFiles`). */
  workspace?: string,
): Promise<AppliedEdit> {
  const { changes, changedFiles, editCounts, moves, emptied } = planned;
  const outcome = await writeFiles([...changes], ops, workspace === undefined ? {} : { workspace });
  const notes = warningNotes(outcome.warnings);
  if (outcome.ok) {
    // Best effort: a folder something else wrote into meanwhile stays.
    for (const folder of emptied) {
      try {
        rmdirSync(folder);
      } catch {
        // not empty, or already gone
      }
    }
    return { changedFiles, editCounts, moves, warnings: outcome.warnings ?? [] };
  }
  if (outcome.moved) {
    const moved = outcome.moved.map((file) => file.label).join(", ");
    throw new LspError({
      code: "LSP_RENAME_FAILED",
      message: `${moved} changed while the rename was being applied; nothing was written; run lsp_rename again${notes}`,
      data: { moved: outcome.moved },
    });
  }
  throw new LspError({
    code: "LSP_RENAME_FAILED",
    message:
      `writing the edit failed at ${outcome.failed} (${outcome.reason}); ` +
      (outcome.notRestored.length === 0
        ? `the ${outcome.restored} file(s) already written were restored: every file is as it was`
        : `these files could NOT be restored: ${outcome.notRestored.join(", ")}`) +
      notes,
    cause: outcome.cause,
    data: { notRestored: outcome.notRestored },
  });
}
