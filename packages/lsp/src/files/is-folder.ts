import { lstatSync, statSync } from "node:fs";

/** True when `path` is a folder (a symlink to one too); false when it is not, or cannot be read. */
export function isFolder(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}

/** True when `path` is a folder itself, not a symlink to one (a link to anywhere is not followed). */
export function isRealFolder(path: string): boolean {
  try {
    return lstatSync(path).isDirectory();
  } catch {
    return false;
  }
}
