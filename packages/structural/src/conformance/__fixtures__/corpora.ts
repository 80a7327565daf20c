import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { DifferenceReason } from "./conformance-case.js";

/** One pattern searched in a corpus, with what may tell our matches from ast-grep's. */
export interface CorpusPattern {
  readonly pattern: string;
  /**
   * An intended difference the corpus shows: every match only one side has must look like this
   * (and there must be at least one, so the reason is seen on real code).
   */
  readonly differs?: {
    readonly reason: DifferenceReason;
    readonly onlyOurs?: RegExp;
    readonly onlyTheirs?: RegExp;
    /**
     * A match both find may bind differently where our binding of `name` looks like `ours` (the
     * difference the reason names, seen in a match both sides have).
     */
    readonly bindings?: { readonly name: string; readonly ours: RegExp };
  };
}

/** Real code that package managers install, searched by both matchers. */
export interface Corpus {
  readonly name: string;
  readonly language: string;
  readonly root: string | undefined;
  /** Files or folders under root that are searched. */
  readonly paths: () => string[];
  readonly patterns: readonly CorpusPattern[];
}

function typescriptLib(): string | undefined {
  try {
    return join(dirname(createRequire(import.meta.url).resolve("typescript/package.json")), "lib");
  } catch {
    return undefined;
  }
}
const tsLib = typescriptLib();

const commentBeforeReturn = /\{\s*(?:(?:\/\/[^\n]*\n|\/\*[\s\S]*?\*\/)\s*)+return\b/;

/**
 * Debian python3's standard library, golang-go's standard library (net/, encoding/, go/), the
 * typescript npm package's lib folder and the Linux kernel's user-space headers
 * (/usr/include/linux, from linux-libc-dev, which scripts/system-backends.json installs).
 */
export const corpora: readonly Corpus[] = [
  {
    name: "Debian python3 stdlib (all of it)",
    language: "python",
    root: "/usr/lib/python3.11",
    paths: () => ["."],
    patterns: [
      { pattern: "$A.append($B)" },
      { pattern: "isinstance($X, $T)" },
      { pattern: "raise $E from $C" },
    ],
  },
  {
    name: "Debian python3 stdlib (email/)",
    language: "python",
    root: "/usr/lib/python3.11",
    paths: () => ["email"],
    patterns: [
      { pattern: "self.$A = $B" },
      { pattern: "not $A" },
      { pattern: "def $F($$$P): $$$B" },
    ],
  },
  {
    // async def and async with: ast-grep passes over `async` before `def` and `with`.
    name: "Debian python3 stdlib (asyncio/)",
    language: "python",
    root: "/usr/lib/python3.11",
    paths: () => ["asyncio"],
    patterns: [
      { pattern: "def $F($$$P): $$$B" },
      { pattern: "with $A: $$$S" },
      { pattern: "yield $A" },
    ],
  },
  {
    name: "golang-go stdlib (net/, encoding/, go/)",
    language: "go",
    root: "/usr/lib/go/src",
    paths: () => ["net", "encoding", "go"],
    patterns: [
      {
        pattern: "if err != nil { return $E }",
        differs: { reason: "comments are skipped anywhere", onlyOurs: commentBeforeReturn },
      },
      {
        // ast-grep's 36 more (encoding/json/encode_test.go:1137 among them) all have an `else`.
        pattern: "if err != nil { $$$B }",
        differs: { reason: "no trailing children", onlyTheirs: /\}\s*else\b/ },
      },
      {
        pattern: "$X, err := $C",
        differs: { reason: "no trailing children", onlyTheirs: /^[^\n:=]+, err, [^\n]+:=/ },
      },
      {
        pattern: "for $I := range $X { $$$B }",
        differs: { reason: "comments are skipped anywhere", onlyOurs: /range [^{\n]*\/\*[^\n]*\*\/ \{/ },
      },
      { pattern: "make([]byte, $N)" },
      { pattern: "$A == nil" },
    ],
  },
  {
    // The switch form the `case $A: $$$B` hint suggests. `$$$B` ending a case matches an empty
    // run too (a case with no statements: `$$$` is zero or more nodes); ast-grep's never matches
    // after the code's last child, so where the only case is empty (a `default:` after it) it
    // finds nothing: 171 matches here, ast-grep's 164; where an empty case comes before one
    // with statements, both match, binding different cases.
    name: "golang-go stdlib (sync/, encoding/, net/http/)",
    language: "go",
    root: "/usr/lib/go/src",
    paths: () => ["sync", "encoding", "net/http"],
    patterns: [
      {
        pattern: "switch $X { $$$P case $A: $$$B $$$Q }",
        differs: {
          reason: "an empty $$$ run matches nothing there",
          onlyOurs: /:\s*(?:\/\/[^\n]*\s*)*default:/,
          // Both match where an empty case comes before one with statements: ours takes the
          // first case (B empty), ast-grep's the first with statements (P holds the empty one).
          bindings: { name: "B", ours: /^$/ },
        },
      },
    ],
  },
  {
    name: "linux-libc-dev headers (/usr/include/linux)",
    language: "c",
    root: "/usr/include",
    paths: () => ["linux"],
    patterns: [
      // Header guards, also those whose #define has a value (read as the guard's start).
      { pattern: "#ifndef $X\n#define $X\n" },
      // The #ifdef __cplusplus that a } closing extern "C" { cuts short: tree-sitter supplies its
      // #endif, which the pattern's matches, as in ast-grep.
      { pattern: "#ifdef $X\n$$$B\n#endif" },
      { pattern: "#ifdef $X" },
      { pattern: "static __inline__ $T $F($$$P) { $$$B }" },
      { pattern: "return $X;" },
      // Also `# include <…>` (blanks after the #), which ast-grep's `run` misses in a file with no
      // `#include` (its literal prefilter), but its `scan` finds.
      { pattern: "#include $H" },
      {
        pattern: "if ($C) $S",
        differs: { reason: "no trailing children", onlyTheirs: /[};]\s*else\b/ },
      },
    ],
  },
  {
    name: "typescript lib (all of it)",
    language: "typescript",
    root: tsLib,
    paths: () => ["."],
    patterns: [
      { pattern: "interface $I { $$$B }" },
      { pattern: "declare var $V: $T;" },
      { pattern: "declare function $F($$$A): $R;" },
      { pattern: "type $T = $U;" },
    ],
  },
];
