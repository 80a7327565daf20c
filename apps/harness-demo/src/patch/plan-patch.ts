import { lstat, stat } from "node:fs/promises";
import { readRegularFile, ToolsError } from "@tools/registry";
import { looksBinary } from "../internal/binary-content.js";
import { namesFolder, refuseTildePath } from "../internal/folder-path.js";
import { decodeUtf8ForWrite } from "../internal/utf8-text.js";
import { applyHunks } from "./apply-hunks.js";
import type { PatchHunk, PatchOperation } from "./parse-patch.js";

/** What one file becomes: new text, or deleted (`content` undefined). */
export interface PlannedFile {
  readonly absolute: string;
  /** The path as the patch names it. */
  readonly label: string;
  readonly content: string | undefined;
  /** The bytes the file held when planned, or null when it must not exist: checked again at write time. */
  readonly expected: Buffer | null;
  /** For a move's target: the source's mode (permission bits), kept. */
  readonly mode?: number;
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

/** What is at `path`: nothing, a regular file, a folder, or something else (FIFO, socket, device). */
async function kindAt(path: string): Promise<"none" | "file" | "folder" | "other"> {
  const info = await stat(path).catch(() => undefined);
  if (!info) return "none";
  return info.isFile() ? "file" : info.isDirectory() ? "folder" : "other";
}

/**
 * The bytes of the regular file an Update or Delete names. Read without blocking: a FIFO, socket,
 * device or folder is refused here, while planning, with what it is.
 */
async function readExisting(absolute: string, what: string): Promise<Buffer> {
  try {
    return await readRegularFile(absolute);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") {
      throw failure(
        what.startsWith("Update")
          ? `${what}: the file does not exist (use Add File to create it)`
          : `${what}: the file does not exist`,
      );
    }
    if (code === "EISDIR") throw failure(`${what}: it is a folder, not a file; a patch changes files only`);
    if (code === "EINVAL") {
      throw failure(
        `${what}: it is a FIFO, socket or device, not a file; a patch changes regular files only`,
      );
    }
    throw failure(`${what}: could not read it (${error instanceof Error ? error.message : "?"})`);
  }
}

/** A path ending with `/` names a folder (POSIX: ENOTDIR for a file there); a patch names files. */
function refuseFolderName(path: string): void {
  if (namesFolder(path)) {
    throw failure(
      `'${path}' ends with '/', so it names a folder, and a patch changes files; drop the trailing '/'`,
    );
  }
}

async function mustNotExist(absolute: string, what: string, hint: string): Promise<void> {
  const kind = await kindAt(absolute);
  if (kind === "none") return;
  const it =
    kind === "file"
      ? "the file already exists"
      : kind === "folder"
        ? "a folder is there"
        : "a FIFO, socket or device is there";
  throw failure(`${what}: ${it}${hint}`);
}

async function readLines(
  absolute: string,
  path: string,
): Promise<{
  bytes: Buffer;
  bom: string;
  lines: string[];
  endings: string[];
  eol: string;
  finalNewline: boolean;
}> {
  const what = `Update File ${path}`;
  const bytes = await readExisting(absolute, what);
  if (looksBinary(bytes)) throw failure(`${what}: the file is binary`);
  const decoded = decodeUtf8ForWrite(bytes, path, "apply_patch", " Nothing was written.");
  // A byte order mark (a Windows editor's) is not part of line 1: a hunk matches that line as the
  // patch gives it, and the mark is written back in front of whatever line 1 becomes.
  const bom = decoded.startsWith("\uFEFF") ? "\uFEFF" : "";
  const text = decoded.slice(bom.length);
  // Each line keeps its own line end: a file that mixes them is written back as it was, but for
  // the lines the patch changes.
  const parts = text.split(/(\r?\n)/);
  const lines: string[] = [];
  const endings: string[] = [];
  let crlf = 0;
  for (let index = 0; index < parts.length; index += 2) {
    const ending = parts[index + 1] ?? "";
    if (ending === "\r\n") crlf++;
    lines.push(parts[index] as string);
    endings.push(ending);
  }
  const finalNewline = text === "" || text.endsWith("\n");
  if (finalNewline) {
    lines.pop();
    endings.pop();
  }
  const eol = crlf * 2 > endings.filter((ending) => ending !== "").length ? "\r\n" : "\n";
  return { bytes, bom, lines, endings, eol, finalNewline };
}

/** The text of patched lines: a line end after each line but the last, which has one if the file had. */
function joinLines(
  lines: readonly string[],
  endings: readonly string[],
  eol: string,
  finalNewline: boolean,
): string {
  let text = "";
  lines.forEach((line, index) => {
    const last = index === lines.length - 1;
    const ending = endings[index] || eol;
    text += line + (last && !finalNewline ? "" : ending);
  });
  return text;
}

/**
 * Computes every file's new content from parsed operations, reading the current files, and
 * fails — before anything is written — on the first operation that cannot apply: a hunk that does
 * not match, a file that is missing, a folder, a FIFO, binary or not UTF-8. `resolve` maps a patch
 * path to an absolute path inside the working directory; `signal` is checked between operations.
 */
export async function planPatch(
  operations: readonly PatchOperation[],
  resolve: (path: string) => string,
  signal: AbortSignal,
): Promise<PatchPlan> {
  const files = new Map<string, PlannedFile>();
  const summary: string[] = [];
  const claim = (absolute: string, path: string) => {
    if (files.has(absolute))
      throw failure(`${path} appears more than once in the patch; combine its changes`);
  };
  for (const operation of operations) {
    signal.throwIfAborted();
    refuseFolderName(operation.path);
    refuseTildePath(operation.path);
    if (operation.kind === "update" && operation.moveTo !== undefined) {
      refuseFolderName(operation.moveTo);
      refuseTildePath(operation.moveTo);
    }
    const absolute = resolve(operation.path);
    claim(absolute, operation.path);
    if (operation.kind === "add") {
      await mustNotExist(absolute, `Add File ${operation.path}`, " (use Update File to change it)");
      const content = operation.lines.length === 0 ? "" : `${operation.lines.join("\n")}\n`;
      files.set(absolute, { absolute, label: operation.path, content, expected: null });
      summary.push(`A ${operation.path}`);
    } else if (operation.kind === "delete") {
      await refuseLink(absolute, `Delete File ${operation.path}`);
      const bytes = await readExisting(absolute, `Delete File ${operation.path}`);
      files.set(absolute, { absolute, label: operation.path, content: undefined, expected: bytes });
      summary.push(`D ${operation.path}`);
    } else {
      const current = await readLines(absolute, operation.path);
      const hunks = current.bom === "" ? operation.hunks : operation.hunks.map(withoutByteOrderMark);
      const updated = applyHunks(operation.path, current.lines, hunks, {
        endings: current.endings,
        eol: current.eol,
      });
      const body = joinLines(updated.lines, updated.endings, current.eol, current.finalNewline);
      // The mark goes back in front of whatever line 1 becomes, but not onto a file left empty.
      const content = body === "" ? body : current.bom + body;
      const notes = updated.notes.length > 0 ? ` (${updated.notes.join("; ")})` : "";
      if (operation.moveTo === undefined) {
        files.set(absolute, { absolute, label: operation.path, content, expected: current.bytes });
        summary.push(`M ${operation.path}${notes}`);
      } else {
        await refuseLink(absolute, `Update File ${operation.path} with Move to`);
        const target = resolve(operation.moveTo);
        if (target === absolute) {
          throw failure(
            `Move to ${operation.moveTo}: that is the file being updated (${operation.path}); drop the Move to line to change it in place`,
          );
        }
        claim(target, operation.moveTo);
        await mustNotExist(target, `Move to ${operation.moveTo}`, "");
        const mode = (await stat(absolute)).mode & 0o7777;
        files.set(absolute, {
          absolute,
          label: operation.path,
          content: undefined,
          expected: current.bytes,
        });
        files.set(target, { absolute: target, label: operation.moveTo, content, expected: null, mode });
        summary.push(`R ${operation.path} → ${operation.moveTo}${notes}`);
      }
    }
  }
  return { files: [...files.values()], summary };
}

/**
 * Refuses to delete or move a symlink: the file writer resolves links (an update through one
 * changes the file it points to), so removing one would remove the file it points to instead.
 */
async function refuseLink(path: string, what: string): Promise<void> {
  const info = await lstat(path).catch(() => undefined);
  if (info?.isSymbolicLink()) {
    throw new ToolsError({
      code: "PATCH_FAILED",
      message: `${what}: it is a symlink, and apply_patch deletes and moves files, not links (it would remove the file the link points to); remove or rename the link with the shell. Nothing was written.`,
    });
  }
}

/**
 * A hunk for a file that starts with a byte order mark, with a mark at the start of its lines
 * taken off: a patch whose line 1 was copied from elsewhere (another tool's view of the file, a
 * `cat`) may carry it, and the file's lines are matched (and its mark written back) without it.
 */
function withoutByteOrderMark(hunk: PatchHunk): PatchHunk {
  const strip = (text: string): string => (text.startsWith("\uFEFF") ? text.slice(1) : text);
  return {
    anchor: strip(hunk.anchor),
    oldLines: hunk.oldLines.map(strip),
    newLines: hunk.newLines.map(strip),
    atEnd: hunk.atEnd,
    lines: hunk.lines.map((line) => ({ marker: line.marker, text: strip(line.text) })),
  };
}
