import { createHash, randomBytes } from "node:crypto";

/**
 * Most bytes of one file or folder name on the file systems in use (NAME_MAX of ext4, xfs, btrfs,
 * tmpfs, APFS): a longer name fails with `ENAMETOOLONG`.
 */
export const fileNameMaxBytes = 255;

/**
 * A hidden name for a temporary file beside the file `name`: `.name.<12 hex random>.tmp`. When
 * that would pass a file name's 255 bytes, `name` is cut at a character boundary (a surrogate
 * pair is never split) and 16 hex of its sha256 follow the cut (`.nnnn~<hash>.<random>.tmp`):
 * a legal long name stays writable, and two long names that start alike still get temporary
 * names of their own. Linear in the length of `name`.
 */
export function temporaryName(name: string): string {
  const suffix = `.${randomBytes(6).toString("hex")}.tmp`;
  const whole = `.${name}${suffix}`;
  if (Buffer.byteLength(whole) <= fileNameMaxBytes) return whole;
  const hash = `~${createHash("sha256").update(name).digest("hex").slice(0, 16)}`;
  let room = fileNameMaxBytes - 1 - hash.length - suffix.length;
  let kept = "";
  // By code point, so a cut never falls inside a surrogate pair.
  for (const char of name) {
    room -= Buffer.byteLength(char);
    if (room < 0) break;
    kept += char;
  }
  return `.${kept}${hash}${suffix}`;
}
