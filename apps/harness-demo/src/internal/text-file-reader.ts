import type { FileHandle } from "node:fs/promises";
import { openRegularFile } from "@tools/registry";
import { looksBinary, sniffBytes } from "./binary-content.js";

/** Bytes read from the file at a time. */
const readBytes = 1 << 20;

/** A run of whole lines read from a file. */
export interface LineBlock {
  /**
   * Whole lines, each ended by `\n` except perhaps the file's last. A block holds at most about
   * twice the read size, so one huge line never has to fit in memory.
   */
  readonly bytes: Buffer;
  /**
   * Set when the block is one line longer than `maxLineBytes`, cut there (on a character
   * boundary): the line's whole length in bytes.
   */
  readonly cutFrom?: number;
}

/**
 * A regular file opened for reading in blocks of whole lines, so a tool reads only as far as it
 * needs (the first lines of a 1 GB log) with bounded memory. Opened the way the registry's
 * `readRegularFile` opens: without blocking, and a FIFO, socket or device (`EINVAL`) or a folder
 * (`EISDIR`) is refused instead of read.
 */
export class TextFileReader {
  /** True when the last {@link blocks} ended at `stopAt` with more of the file unread. */
  stoppedEarly = false;

  private constructor(
    private readonly handle: FileHandle,
    /** Size in bytes when opened. */
    readonly size: number,
  ) {}

  /** Opens `path`; throws like `readRegularFile` (`ENOENT`, `EISDIR`, `EINVAL`). */
  static async open(path: string): Promise<TextFileReader> {
    const handle = await openRegularFile(path);
    try {
      return new TextFileReader(handle, (await handle.stat()).size);
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  /** True when the file's first bytes look binary (a NUL byte, as git decides). */
  async looksBinary(): Promise<boolean> {
    const head = Buffer.alloc(sniffBytes);
    const { bytesRead } = await this.handle.read(head, 0, sniffBytes, 0);
    return looksBinary(head.subarray(0, bytesRead));
  }

  /**
   * The file's lines from the start, in blocks of whole lines. A line that runs on for more than
   * `maxLineBytes` without a line end comes alone in a block, cut, with `cutFrom` its length (a
   * shorter one may still be cut by nothing but the block). Between reads `signal` is checked and
   * `stopAt(bytes read so far)` may end the reading early ({@link stoppedEarly}).
   */
  async *blocks(
    maxLineBytes: number,
    options: { signal?: AbortSignal; stopAt?: (position: number) => boolean } = {},
  ): AsyncGenerator<LineBlock> {
    this.stoppedEarly = false;
    const buffer = Buffer.alloc(readBytes);
    let position = 0;
    /** The start of a line whose end was not read yet (at most `maxLineBytes`). */
    let carry = Buffer.alloc(0);
    /** While skipping the rest of a cut line: its kept start and its length so far. */
    let cut: { kept: Buffer; length: number } | undefined;
    for (;;) {
      options.signal?.throwIfAborted();
      if (options.stopAt?.(position)) {
        this.stoppedEarly = position < this.size || carry.length > 0 || cut !== undefined;
        return;
      }
      const { bytesRead } = await this.handle.read(buffer, 0, readBytes, position);
      if (bytesRead === 0) break;
      position += bytesRead;
      let data = buffer.subarray(0, bytesRead);
      if (cut) {
        const end = data.indexOf(10);
        if (end === -1) {
          cut.length += data.length;
          continue;
        }
        yield { bytes: cut.kept, cutFrom: cut.length + end };
        cut = undefined;
        data = data.subarray(end + 1);
      }
      const lastEnd = data.lastIndexOf(10);
      if (lastEnd === -1) {
        carry = Buffer.concat([carry, data]);
        if (carry.length > maxLineBytes) {
          cut = {
            kept: Buffer.from(carry.subarray(0, characterBoundary(carry, maxLineBytes))),
            length: carry.length,
          };
          carry = Buffer.alloc(0);
        }
        continue;
      }
      // Copied: `buffer` is reused by the next read.
      const block = Buffer.concat([carry, data.subarray(0, lastEnd + 1)]);
      carry = Buffer.from(data.subarray(lastEnd + 1));
      yield { bytes: block };
    }
    if (cut) yield { bytes: cut.kept, cutFrom: cut.length };
    else if (carry.length > 0) yield { bytes: carry };
  }

  async close(): Promise<void> {
    await this.handle.close();
  }
}

/** The lines of a block's text: split on `\n`, a `\r` before it dropped, no empty last line for the final `\n`. */
export function blockLines(text: string): string[] {
  const lines = text.split("\n");
  if (text.endsWith("\n")) lines.pop();
  for (let index = 0; index < lines.length; index++) {
    const line = lines[index] as string;
    if (line.endsWith("\r")) lines[index] = line.slice(0, -1);
  }
  return lines;
}

/** The largest length at most `limit` that does not end inside a UTF-8 character of `bytes`. */
function characterBoundary(bytes: Buffer, limit: number): number {
  let end = limit;
  // 0b10xxxxxx is a continuation byte: the character started before it.
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  return end;
}
