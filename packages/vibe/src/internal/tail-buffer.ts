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
   * Adds what `other` kept of the stream that follows this one, and counts what it let go as left
   * out here (the parts of a line passed on one by one, once the line ended).
   */
  append(other: TailBuffer): void {
    const dropped = other.dropped();
    // What it let go lay between what this keeps and what it kept: this keeps none of it either.
    if (dropped > 0) this.letGoAll();
    this.droppedChars += dropped;
    this.push(other.text());
  }

  /** Lets go of all it keeps, counted as left out. */
  private letGoAll(): void {
    this.droppedChars += this.length;
    this.chunks = [];
    this.length = 0;
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
