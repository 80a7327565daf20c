import { existsSync } from "node:fs";
import { readTextFile } from "../files/file-texts.js";

/** The largest root marker whose text is searched (a pyproject.toml, a Cargo.toml), in bytes. */
const markerBytes = 4 * 1024 * 1024;
import { dirname, join, relative, isAbsolute, sep } from "node:path";
import type { ServerSpec, WorkspaceMarker } from "./server-table.js";

/** Whether `path` is `directory` or inside it (a child named `..x` is inside). */
export function isInside(directory: string, path: string): boolean {
  const rel = relative(directory, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** The markers a root lookup looks for: a server spec's, or any object holding them. */
export type RootMarkers = Pick<ServerSpec, "markers" | "workspaceMarkers">;

/** A root found, with the marker (file name, or path below the root) that made it one. */
export interface FoundMarker {
  readonly root: string;
  readonly marker: string;
}

/** What a root lookup asks of one folder; {@link RootCache} answers from its cache. */
export interface FolderMarkers {
  /** Whether the folder holds `marker` (a file name, or a path below the folder). */
  has(marker: string): boolean;
  /** Whether the text of the folder's file `marker` matches `pattern` (false when unreadable). */
  matches(marker: string, pattern: RegExp): boolean;
}

/**
 * The root of `file` for `spec`: the nearest ancestor (inside `workingDirectory`) holding one of
 * `spec.workspaceMarkers`, else the nearest holding one of `spec.markers` (the first of each
 * list, in its order, that the folder holds); undefined when no folder up to the working
 * directory has one. Reads the disk on every call; see {@link RootCache} for the cached lookup.
 */
export function findRoot(file: string, spec: RootMarkers, workingDirectory: string): FoundMarker | undefined {
  return lookUpRoot(file, spec, workingDirectory, (directory) => ({
    has: (marker) => existsSync(join(directory, marker)),
    matches: (marker, pattern) => textMatches(join(directory, marker), pattern),
  }));
}

/**
 * The walk of {@link findRoot}, asking `folder(directory)` about each ancestor. Without
 * workspace markers it stops at the first marker; with them it goes up to the working directory.
 */
export function lookUpRoot(
  file: string,
  spec: RootMarkers,
  workingDirectory: string,
  folder: (directory: string) => FolderMarkers,
): FoundMarker | undefined {
  const workspaceMarkers = spec.workspaceMarkers ?? [];
  let nearest: FoundMarker | undefined;
  let directory = dirname(file);
  while (isInside(workingDirectory, directory)) {
    const markers = folder(directory);
    const workspace = workspaceMarkerIn(markers, workspaceMarkers);
    if (workspace !== undefined) return { root: directory, marker: workspace };
    if (nearest === undefined) {
      const marker = spec.markers.find((candidate) => markers.has(candidate));
      if (marker !== undefined) {
        nearest = { root: directory, marker };
        if (workspaceMarkers.length === 0) return nearest;
      }
    }
    if (directory === workingDirectory) break;
    const parent = dirname(directory);
    if (parent === directory) break;
    directory = parent;
  }
  return nearest;
}

/** The file name of the first of `workspaceMarkers` that `markers`' folder holds (text matching), if any. */
export function workspaceMarkerIn(
  markers: FolderMarkers,
  workspaceMarkers: readonly WorkspaceMarker[],
): string | undefined {
  return workspaceMarkers.find(
    ({ file, contains }) => markers.has(file) && (contains === undefined || markers.matches(file, contains)),
  )?.file;
}

/** Whether the text of the file at `path` matches `pattern`; false when it cannot be read. */
export function textMatches(path: string, pattern: RegExp): boolean {
  try {
    // search() ignores a global pattern's lastIndex.
    return readTextFile(path, markerBytes).search(pattern) !== -1;
  } catch {
    return false;
  }
}

/**
 * The path of the nearest of `spec.markers` in a folder above `workingDirectory` (its parent up
 * to the filesystem's root), or undefined: a root there is not used (roots are found only inside
 * the working directory), and the file a "no root marker" answer would have the user make exists.
 */
export function markerAbove(spec: Pick<ServerSpec, "markers">, workingDirectory: string): string | undefined {
  let directory = workingDirectory;
  for (let parent = dirname(directory); parent !== directory; parent = dirname(directory)) {
    directory = parent;
    const marker = spec.markers.find((candidate) => existsSync(join(directory, candidate)));
    if (marker !== undefined) return join(directory, marker);
  }
  return undefined;
}

/** `root`, then each parent up to and including `workingDirectory` (only `root` outside it). */
export function foldersUp(root: string, workingDirectory: string | undefined): string[] {
  if (workingDirectory === undefined || !isInside(workingDirectory, root)) return [root];
  const folders = [root];
  let current = root;
  while (current !== workingDirectory) {
    const parent = dirname(current);
    if (parent === current) break;
    folders.push(parent);
    current = parent;
  }
  return folders;
}
