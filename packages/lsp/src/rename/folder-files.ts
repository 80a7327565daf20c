import { readdirSync } from "node:fs";
import { join } from "node:path";

/** Most files a folder move of one edit carries; a bigger folder is moved by hand. */
export const folderMoveLimit = 2_000;

/** What a folder holds, for moving it file by file. */
export interface FolderFiles {
  /** Every regular file below the folder, in name order per level. */
  readonly files: string[];
  /** The folder and every folder below it, deepest last. */
  readonly folders: string[];
}

/**
 * Lists what a folder move carries (gopls renames a package by moving its folder), or says why
 * it will not: a symbolic link or special file inside (reading and rewriting it would not move
 * it faithfully), or more than `limit` files.
 */
export function folderFiles(folder: string, limit: number = folderMoveLimit): FolderFiles | string {
  const files: string[] = [];
  const folders: string[] = [];
  const pending = [folder];
  while (pending.length > 0) {
    const current = pending.shift()!;
    folders.push(current);
    const entries = readdirSync(current, { withFileTypes: true }).sort((a, b) =>
      a.name.localeCompare(b.name),
    );
    for (const entry of entries) {
      const path = join(current, entry.name);
      if (entry.isDirectory()) pending.push(path);
      else if (entry.isFile()) files.push(path); // a Dirent of readdir is not followed: a link is no file
      else return `it holds ${path}, which is not a regular file`;
      if (files.length > limit) return `it holds more than ${limit} files`;
    }
  }
  return { files, folders };
}
