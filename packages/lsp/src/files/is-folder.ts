import { lstatSync, statSync } from "node:fs";

/**
 * True when `path` is a folder (a symlink to one too); false when it is not, or cannot be read.
 * Nothing is thrown for a path not there (a tenth of the cost: the folders outside a root that
 * are gone are looked at on every answer).
 */
export function isFolder(path: string): boolean {
  try {
    return statSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}

/** True when `path` is a folder itself, not a symlink to one (a link to anywhere is not followed). */
export function isRealFolder(path: string): boolean {
  try {
    return lstatSync(path, { throwIfNoEntry: false })?.isDirectory() === true;
  } catch {
    return false;
  }
}
