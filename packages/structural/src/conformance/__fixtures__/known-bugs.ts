/**
 * Defects of our matcher that the conformance cases and the corpus oracle show, with ast-grep's
 * behaviour as the expectation. A case naming one asserts that the defect is still there, so
 * fixing it makes that case fail until the `knownBug` goes.
 */
export const knownBugs = {} as const;

/** One key of {@link knownBugs}. */
export type KnownBug = keyof typeof knownBugs;
