/** Keeps the last `maxChars` characters of a stream of text. */
export class TailBuffer {
  private chunks: string[] = [];
  private length = 0;

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

  private compact(): void {
    const joined = this.chunks.join("");
    const kept = joined.length > this.maxChars ? joined.slice(-this.maxChars) : joined;
    this.chunks = [kept];
    this.length = kept.length;
  }
}
