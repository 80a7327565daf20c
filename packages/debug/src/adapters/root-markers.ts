import { existsSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";

/**
 * The first root marker found walking up from `start` to `root` (both included), as an absolute
 * path; undefined when none of `markers` exists on the way. Never looks above `root`.
 */
export function findMarker(markers: readonly string[], start: string, root: string): string | undefined {
  let current = resolve(start);
  const top = resolve(root);
  for (;;) {
    for (const marker of markers) {
      const candidate = join(current, marker);
      if (existsSync(candidate)) return candidate;
    }
    if (current === top) return undefined;
    const rel = relative(top, current);
    if (rel === "" || rel.startsWith("..")) return undefined;
    const parent = dirname(current);
    if (parent === current) return undefined;
    current = parent;
  }
}
