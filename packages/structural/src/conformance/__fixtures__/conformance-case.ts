import type { KnownBug } from "./known-bugs.js";

/**
 * Why our semantics intentionally differ from the ast-grep CLI (0.51.1) on a case. Each reason is
 * a decision, not a defect; the oracle test checks on every case that names one that ast-grep
 * really does what the case says it does.
 */
export const differenceReasons = {
  "backtracking $$$":
    "our $$$ backtracks (foo($$$A, $B) binds B to the last argument); ast-grep's $$$ is lazy and never backtracks",
  "no trailing children":
    "a node with children after the pattern's last one (an else, more statements) does not match; ast-grep's smart strictness accepts them (ast-grep#2856), which a rewrite would delete",
  "comments are skipped anywhere":
    "a comment is skipped wherever it is; ast-grep 0.51.1 does not skip one in some places (before a block's first statement, between a for clause and its block)",
  "fragment retried in a body":
    "a fragment that is not one node at the top level is retried inside the language's wrappers (a function or class body, an object); ast-grep matches nothing or rejects the pattern",
  "repeated metavariable reports its first occurrence":
    "a metavariable used twice binds the code of its first occurrence; ast-grep reports (and substitutes) the last",
  "a lone $$$ in braces is a block's statements":
    "a sequence metavariable alone in braces where a statement goes (`if ($C) { $$$B }`) is read as a block of statements, also in C#, where an expression is no statement and the braces would parse as an initializer; ast-grep takes that initializer reading and matches nothing",
  "a C# method pattern is read in a class":
    "`void $M() { $$$B }` is read as a method (inside a class), where nearly all C# methods are; at the top level it parses as a local function, which is what ast-grep matches (so none of a class's methods)",
  "PHP superglobals are code":
    "PHP's superglobals ($_GET, $_POST, $_SESSION, $GLOBALS, …) are the language's variables in a pattern and a rewrite; ast-grep reads $_GET as a wildcard (matching $_POST too) and drops an unbound $_SESSION from a rewrite",
  "a match that passed over a keyword is not rewritten":
    "a rewrite leaves unchanged (and says so) a match that passed over a keyword or marker the pattern does not write (`function $F() {}` on `async function f() {}`): replacing it would drop the keyword; ast-grep rewrites it and drops `async`",
  "a match on a token the code lacks is not rewritten":
    "a pattern's token or metavariable matches one tree-sitter supplied (MISSING) to read code that does not parse, as in ast-grep (`f($A)` finds `f(1;`, an `#ifdef $X⏎$$$B⏎#endif` an `#ifdef` a `}` cuts short, `$A + $B` finds `a + )` with B empty), but a rewrite leaves that match unchanged (and says so), as it would write the token where the code lacks it or build on the gap; ast-grep rewrites it",
  "an empty $$$ takes its separator":
    "a rewrite drops the `,` after an empty `$$$X` (or before it at the end of a list): `bar($$$A, $B)` gives `bar(x)`; ast-grep writes `bar(, x)`",
  "rewrites re-indent with tabs":
    "a multi-line rewrite takes the indentation of the match's line, tabs included; ast-grep re-indents only by spaces and leaves tab-indented lines at the template's indentation",
  "a comment is compared by its text":
    "a comment pattern matches only comments with its text; ast-grep reads a Rust comment as its marker (`//`, or `/*` and `*/`), so `// first` matches every line comment (as `//`) and `/* alpha */` every block comment",
  "a rewrite keeps the ; the pattern does not write":
    "a `;` ending a match after the pattern's last token (JavaScript's optional `;` after `const $A = $B`) stays when the template does not end in one; ast-grep replaces it with the rest of the match, so `const a = 1; const b = 2` becomes `let a = 1 let b = 2`",
  "trailing blanks are no code":
    "blanks ending a line of the pattern outside a string's text are not compared (`#define FOO 1  ` matches `#define FOO 1`); ast-grep compares a C preprocessor line's value with its blanks and matches nothing",
  "an empty $$$ run matches nothing there":
    "`return $$$R` matches a bare `return` (an empty run of values) in Go, Python and Rust, and Go's `switch $X { $$$P case $A: $$$B $$$Q }` a case with no statements, as `$$$` matches an empty run anywhere (ast-grep's docs: zero or more nodes); ast-grep 0.51.1's `$$$` ending a node never matches after the code's last child, so it requires a value, or a statement, there (in TypeScript it matches a bare return too)",
  "no match in a comment or string left open":
    "in a file that ends inside a block comment or a string never closed (cut off, mid-edit), the rest is comment or string text, which tree-sitter reads as code to recover: no match starts there or binds a metavariable to it; ast-grep matches in it (`$F($$$A)` finds `Copyright (c)` in a PHP licence header cut off before its `*/`; `$A + $B` → `$B + $A` turns `a + \"\"\"doc` into `doc + a`, dropping the `\"\"\"`)",
  "a deletion takes its statement's ;":
    "an empty rewrite of a statement's expression (`console.log($$$A)`, Python's `print($$$A)`) deletes the `;` that ends the statement or separates it from the next, and one of the blanks around it; ast-grep leaves that `;` on its own (Python's `print(1); x = 2` becomes `; x = 2`, which does not parse)",
} as const;

/** One key of {@link differenceReasons}. */
export type DifferenceReason = keyof typeof differenceReasons;

/** What ast-grep does on a case where it differs from us on purpose. */
export interface IntendedDifference {
  readonly reason: DifferenceReason;
  /** ast-grep's matched texts, or "rejects the pattern" when it refuses to parse it. */
  readonly astGrep: readonly string[] | "rejects the pattern";
  /** ast-grep's bindings of the first match, where they are what differs. */
  readonly astGrepBindings?: Readonly<Record<string, string>>;
  /** The whole file after ast-grep's rewrite, where that is what differs. */
  readonly astGrepRewrite?: string;
}

/** Why a language's cases are not run against ast-grep, and how the oracle test shows it. */
export interface LanguageExclusion {
  readonly reason: string;
  /** Code whose tree shows the difference. */
  readonly probe: string;
  /** Node kinds in ast-grep's tree of the probe that our grammar's tree of it does not have. */
  readonly astGrepKindsNotOurs: readonly string[];
}

/**
 * Languages whose cases are not run against the ast-grep CLI at all. The oracle test checks the
 * reason itself: ast-grep's tree for the probe has kinds that ours does not.
 */
export const excludedLanguages: Readonly<Record<string, LanguageExclusion>> = {
  dart: {
    reason:
      "ast-grep's built-in Dart grammar (crates.io tree-sitter-dart, with call_expression and member_expression) is not the one shipped here (@repomix/tree-sitter-wasms: flat selector chains)",
    probe: "void f() { a.b.dispose(); }",
    astGrepKindsNotOurs: ["call_expression", "member_expression"],
  },
};

/**
 * One conformance case: (language, pattern, code) → the matched texts, the first match's
 * bindings (all of them, as text; `$$$X` from its first node to its last) and, for a rewrite, the
 * whole file after it. Without `differs` or an excluded language, ast-grep must agree on all of
 * it: every match's text and bindings and the rewritten file.
 */
export interface ConformanceCase {
  readonly name: string;
  readonly language: string;
  readonly pattern: string;
  readonly code: string;
  readonly matches: readonly string[];
  readonly bindings?: Readonly<Record<string, string>>;
  /** Rewrite template and the whole expected file after rewriting. */
  readonly rewrite?: readonly [template: string, result: string];
  /** Where ast-grep differs on purpose: why, and what it does instead. */
  readonly differs?: IntendedDifference;
  /**
   * Our matcher does not do what the case expects yet (the expectation is ast-grep's, which the
   * oracle checks): which defect. The conformance test asserts that it still fails, so fixing the
   * matcher makes it fail until this line goes.
   */
  readonly knownBug?: KnownBug;
}
