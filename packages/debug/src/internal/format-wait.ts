/** A request's or a wait's bound in words: "750 ms" below a second, else whole seconds ("10 s"). */
export function formatWait(ms: number): string {
  return ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`;
}
