import { closeSync, constants, fstatSync, openSync, readFileSync, type Stats } from "node:fs";
import { open, type FileHandle } from "node:fs/promises";

/** Opened without blocking: an open of a FIFO with no writer would wait for one. */
const flags = constants.O_RDONLY | constants.O_NONBLOCK;

/**
 * Throws unless `info` (of the open file at `path`) is a regular file of at most `maxBytes`:
 * `EISDIR` for a folder, `EINVAL` for a FIFO, socket or device, `EFBIG` (with `size`) when larger.
 */
function checkRegular(path: string, info: Stats, maxBytes: number): void {
  if (!info.isFile()) {
    const folder = info.isDirectory();
    throw Object.assign(
      new Error(
        folder
          ? `${path} is a folder, not a file`
          : `${path} is a FIFO, socket or device, not a regular file`,
      ),
      { code: folder ? "EISDIR" : "EINVAL", path },
    );
  }
  if (info.size > maxBytes) {
    throw Object.assign(new Error(`${path} is ${info.size} bytes, over ${maxBytes}`), {
      code: "EFBIG",
      path,
      size: info.size,
    });
  }
}

/**
 * The bytes of the regular file at `path`. Opened without blocking and checked on the open
 * handle: a FIFO, socket or device there is refused (`EINVAL`, "not a regular file") instead
 * of read — a read of a FIFO nobody writes to never ends, and holds one of the few threads
 * every asynchronous file call of the process shares. A folder is refused with `EISDIR`.
 * `maxBytes`: a larger file is refused with `EFBIG` (its `size` on the error) before it is read.
 */
export async function readRegularFile(path: string, maxBytes = Infinity): Promise<Buffer> {
  const handle = await openRegularFile(path, maxBytes);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}

/**
 * The regular file at `path`, open for reading, for a reader that takes it in parts (a few
 * lines of a large log): opened and checked as {@link readRegularFile} does, throwing the same
 * errors. The caller closes the handle.
 */
export async function openRegularFile(path: string, maxBytes = Infinity): Promise<FileHandle> {
  const handle = await open(path, flags);
  try {
    checkRegular(path, await handle.stat(), maxBytes);
    return handle;
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/**
 * {@link readRegularFile}, synchronously, for code that must not yield (a cache read on a hot
 * path, a source line for a report): a synchronous read of a FIFO would block the event loop,
 * every run in the process, for good.
 */
export function readRegularFileSync(path: string, maxBytes = Infinity): Buffer {
  const fd = openSync(path, flags);
  try {
    checkRegular(path, fstatSync(fd), maxBytes);
    return readFileSync(fd);
  } finally {
    closeSync(fd);
  }
}
