/**
 * Defects of our matcher that the conformance cases and the corpus oracle show, with ast-grep's
 * behaviour as the expectation. A case naming one asserts that the defect is still there, so
 * fixing it makes that case fail until the `knownBug` goes.
 */
export const knownBugs = {
  phpText:
    "a php pattern without `<?php` parses cleanly as inline HTML `text`, so the wrappers are not tried and it matches nothing (with `<?php` it is rejected as two nodes)",
} as const;

/** One key of {@link knownBugs}. */
export type KnownBug = keyof typeof knownBugs;
