/**
 * Defects of our matcher that the conformance cases and the corpus oracle show, with ast-grep's
 * behaviour as the expectation. A case naming one asserts that the defect is still there, so
 * fixing it makes that case fail until the `knownBug` goes.
 */
export const knownBugs = {
  sequenceEnds:
    "`$$$X` can leave out comments and separators at the ends of the sequence it binds (`foo(/* c */ a, b,)` binds `a, b`; ast-grep binds the whole run), so a rewrite that puts the sequence back deletes them",
  statementMetavariable:
    "a statement metavariable ending a C-like if/for/while pattern is compiled as an expression inside the wrapper's `;`, so it binds `h()` without its `;` and a `{ … }` body does not match (C, C++, Java)",
  loneSequenceInBlock:
    "the pattern is rejected: a `$$$X` alone where the grammar needs a terminator (a Java/C/C# block, a class or impl body, a Rust match, a CSS block) parses as an ERROR node, which ast-grep takes as the metavariable",
  phpText:
    "a php pattern without `<?php` parses cleanly as inline HTML `text`, so the wrappers are not tried and it matches nothing (with `<?php` it is rejected as two nodes)",
} as const;

/** One key of {@link knownBugs}. */
export type KnownBug = keyof typeof knownBugs;
