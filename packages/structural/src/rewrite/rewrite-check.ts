// The plain data of ast_edit's syntax check (see check-rewrites.ts), apart from the code that
// reads trees: the worker pool's messages name these types, and no published declaration may
// reach web-tree-sitter's.

/**
 * Where a tree does not parse: an ERROR node (code tree-sitter could not read, not descended
 * into), a MISSING one (a token it supplied, zero width) or a body read empty (see `empty`).
 * UTF-16 offsets.
 */
export interface ErrorSite {
  readonly start: number;
  readonly end: number;
  /** The type of the token tree-sitter supplied (`)`, `identifier`), for a MISSING node. */
  readonly missing?: string;
  /** The type of a body read with nothing in it (Python's `block`: see `emptyBody` in syntax-errors.ts). */
  readonly empty?: string;
}

/** A replacement's span in the original and the length of the text put there (UTF-16). */
export interface ReplacedSpan {
  readonly start: number;
  readonly end: number;
  readonly length: number;
}

/** A rewritten file to check for syntax errors its original did not have; plain data. */
export interface RewriteToCheck {
  /** Absolute path (finds the original's tree in the cache of the thread that searched it). */
  readonly path: string;
  /** sha256 of the original bytes. */
  readonly hash: string;
  readonly originalText: string;
  readonly newText: string;
  /** The replacements, in order. */
  readonly spans: readonly ReplacedSpan[];
}

/** What the check of one file found: the error sites the rewrite introduced (none for most). */
export interface RewriteCheck {
  readonly path: string;
  readonly sites: readonly ErrorSite[];
}
