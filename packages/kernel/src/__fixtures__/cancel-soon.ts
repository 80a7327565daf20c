/**
 * Aborts `controller` `delayMs` after now, as an operator's stop right after a call, and resolves
 * with how long after now the abort really fired. On a starved machine the timer can fire far
 * later than asked, when a "long" cell may have ended on its own: see {@link staged}.
 */
export function cancelSoon(controller: AbortController, delayMs: number): Promise<number> {
  const asked = performance.now();
  return new Promise((resolve) => {
    setTimeout(() => {
      controller.abort(new Error("stop"));
      resolve(performance.now() - asked);
    }, delayMs);
  });
}

/**
 * Whether a cancel fired early enough to stage the race these tests are about (well inside the
 * long cells' 0.3–0.5 s): only then must the long cell not have run to its end. Not a speed
 * check — a late timer only skips that one expectation for its round.
 */
export function staged(firedAfterMs: number): boolean {
  return firedAfterMs < 150;
}
