import { existsSync, readdirSync } from "node:fs";
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

/** Folders below the root the marker search of `adapters` looks into, and how many at most. */
const below = { depth: 2, folders: 500 } as const;

/**
 * The first root marker in the folders below `root` (breadth first, at most 2 levels down and
 * 500 folders; hidden folders and node_modules skipped): where `adapters` finds the marker a
 * launch of a program in that folder would use (`backend/pyproject.toml`).
 */
export function findMarkerBelow(markers: readonly string[], root: string): string | undefined {
  let level = [resolve(root)];
  let visited = 0;
  for (let depth = 1; depth <= below.depth && level.length > 0; depth++) {
    const next: string[] = [];
    for (const folder of level) {
      for (const name of subfolders(folder)) {
        if (++visited > below.folders) return undefined;
        const path = join(folder, name);
        for (const marker of markers) {
          const candidate = join(path, marker);
          if (existsSync(candidate)) return candidate;
        }
        next.push(path);
      }
    }
    level = next;
  }
  return undefined;
}

function subfolders(folder: string): string[] {
  try {
    return readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && !entry.name.startsWith(".") && entry.name !== "node_modules")
      .map((entry) => entry.name)
      .sort();
  } catch {
    return [];
  }
}
