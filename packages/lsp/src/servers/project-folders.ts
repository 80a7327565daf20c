import { existsSync, readdirSync } from "node:fs";
import { extname, join } from "node:path";
import { isInside, textMatches, workspaceMarkerIn, type FolderMarkers } from "./find-root.js";
import type { ServerSpec } from "./server-table.js";

/**
 * Folders never searched for project roots: dependencies, virtual environments, VCS data and
 * build outputs (hidden folders are skipped too). The folder watch of a server's root skips
 * fewer (see `WatchedFolders`): a root holds no root below these, but its server reads some.
 */
export const skippedFolders: ReadonlySet<string> = new Set([
  "node_modules",
  "bower_components",
  "venv",
  "__pycache__",
  "site-packages",
  "vendor",
  "target",
  "build",
  "dist",
  "out",
  "coverage",
]);

/** How deep and how wide {@link findProjectRoots} searches. */
export interface RootSearchLimits {
  /** Folder levels below the working directory (the working directory is level 0); default 4. */
  readonly maxDepth: number;
  /** Most folders listed; default 2 000. */
  readonly maxFolders: number;
}

/** The default search: four levels, 2 000 folders. */
export const defaultRootSearch: RootSearchLimits = { maxDepth: 4, maxFolders: 2000 };

/** One root found by {@link findProjectRoots}. */
export interface FoundRoot {
  readonly spec: ServerSpec;
  readonly root: string;
  readonly marker: string;
  /**
   * The nearest folder above `root` holding one of the spec's workspace markers (a go.work, a
   * Cargo workspace), itself a found root: its server serves this folder too, so a server root
   * is `workspace ?? root`. Undefined when none, or when `root` is itself a workspace root.
   * Project checkers still run per folder (`go vet ./...` fails in a go.work folder).
   */
  readonly workspace?: string;
}

/** What {@link findProjectRoots} found, and whether it stopped at its folder bound. */
export interface RootSearch {
  readonly roots: FoundRoot[];
  /** Folders listed. */
  readonly folders: number;
  /** True when the folder bound stopped the search: deeper or later folders were not seen. */
  readonly truncated: boolean;
  readonly limits: RootSearchLimits;
  /**
   * Per language with source files in the folders searched but no root found for them: the
   * first such file (breadth first), for saying how to make the marker its server needs.
   */
  readonly unrooted: ReadonlyMap<ServerSpec, string>;
}

/**
 * Every folder from `workingDirectory` down to `limits.maxDepth` levels (breadth first, hidden
 * folders, symlinks and {@link skippedFolders} left out) holding a marker of a server in
 * `servers`, with the marker it holds: its first workspace marker (see
 * `ServerSpec.workspaceMarkers`), else its first marker, in the spec's order. One directory
 * listing per folder: markers are matched against the listing, never probed one by one (a
 * workspace marker whose text is tested is read).
 */
export function findProjectRoots(
  workingDirectory: string,
  servers: readonly ServerSpec[],
  limits: RootSearchLimits = defaultRootSearch,
): RootSearch {
  const roots: FoundRoot[] = [];
  const unrooted = new Map<ServerSpec, string>();
  // Per spec, the workspace roots found so far: breadth first, every ancestor comes first.
  const workspaces = new Map<ServerSpec, string[]>();
  let level = [workingDirectory];
  let folders = 0;
  let truncated = false;
  for (let depth = 0; depth <= limits.maxDepth && level.length > 0; depth++) {
    const next: string[] = [];
    for (const folder of level) {
      if (folders >= limits.maxFolders) {
        truncated = true;
        break;
      }
      folders += 1;
      let entries;
      try {
        entries = readdirSync(folder, { withFileTypes: true });
      } catch {
        continue; // unreadable: nothing below it is seen
      }
      const names = new Set(entries.map((entry) => entry.name));
      const markers: FolderMarkers = {
        has: (marker) => hasMarker(folder, names, marker),
        matches: (marker, pattern) => textMatches(join(folder, marker), pattern),
      };
      for (const spec of servers) {
        const workspaceMarker = workspaceMarkerIn(markers, spec.workspaceMarkers ?? []);
        const marker = workspaceMarker ?? spec.markers.find((candidate) => markers.has(candidate));
        if (marker === undefined) continue;
        const enclosing = workspaces.get(spec) ?? [];
        // The last one holding this folder is the nearest: a nested workspace is found after its outer one.
        const workspace = enclosing.findLast((outer) => isInside(outer, folder));
        if (workspaceMarker !== undefined) workspaces.set(spec, [...enclosing, folder]);
        roots.push({
          spec,
          root: folder,
          marker,
          ...(workspace !== undefined && workspaceMarker === undefined ? { workspace } : {}),
        });
      }
      // A source file of a language none of whose roots found so far (this folder's, and every
      // folder above it: breadth first) holds it.
      const rootless = servers.filter(
        (spec) =>
          !unrooted.has(spec) && !roots.some((found) => found.spec === spec && isInside(found.root, folder)),
      );
      for (const entry of rootless.length > 0 ? entries : []) {
        if (!entry.isFile()) continue;
        const extension = extname(entry.name).toLowerCase();
        for (const spec of rootless) {
          if (!unrooted.has(spec) && spec.extensions.includes(extension))
            unrooted.set(spec, join(folder, entry.name));
        }
      }
      for (const entry of entries) {
        if (!entry.isDirectory() || entry.name.startsWith(".") || skippedFolders.has(entry.name)) continue;
        next.push(join(folder, entry.name));
      }
    }
    if (truncated) break;
    next.sort();
    level = next;
  }
  return { roots, folders, truncated, limits, unrooted };
}

/**
 * True when `folder` (whose entries are `names`) holds `marker`. A marker in a subfolder
 * ("build/compile_commands.json", CMake's usual output) is looked up on disk, and only when that
 * subfolder is there, so a plain folder costs no extra call.
 */
function hasMarker(folder: string, names: ReadonlySet<string>, marker: string): boolean {
  const slash = marker.indexOf("/");
  if (slash < 0) return names.has(marker);
  return names.has(marker.slice(0, slash)) && existsSync(join(folder, marker));
}

/** How the search was bounded, for messages: "within 4 folder levels below the working directory …". */
export function describeRootSearch(search: RootSearch): string {
  const scope = `within ${search.limits.maxDepth} folder levels below the working directory (hidden, dependency and build-output folders skipped)`;
  return search.truncated
    ? `${scope}; the search stopped at its bound of ${search.limits.maxFolders} folders, so later folders were not searched`
    : scope;
}
