/** How many leading bytes are inspected to tell text from binary. */
export const sniffBytes = 8000;

/**
 * True when the bytes look binary: a NUL byte in the first 8000 bytes, as git decides. UTF-16
 * text counts as binary here, which is what a line-based tool wants.
 */
export function looksBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, sniffBytes);
  for (let index = 0; index < end; index++) if (bytes[index] === 0) return true;
  return false;
}
