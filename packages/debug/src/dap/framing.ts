/**
 * Content-Length framing of the Debug Adapter Protocol: `Content-Length: N\r\n\r\n` followed by N
 * bytes of UTF-8 JSON. The parser keeps partial input across chunks: a body's chunks are joined
 * once, when the last of them is in (a large answer comes in many chunks), not at every chunk.
 */
export class FrameParser {
  // The input not parsed yet, in the chunks it came in.
  private chunks: Buffer[] = [];
  private buffered = 0;
  // The body length its header gave, while the body is still coming.
  private bodyLength: number | undefined;

  /** Feeds a chunk; returns every complete message body it finished, parsed as JSON. */
  push(chunk: Buffer): unknown[] {
    this.chunks.push(chunk);
    this.buffered += chunk.length;
    const messages: unknown[] = [];
    for (;;) {
      if (this.bodyLength === undefined) {
        const input = this.joined();
        const headerEnd = input.indexOf("\r\n\r\n");
        if (headerEnd < 0) break;
        const header = input.subarray(0, headerEnd).toString("ascii");
        const match = /content-length:\s*(\d+)/i.exec(header);
        this.keep(input.subarray(headerEnd + 4));
        // Not a frame header (noise on the stream): dropped, and the next one looked for.
        if (!match) continue;
        this.bodyLength = Number(match[1]);
      }
      if (this.buffered < this.bodyLength) break;
      const input = this.joined();
      const body = input.subarray(0, this.bodyLength).toString("utf8");
      this.keep(input.subarray(this.bodyLength));
      this.bodyLength = undefined;
      try {
        messages.push(JSON.parse(body));
      } catch {
        // A malformed body is skipped; the next frame is still readable.
      }
    }
    return messages;
  }

  /** The input not parsed yet, in one buffer. */
  private joined(): Buffer {
    if (this.chunks.length !== 1) this.chunks = [Buffer.concat(this.chunks, this.buffered)];
    return this.chunks[0]!;
  }

  private keep(rest: Buffer): void {
    this.chunks = rest.length > 0 ? [rest] : [];
    this.buffered = rest.length;
  }
}

/** Frames one message for the wire. */
export function encodeFrame(message: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(message), "utf8");
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, "ascii"), body]);
}
