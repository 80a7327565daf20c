import { constants } from "node:fs";
import { open } from "node:fs/promises";

/**
 * The bytes of the regular file at `path`. Opened without blocking and checked on the open
 * handle: a FIFO, socket or device there is refused (`EINVAL`, "not a regular file") instead
 * of read — a read of a FIFO nobody writes to never ends, and holds one of the few threads
 * every asynchronous file call of the process shares. A folder is refused with `EISDIR`.
 * `maxBytes`: a larger file is refused with `EFBIG` before it is read.
 */
export async function readRegularFile(path: string, maxBytes = Infinity): Promise<Buffer> {
  const handle = await open(path, constants.O_RDONLY | constants.O_NONBLOCK);
  try {
    const info = await handle.stat();
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
      });
    }
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}
