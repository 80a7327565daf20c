/** A write to an fd that may write short: the count of bytes it wrote, or throws (EAGAIN, …). */
export type WriteSome = (fd: number, bytes: Uint8Array, offset: number, length: number) => number;

/** The longest a write waits, with no byte written, on a pipe that stays full and non-blocking. */
export const writeStallMs = 2000;
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Writes all of `bytes` to `fd`. A pipe that a child process made non-blocking writes short or
 * fails with EAGAIN when full: `setBlocking` is called again and the rest written, waiting for
 * the reader, until no byte could be written for `stallMs` — then the EAGAIN is thrown, never a
 * silent loss. Returns `bytes.length`.
 */
export function writeAllSync(
  write: WriteSome,
  fd: number,
  bytes: Uint8Array,
  setBlocking: () => void,
  stallMs = writeStallMs,
): number {
  let done = 0;
  let stalledSince: number | undefined;
  while (done < bytes.length) {
    try {
      const wrote = write(fd, bytes, done, bytes.length - done);
      done += wrote;
      stalledSince = undefined;
      if (done < bytes.length) setBlocking();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
      stalledSince ??= Date.now();
      if (Date.now() - stalledSince >= stallMs) throw error;
      setBlocking();
      Atomics.wait(pause, 0, 0, 5);
    }
  }
  return bytes.length;
}

/**
 * The bytes a `fs.writeSync(fd, …rest)` call writes, when it writes them at the current position
 * (a pipe's only one): a string with its encoding, or a view with offset and length. Undefined
 * for any other form (a position given, an options object), which is passed through as it is.
 */
export function bytesOfWriteSync(rest: readonly unknown[]): Uint8Array | undefined {
  const [data, second, third, fourth] = rest;
  if (typeof data === "string") {
    if (typeof second === "number") return undefined;
    const encoding = typeof third === "string" ? third : typeof second === "string" ? second : "utf8";
    return Buffer.from(data, encoding as BufferEncoding);
  }
  if (!ArrayBuffer.isView(data)) return undefined;
  if (second !== undefined && second !== null && typeof second !== "number") return undefined;
  if (typeof fourth === "number") return undefined;
  const offset = second ?? 0;
  const length = typeof third === "number" ? third : data.byteLength - offset;
  if (offset < 0 || length < 0 || offset + length > data.byteLength) return undefined;
  return new Uint8Array(data.buffer, data.byteOffset + offset, length);
}
