import { tailOf } from "@tools/registry";

/** Keeps the last `maxChars` characters (never half of one: an emoji's two halves stay together) of a stream of text, and counts those it let go. */
export class TailBuffer {
  private chunks: string[] = [];
  private length = 0;
  private droppedChars = 0;

  constructor(private readonly maxChars: number) {}

  push(chunk: string): void {
    this.chunks.push(chunk);
    this.length += chunk.length;
    if (this.length > this.maxChars * 2) this.compact();
  }

  text(): string {
    this.compact();
    return this.chunks.join("");
  }

  /**
   * Takes back the last `chars` characters pushed: they are no part of the stream any more (a
   * line a carriage return rewrote). Those of them let go already are no longer counted as left out.
   */
  takeBack(chars: number): void {
    if (chars <= 0) return;
    const kept = this.text();
    const taken = Math.min(chars, kept.length);
    this.chunks = [kept.slice(0, kept.length - taken)];
    this.length = kept.length - taken;
    this.droppedChars -= chars - taken;
  }

  /** How many characters from the start of the stream are no longer kept. */
  dropped(): number {
    this.compact();
    return this.droppedChars;
  }

  private compact(): void {
    const joined = this.chunks.join("");
    const kept = tailOf(joined, this.maxChars);
    this.droppedChars += joined.length - kept.length;
    this.chunks = [kept];
    this.length = kept.length;
  }
}
