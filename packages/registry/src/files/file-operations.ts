import * as fs from "node:fs/promises";
import { readRegularFile } from "./read-regular-file.js";

/** The file system calls {@link writeFiles} makes; tests inject failures here. */
export interface FileOperations {
  readFile(path: string): Promise<Uint8Array>;
  /** Writes a new file; `mode` (set exactly, whatever the umask) given when it replaces a file whose mode is kept. */
  writeFile(path: string, data: string | Uint8Array, options: { mode?: number }): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  unlink(path: string): Promise<void>;
  stat(path: string): Promise<FileStatus>;
  /** Creates one folder (its parent exists). */
  mkdir(path: string): Promise<void>;
  /** Removes one empty folder. */
  rmdir(path: string): Promise<void>;
  realpath(path: string): Promise<string>;
}

/** What {@link FileOperations.stat} tells of a file (fields of Node's `fs.Stats`). */
export interface FileStatus {
  readonly mode: number;
  /**
   * How many names (hard links) the file has: a file with more than one is given its own copy by
   * a write (a rename), which the outcome's `warnings` say.
   */
  readonly nlink: number;
  isDirectory(): boolean;
  isFile(): boolean;
}

/** The real file system. */
export const nodeFileOperations: FileOperations = {
  // A FIFO where a file is expected is refused, not read (the read would never end).
  readFile: (path) => readRegularFile(path),
  writeFile: async (path, data, options) => {
    if (options.mode === undefined) return fs.writeFile(path, data, { flag: "wx" });
    // Created with the mode (never looser than it), then set exactly: the umask would cut it
    // (0o664 to 0o644).
    await fs.writeFile(path, data, { flag: "wx", mode: options.mode });
    // Best effort: a file system without modes (CIFS, some FUSE) refuses chmod, and the file is
    // written all the same, with the mode the umask left.
    await fs.chmod(path, options.mode).catch(() => undefined);
  },
  rename: (from, to) => fs.rename(from, to),
  unlink: (path) => fs.unlink(path),
  stat: (path) => fs.stat(path),
  mkdir: async (path) => {
    await fs.mkdir(path);
  },
  rmdir: (path) => fs.rmdir(path),
  realpath: (path) => fs.realpath(path),
};
