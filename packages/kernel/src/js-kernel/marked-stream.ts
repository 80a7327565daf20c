import { StringDecoder } from "node:string_decoder";

/**
 * The environment variable that gives the executor the key of the mark it writes to its fd 1 and
 * fd 2 after each cell (see {@link cellEndMark}); the executor deletes it from its environment at
 * start.
 */
export const cellEndMarkVariable = "TOOLS_KERNEL_CELL_END_MARK";

/**
 * The cell-end mark of `key` (random text, no NUL: it travels in the environment): NUL, the key,
 * NUL — text a cell does not write by chance.
 */
export function cellEndMark(key: string): Buffer {
  return Buffer.from(`\0tools-cell-end-${key}\0`);
}

/**
 * One of the executor's standard streams as the kernel reads it: its fd 1 or fd 2 is a pipe to
 * the kernel, so what a cell writes there without console or process.stdout (`fs.writeSync(1, …)`,
 * a child process with stdio "inherit") is the cell's output too. After each cell the executor
 * writes the cell-end mark (NUL, random text, NUL) to both; this takes it out of the text and
 * tells `onMark`, so the kernel ends the cell only once everything written before it has been
 * read — a pipe and the executor's IPC channel are read in no fixed order. Bytes are decoded as
 * UTF-8 across chunks; the end of a chunk that could be the start of a mark is held for the next.
 */
export class MarkedStream {
  private readonly decoder = new StringDecoder("utf8");
  private held: Buffer = Buffer.alloc(0);

  constructor(
    private readonly mark: Buffer,
    private readonly onText: (text: string) => void,
    private readonly onMark: () => void,
  ) {
    if (mark.length < 2) throw new RangeError("a cell-end mark needs at least two bytes");
  }

  /** A chunk read from the pipe. */
  push(chunk: Buffer): void {
    let data = this.held.length === 0 ? chunk : Buffer.concat([this.held, chunk]);
    for (let at = data.indexOf(this.mark); at >= 0; at = data.indexOf(this.mark)) {
      this.text(data.subarray(0, at));
      data = data.subarray(at + this.mark.length);
      this.onMark();
    }
    const keep = markStartAtEnd(data, this.mark);
    this.text(data.subarray(0, data.length - keep));
    this.held = Buffer.from(data.subarray(data.length - keep));
  }

  /** The pipe ended: what was held is text. */
  end(): void {
    this.text(this.held);
    this.held = Buffer.alloc(0);
    const rest = this.decoder.end();
    if (rest !== "") this.onText(rest);
  }

  private text(bytes: Buffer): void {
    if (bytes.length === 0) return;
    const text = this.decoder.write(bytes);
    if (text !== "") this.onText(text);
  }
}

type StreamName = "stdout" | "stderr";

/**
 * The cell-end marks of the executor's two pipes: those it said it wrote, and those read. A cell
 * ends once each pipe has been read up to its last mark (or has ended).
 */
export class CellEndMarks {
  private readonly count = {
    stdout: { written: 0, seen: 0, ended: false },
    stderr: { written: 0, seen: 0, ended: false },
  };
  private waiting: { readonly onRead: () => void; readonly timer: NodeJS.Timeout } | undefined;

  /**
   * `boundMs`: the longest wait for marks (a cell that closed fd 1 and opened a file, which took
   * its number, had its mark written to the file).
   */
  constructor(private readonly boundMs = 2000) {}

  /** A mark was read on `name`'s pipe. */
  seen(name: StreamName): void {
    this.count[name].seen++;
    this.check();
  }

  /** `name`'s pipe ended: no more marks come on it. */
  ended(name: StreamName): void {
    this.count[name].ended = true;
    this.check();
  }

  /**
   * Calls `then` once the pipes `marked` (those the executor wrote a mark to after the cell) have
   * been read up to that mark, or {@link boundMs} later (marks still unread are then given up on).
   */
  afterMarks(marked: readonly StreamName[], then: () => void): void {
    if (this.waiting !== undefined) clearTimeout(this.waiting.timer);
    for (const name of marked) this.count[name].written++;
    const timer = setTimeout(() => {
      for (const stream of Object.values(this.count)) stream.written = stream.seen;
      this.check();
    }, this.boundMs);
    this.waiting = { onRead: then, timer };
    this.check();
  }

  private check(): void {
    const waiting = this.waiting;
    if (waiting === undefined) return;
    if (!Object.values(this.count).every((stream) => stream.ended || stream.seen >= stream.written)) return;
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
