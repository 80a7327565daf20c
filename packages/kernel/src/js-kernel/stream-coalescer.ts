/** A stream message of the executor: which stream, and the text written to it. */
export interface StreamChunk {
  readonly name: "stdout" | "stderr";
  readonly text: string;
}

/**
 * Joins consecutive writes to one stream into one iopub message, as ipykernel does: a cell that
 * calls console.log 100 000 times would otherwise send as many messages, each signed, sent and
 * parsed on its own. The text goes out once the executor's messages that arrived together are
 * handled (setImmediate), so nothing waits for a timer; {@link flush} before any other message
 * of the cell keeps the order, and a write to the other stream or for another cell flushes first.
 */
export class StreamCoalescer<Parent> {
  private pending: { parent: Parent; name: StreamChunk["name"]; text: string } | undefined;
  private scheduled = false;

  constructor(private readonly emit: (parent: Parent, chunk: StreamChunk) => void) {}

  /** Buffers `chunk` of the cell `parent`. */
  write(parent: Parent, chunk: StreamChunk): void {
    if (this.pending && (this.pending.parent !== parent || this.pending.name !== chunk.name)) this.flush();
    if (this.pending) this.pending.text += chunk.text;
    else this.pending = { parent, name: chunk.name, text: chunk.text };
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  /** Emits the buffered text now, if any. */
  flush(): void {
    const pending = this.pending;
    this.pending = undefined;
    if (pending) this.emit(pending.parent, { name: pending.name, text: pending.text });
  }
}
