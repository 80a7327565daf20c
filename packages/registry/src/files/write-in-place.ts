import { constants } from "node:fs";
import { open } from "node:fs/promises";

// Writing a file in place, for a file with other hard links: a temporary file and a rename would
// give the name a new file and leave the other names on the old one.

/** A symlink is not followed (the path is already the real one), a FIFO without reader refused. */
const flags = constants.O_WRONLY | constants.O_NONBLOCK | constants.O_NOFOLLOW;

/**
 * Rewrites the regular file at `path` in place: the same inode, so every hard link of it sees the
 * new bytes, and its owner and mode stay. Opened without truncating, written from the start, then
 * cut to the new length. Not atomic: a reader, or a roll back after the writer died, may find the
 * new bytes over the old ones' tail ({@link cutOffInPlace} tells that state).
 */
export async function writeInPlace(path: string, data: string | Uint8Array): Promise<void> {
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
  const handle = await open(path, flags);
  try {
    if (!(await handle.stat()).isFile()) {
      throw Object.assign(new Error(`${path} is not a regular file`), { code: "EINVAL", path });
    }
    let done = 0;
    while (done < bytes.byteLength) {
      const { bytesWritten } = await handle.write(bytes, done, bytes.byteLength - done, done);
      done += bytesWritten;
    }
    await handle.truncate(bytes.byteLength);
  } finally {
    await handle.close();
  }
}

/**
 * Whether `now` is what {@link writeInPlace} of `content` over `original` leaves when cut off:
 * the first k bytes of `content` over `original` from byte k on, not yet cut to length (k = 0:
 * `original` itself). Linear in the length: only the longest k that `now` and `content` share
 * needs checking, since a shorter k that fits implies that one fits too.
 */
export function cutOffInPlace(now: Uint8Array, original: Uint8Array, content: Uint8Array): boolean {
  const shared = Math.min(now.byteLength, content.byteLength);
  let k = 0;
  while (k < shared && now[k] === content[k]) k += 1;
  if (now.byteLength !== Math.max(k, original.byteLength)) return false;
  return Buffer.from(now.buffer, now.byteOffset + k, now.byteLength - k).equals(
    Buffer.from(
      original.buffer,
      original.byteOffset + Math.min(k, original.byteLength),
      Math.max(0, original.byteLength - k),
    ),
  );
}
