import { StringDecoder } from "node:string_decoder";

/**
 * The environment variable that gives the executor the key of the mark it writes to its fd 1 and
 * fd 2 after each cell (see {@link cellEndMark}); the executor deletes it from its environment at
 * start.
 */
export const cellEndMarkVariable = "TOOLS_KERNEL_CELL_END_MARK";

/**
 * The cell-end mark of `key` (random text, no NUL: it travels in the environment) after cell
 * `id` (its sequence number, from 1): NUL, the key, the id, NUL — text a cell does not write by
 * chance.
 */
export function cellEndMark(key: string, id: number): Buffer {
  return Buffer.from(`${markPrefixText(key)}${id}\0`);
}

function markPrefixText(key: string): string {
  return `\0tools-cell-end-${key}-`;
}

/** The most digits a mark's cell id has (ids are safe integers). */
const idDigitsMax = 16;

/**
 * One of the executor's standard streams as the kernel reads it: its fd 1 or fd 2 is a pipe to
 * the kernel, so what a cell writes there without console or process.stdout (`fs.writeSync(1, …)`,
 * a child process with stdio "inherit") is the cell's output too. After each cell the executor
 * writes the cell-end mark of that cell (see {@link cellEndMark}) to both; this takes it out of
 * the text and tells `onMark` the cell's id, so the kernel ends the cell only once everything
 * written before it has been read — a pipe and the executor's IPC channel are read in no fixed
 * order. Bytes are decoded as UTF-8 across chunks, but not across a mark: a character a cell left
 * unfinished ends as U+FFFD in that cell's text. The end of a chunk that could be the start of a
 * mark is held for the next.
 */
export class MarkedStream {
  private readonly decoder = new StringDecoder("utf8");
  private held: Buffer = Buffer.alloc(0);
  private readonly prefix: Buffer;

  constructor(
    key: string,
    private readonly onText: (text: string) => void,
    private readonly onMark: (id: number) => void,
  ) {
    if (key === "") throw new RangeError("a cell-end mark needs a key");
    this.prefix = Buffer.from(markPrefixText(key));
  }

  /** A chunk read from the pipe. */
  push(chunk: Buffer): void {
    let data = this.held.length === 0 ? chunk : Buffer.concat([this.held, chunk]);
    for (let at = data.indexOf(this.prefix); at >= 0; at = data.indexOf(this.prefix)) {
      const digitsAt = at + this.prefix.length;
      let end = digitsAt;
      while (end < data.length && end - digitsAt <= idDigitsMax && isDigit(data[end])) end++;
      if (end === data.length && end - digitsAt <= idDigitsMax) {
        // The mark may go on in the next chunk.
        this.text(data.subarray(0, at));
        this.held = Buffer.from(data.subarray(at));
        return;
      }
      if (end === digitsAt || end - digitsAt > idDigitsMax || data[end] !== 0) {
        // Only looked like a mark: text, and the search goes on after its first byte.
        this.text(data.subarray(0, at + 1));
        data = data.subarray(at + 1);
        continue;
      }
      this.text(data.subarray(0, at));
      // What the cell left of a character is its own (as U+FFFD), not the next cell's start.
      this.flushDecoder();
      const id = Number(data.subarray(digitsAt, end).toString("latin1"));
      data = data.subarray(end + 1);
      this.onMark(id);
    }
    const keep = markStartAtEnd(data, this.prefix);
    this.text(data.subarray(0, data.length - keep));
    this.held = Buffer.from(data.subarray(data.length - keep));
  }

  /** The pipe ended: what was held is text. */
  end(): void {
    this.text(this.held);
    this.held = Buffer.alloc(0);
    this.flushDecoder();
  }

  private text(bytes: Buffer): void {
    if (bytes.length === 0) return;
    const text = this.decoder.write(bytes);
    if (text !== "") this.onText(text);
  }

  private flushDecoder(): void {
    const rest = this.decoder.end();
    if (rest !== "") this.onText(rest);
  }
}

function isDigit(byte: number | undefined): boolean {
  return byte !== undefined && byte >= 0x30 && byte <= 0x39;
}

type StreamName = "stdout" | "stderr";

/**
 * The cell-end marks read on the executor's two pipes: the highest cell id each has shown. A
 * cell ends once each pipe it was marked on has shown its id or a later one (or has ended); a
 * mark read late (after {@link boundMs}) counts for its own cell only, never for the next one.
 */
export class CellEndMarks {
  private readonly read = {
    stdout: { lastId: 0, ended: false },
    stderr: { lastId: 0, ended: false },
  };
  private waiting:
    | {
        readonly id: number;
        readonly marked: readonly StreamName[];
        readonly onRead: () => void;
        readonly timer: NodeJS.Timeout;
      }
    | undefined;

  /**
   * `boundMs`: the longest wait for marks (a process a cell started may write a lot to a pipe
   * before the mark, and the kernel reads it all first).
   */
  constructor(private readonly boundMs = 2000) {}

  /** The mark of cell `id` was read on `name`'s pipe. */
  seen(name: StreamName, id: number): void {
    const stream = this.read[name];
    stream.lastId = Math.max(stream.lastId, id);
    this.check();
  }

  /** `name`'s pipe ended: no more marks come on it. */
  ended(name: StreamName): void {
    this.read[name].ended = true;
    this.check();
  }

  /**
   * Calls `then` once the pipes `marked` (those the executor wrote cell `id`'s mark to) have
   * been read up to that mark, or {@link boundMs} later. Replaces a wait still pending.
   */
  afterMarks(id: number, marked: readonly StreamName[], then: () => void): void {
    if (this.waiting !== undefined) clearTimeout(this.waiting.timer);
    const timer = setTimeout(() => {
      if (this.waiting?.timer !== timer) return;
      this.waiting = undefined;
      then();
    }, this.boundMs);
    this.waiting = { id, marked, onRead: then, timer };
    this.check();
  }

  private check(): void {
    const waiting = this.waiting;
    if (waiting === undefined) return;
    const read = waiting.marked.every(
      (name) => this.read[name].ended || this.read[name].lastId >= waiting.id,
    );
    if (!read) return;
    this.waiting = undefined;
    clearTimeout(waiting.timer);
    waiting.onRead();
  }
}

/** How many bytes at the end of `data` are the start of `mark` (at most its length less one). */
function markStartAtEnd(data: Buffer, mark: Buffer): number {
  for (let n = Math.min(mark.length - 1, data.length); n > 0; n--) {
    if (data[data.length - n] === mark[0] && data.subarray(data.length - n).equals(mark.subarray(0, n)))
      return n;
  }
  return 0;
}
