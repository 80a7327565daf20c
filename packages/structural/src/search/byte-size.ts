const kib = 1024;
const mib = 1024 * 1024;

/**
 * A byte count as people read a limit: `2 MiB`, `17.5 MiB`, `256 KiB`, `500 bytes` (binary
 * units, one decimal at most). Messages write limits through this rather than as literal text, so
 * they follow the constant they name.
 */
export function byteSize(bytes: number): string {
  const round = (value: number): number => Math.round(value * 10) / 10;
  if (bytes >= mib) return `${round(bytes / mib)} MiB`;
  if (bytes >= kib) return `${round(bytes / kib)} KiB`;
  return `${bytes} ${bytes === 1 ? "byte" : "bytes"}`;
}
