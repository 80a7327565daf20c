import type { FileHandle } from "node:fs/promises";
import { basename, dirname, isAbsolute } from "node:path";
import { ToolsError } from "../errors/tools-error.js";
import type { DataRange, JournalEntry, JournalHeader, StoredEntry } from "./write-journal.js";

// Reading a journal back (its layout: write-journal.ts). The header says what a roll back does —
// which files it rewrites or removes, which temporary files and folders it deletes — so every
// field used is checked for its type before anything acts on it: a corrupted journal is an error
// naming the field, never a crash in the middle of a roll back or a file removed on a garbled path.

/** A journal's header as read back, without its data: enough to judge it and to find its bytes. */
export interface JournalIndex {
  /** The boot and pid namespace it was written in ("" when unknown). */
  readonly host: string;
  /** The writer's process id, when the journal says. */
  readonly pid: number | undefined;
  /** The writer's workspace, when the journal says. */
  readonly workspace: string | undefined;
  readonly folders: readonly string[];
  readonly entries: readonly StoredEntry[];
  /** Where the data after the header line starts in the file. */
  readonly dataStart: number;
}

/** A journal read whole, its bytes in place of their ranges. */
export interface Journal {
  readonly host: string;
  readonly pid: number | undefined;
  readonly folders: readonly string[];
  readonly entries: readonly JournalEntry[];
}

/** The error of a journal that is not cut off but cannot be what `writeFiles` wrote. */
function corrupt(problem: string): ToolsError {
  return new ToolsError({
    code: "JOURNAL_CORRUPT",
    message: `the journal is corrupt: ${problem}; nothing was rolled back from it`,
  });
}

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 80)}…` : text;
}

function must(ok: boolean, field: string, value: unknown, expected: string): void {
  if (!ok) throw corrupt(`${field} is ${shown(value)}, expected ${expected}`);
}

const isCount = (value: unknown): value is number => Number.isSafeInteger(value) && (value as number) >= 0;

function checkRange(value: unknown, field: string, dataLength: number): DataRange | undefined {
  if (value === undefined) return undefined;
  const ok =
    Array.isArray(value) &&
    value.length === 2 &&
    isCount(value[0]) &&
    isCount(value[1]) &&
    value[0] + value[1] <= dataLength;
  must(ok, field, value, `[offset, length] within the ${dataLength} bytes after the header`);
  return value as unknown as DataRange;
}

function checkEntry(value: unknown, field: string, dataLength: number): StoredEntry {
  must(typeof value === "object" && value !== null && !Array.isArray(value), field, value, "an object");
  const entry = value as Record<string, unknown>;
  const { target, label, temp, wrote, present, mode } = entry;
  must(typeof target === "string" && isAbsolute(target), `${field}.target`, target, "an absolute path");
  must(typeof label === "string", `${field}.label`, label, "a string");
  // A roll back deletes the temporary file: one that is not a temporary name beside its target
  // would have it delete some other file.
  const beside =
    typeof temp === "string" &&
    dirname(temp) === dirname(target as string) &&
    /^\..+\.tmp$/.test(basename(temp));
  must(beside, `${field}.temp`, temp, "a temporary file's name (.<name>.<random>.tmp) beside the target");
  must(
    wrote === undefined || wrote === null || (typeof wrote === "string" && /^[0-9a-f]{64}$/.test(wrote)),
    `${field}.wrote`,
    wrote,
    "a sha256 in hex, null or nothing",
  );
  must(
    wrote === undefined ? present === undefined : typeof present === "boolean",
    `${field}.present`,
    present,
    wrote === undefined ? "nothing (a single file's entry)" : "true or false",
  );
  must(
    mode === undefined || (Number.isInteger(mode) && (mode as number) >= 0 && (mode as number) <= 0o7777),
    `${field}.mode`,
    mode,
    "a file mode (an integer from 0 to 0o7777) or nothing",
  );
  const original = checkRange(entry.original, `${field}.original`, dataLength);
  return {
    target: target as string,
    label: label as string,
    temp: temp as string,
    ...(wrote === undefined ? {} : { wrote: wrote as string | null }),
    ...(present === undefined ? {} : { present: present as boolean }),
    ...(mode === undefined ? {} : { mode: mode as number }),
    ...(original === undefined ? {} : { original }),
  };
}

/**
 * The header line `line` checked, for a journal with `dataBytes` bytes after it: undefined when
 * the journal was cut off while written (fewer bytes than the header says; its writer died before
 * the set's first file was touched). Throws `JOURNAL_CORRUPT` naming the first field that is wrong.
 */
function checkHeader(line: Buffer, dataBytes: number, dataStart: number): JournalIndex | undefined {
  let value: unknown;
  try {
    value = JSON.parse(line.toString("utf8"));
  } catch (error) {
    throw corrupt(`its first line is not JSON (${error instanceof Error ? error.message : String(error)})`);
  }
  must(
    typeof value === "object" && value !== null && !Array.isArray(value),
    "the header",
    value,
    "an object",
  );
  const header = value as Partial<Record<keyof JournalHeader, unknown>>;
  must(header.version === 1, "version", header.version, "1");
  must(isCount(header.dataLength), "dataLength", header.dataLength, "a count of bytes");
  const dataLength = header.dataLength as number;
  if (dataBytes < dataLength) return undefined;
  must(dataBytes === dataLength, "dataLength", dataLength, `the ${dataBytes} bytes after the header`);
  must(header.host === undefined || typeof header.host === "string", "host", header.host, "a string");
  must(
    header.pid === undefined || (Number.isSafeInteger(header.pid) && (header.pid as number) > 0),
    "pid",
    header.pid,
    "a process id",
  );
  must(
    header.workspace === undefined || (typeof header.workspace === "string" && isAbsolute(header.workspace)),
    "workspace",
    header.workspace,
    "an absolute path",
  );
  const folders = header.folders;
  must(Array.isArray(folders), "folders", folders, "a list of folders");
  (folders as unknown[]).forEach((folder, index) =>
    must(typeof folder === "string" && isAbsolute(folder), `folders[${index}]`, folder, "an absolute path"),
  );
  must(Array.isArray(header.entries), "entries", header.entries, "a list of entries");
  return {
    host: (header.host as string | undefined) ?? "",
    pid: header.pid as number | undefined,
    workspace: header.workspace as string | undefined,
    folders: folders as string[],
    entries: (header.entries as unknown[]).map((entry, index) =>
      checkEntry(entry, `entries[${index}]`, dataLength),
    ),
    dataStart,
  };
}

/** Bytes read at a time while looking for the end of the header line. */
const headerChunkBytes = 64 * 1024;

/**
 * Reads only the header of the journal open as `handle` (not the originals after it): undefined
 * when the journal was cut off while written. Throws `JOURNAL_CORRUPT` for one that cannot be
 * what `writeFiles` wrote.
 */
export async function readJournalIndex(handle: FileHandle): Promise<JournalIndex | undefined> {
  const chunks: Buffer[] = [];
  let position = 0;
  let end = -1;
  while (end < 0) {
    const chunk = Buffer.allocUnsafe(headerChunkBytes);
    const { bytesRead } = await handle.read(chunk, 0, chunk.byteLength, position);
    // No whole header line: cut off while written.
    if (bytesRead === 0) return undefined;
    const newline = chunk.subarray(0, bytesRead).indexOf(0x0a);
    if (newline >= 0) end = position + newline;
    chunks.push(chunk.subarray(0, bytesRead));
    position += bytesRead;
  }
  const { size } = await handle.stat();
  return checkHeader(Buffer.concat(chunks).subarray(0, end), size - end - 1, end + 1);
}

/** The bytes of `range` of the journal open as `handle`, whose header is `index`. */
export async function readJournalRange(
  handle: FileHandle,
  index: JournalIndex,
  range: DataRange,
): Promise<Uint8Array> {
  const [offset, length] = range;
  const bytes = Buffer.alloc(length);
  let done = 0;
  while (done < length) {
    const { bytesRead } = await handle.read(bytes, done, length - done, index.dataStart + offset + done);
    if (bytesRead === 0) throw corrupt(`it ends before the ${length} bytes at ${offset} its header names`);
    done += bytesRead;
  }
  return bytes;
}

/**
 * Reads a whole journal from its bytes; undefined when it was cut off while written. Throws
 * `JOURNAL_CORRUPT` for one that cannot be what `writeFiles` wrote.
 */
export function parseJournal(bytes: Uint8Array): Journal | undefined {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = buffer.indexOf(0x0a);
  if (end < 0) return undefined;
  const index = checkHeader(buffer.subarray(0, end), buffer.byteLength - end - 1, end + 1);
  if (index === undefined) return undefined;
  const data = buffer.subarray(end + 1);
  const bytesOf = (range: DataRange | undefined) =>
    range === undefined ? undefined : data.subarray(range[0], range[0] + range[1]);
  return {
    host: index.host,
    pid: index.pid,
    folders: index.folders,
    entries: index.entries.map(({ original, ...entry }) => {
      const originalBytes = bytesOf(original);
      return { ...entry, ...(originalBytes === undefined ? {} : { original: originalBytes }) };
    }),
  };
}
