import { readFileSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";

/** The 1-based line of `text` holding `needle` (0 when none does). */
export function lineOf(text: string, needle: string): number {
  return text.split("\n").findIndex((line) => line.includes(needle)) + 1;
}

/**
 * Replaces the file at `path` `rounds` times, each time with the text `rewrite` makes of it (by
 * default blank lines put before it: what it declares moves down): in the first eight rounds as `git checkout` does (removed, then written
 * anew), then as `cp -p` does (written in place, its mtime an hour back). `before` runs ahead of
 * each replacement (the server reads the file as it was), every other round after a pause (settled
 * a while, or not); `after` runs at once after it, given the new text. The file's text is put back
 * at the end.
 */
export async function replaceOnDisk(
  path: string,
  rounds: number,
  before: () => Promise<unknown>,
  after: (text: string, round: number) => Promise<void>,
  rewrite: (original: string, round: number) => string = movedDown,
): Promise<void> {
  const original = readFileSync(path, "utf8");
  try {
    for (let i = 0; i < rounds; i++) {
      await before();
      if (i % 2 === 0) await new Promise((resolve) => setTimeout(resolve, 300));
      const text = rewrite(original, i);
      if (i >= 8) {
        writeFileSync(path, text);
        const then = Date.now() / 1000 - 3600;
        utimesSync(path, then, then);
      } else {
        unlinkSync(path);
        writeFileSync(path, text);
      }
      await after(text, i);
    }
  } finally {
    writeFileSync(path, original);
  }
}

/** The text with blank lines before it, a different number each round. */
function movedDown(original: string, round: number): string {
  return "\n".repeat(round < 8 ? (round % 2 ? 3 : 7) : 10 + (round % 2)) + original;
}
