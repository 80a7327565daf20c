/** One shipped grammar: its id, the files it claims, and where its .wasm lives. */
export interface LanguageSpec {
  /** Id the tools take in `language`: `dart`, `python`, … */
  readonly id: string;
  /** File extensions (with the dot) inferred as this language. */
  readonly extensions: readonly string[];
  /**
   * The .wasm file: a module specifier into the grammar package it comes from, or an absolute
   * path, loaded as is. The grammar packages are dev dependencies: the build copies each file,
   * unchanged, to the same path under `dist/grammars/wasm/`, and the published package loads it
   * from there (`tree-sitter-go/tree-sitter-go.wasm` is `dist/grammars/wasm/tree-sitter-go/tree-sitter-go.wasm`).
   */
  readonly wasm: string;
  /**
   * Character substituted for the `$` sigil before a pattern is parsed, for grammars in which
   * `$` cannot start an identifier; undefined where `$X` already parses as an identifier.
   */
  readonly expando?: string;
  /** Wrappers tried, in order, when a pattern fragment does not parse on its own. */
  readonly wrappers: readonly (readonly [prefix: string, suffix: string])[];
  /**
   * Try the wrappers before the bare fragment: in these grammars a call or statement at the top
   * level parses without error as something else (C `free(p);` as a declaration, Dart `f(x)` as a
   * function signature, Go `fmt.Println(x)` as a type conversion).
   */
  readonly preferWrapped?: boolean;
  /**
   * Only the wrappers: a bare fragment never parses as this language's code (PHP outside
   * `<?php` is inline HTML, one `text` node for any input).
   */
  readonly onlyWrapped?: boolean;
  /** A file's opening a pattern may start with, which is not code to match (PHP's `<?php`). */
  readonly opening?: RegExp;
  /** Its closing a pattern may end with (PHP's `?>`). */
  readonly closing?: RegExp;
  /**
   * Node types a fragment parses as where the same text means something else in almost every
   * file, each with the wrapper (by index) giving that reading: C# `void $M() { … }` at the top
   * level is a local function, in a class the method the user means; Go's `Pair[$K, $V]` in a
   * function body an instantiation expression, after `type __T =` the generic type.
   */
  readonly rereadIn?: Readonly<Record<string, number>>;
  /**
   * The grammar has no call or member node: `a.b(x)` is a primary followed by sibling `selector`
   * nodes (Dart). An expression statement pattern written without its `;` (`dispose($X)`) is then
   * also matched as a run of siblings inside any node (`final y = dispose(z);`, `foo(dispose(w))`).
   */
  readonly flatChains?: boolean;
  /**
   * Names that are the language's own variables, never metavariables, though they are spelled
   * like them (PHP's superglobals: `$_GET` is not a wildcard, `$GLOBALS` binds nothing).
   */
  readonly codeNames?: readonly string[];
  /**
   * `$name` is ordinary code in the language (PHP's and Bash's variables, Ruby's globals, Dart's
   * names): a lower-case `$x` in a pattern is meant as written, not a misspelt metavariable.
   */
  readonly dollarNames?: boolean;
  /**
   * Keywords are matched in any case (PHP's `NEW Foo(1)`, `ECHO $a;`): the pattern's keywords are
   * then no literal text a file must hold.
   */
  readonly caseInsensitiveKeywords?: boolean;
  /**
   * Extensions another grammar claims whose files may also be in this language, searched in a
   * folder when this language is given (C++ headers named `.h`, which infer C).
   */
  readonly sharedExtensions?: readonly string[];
  /**
   * Openings of a block comment or a string that, never closed, make the rest of the file comment
   * or string text (`/*`, Python's triple quotes, PHP's quotes): in a file cut off inside one, no
   * match starts there (see `leftOpenAt`). A string that ends at its line's end (C's `"`) is not
   * one.
   */
  readonly leftOpen?: readonly string[];
}

const cLike = [
  ["void __f() {\n", "\n}"],
  ["void __f() {\n", ";\n}"],
] as const;

const jsLike = [
  ["function __f() {\n", "\n}"],
  ["class __C {\n", "\n}"],
  // A catch or finally clause (`catch ($E) { $$$B }`) only parses after a try block.
  ["function __f() { try {}\n", "\n}"],
] as const;

/** TypeScript adds interface members and types (`Array<$T>`, `keyof $T`) to the JS wrappers. */
const tsLike = [...jsLike, ["interface __I {\n", "\n}"], ["type __T =\n", ";\n"]] as const;

/** A block comment's opening, the one opening left open in most grammars (see `leftOpen`). */
const blockComment = ["/*"] as const;

const repomix = (name: string): string => `@repomix/tree-sitter-wasms/out/tree-sitter-${name}.wasm`;

/** Every shipped grammar, by id. */
export const languages: readonly LanguageSpec[] = [
  {
    id: "bash",
    // ast-grep's list (but `.sh.in`, whose last extension is `.in`).
    extensions: [
      ".sh",
      ".bash",
      ".bats",
      ".cgi",
      ".command",
      ".env",
      ".fcgi",
      ".ksh",
      ".tmux",
      ".tool",
      ".zsh",
    ],
    wasm: "tree-sitter-bash/tree-sitter-bash.wasm",
    wrappers: [],
    dollarNames: true,
  },
  {
    id: "c",
    leftOpen: blockComment,
    preferWrapped: true,
    extensions: [".c", ".h"],
    wasm: "tree-sitter-c/tree-sitter-c.wasm",
    expando: "µ",
    wrappers: cLike,
  },
  {
    id: "cpp",
    leftOpen: blockComment,
    preferWrapped: true,
    extensions: [".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx"],
    wasm: "tree-sitter-cpp/tree-sitter-cpp.wasm",
    expando: "µ",
    wrappers: [...cLike, ["class __C {\n", "\n};"]],
    sharedExtensions: [".h"],
  },
  {
    id: "csharp",
    leftOpen: blockComment,
    extensions: [".cs"],
    wasm: repomix("c_sharp"),
    expando: "µ",
    wrappers: [
      ["class __C { void __f() {\n", "\n} }"],
      ["class __C { void __f() {\n", ";\n} }"],
      ["class __C {\n", "\n}"],
      // A catch or finally clause (`catch ($T $E) { $$$B }`) only parses after a try block.
      ["class __C { void __f() { try {}\n", "\n} }"],
    ],
    rereadIn: { local_function_statement: 2 },
  },
  {
    id: "css",
    extensions: [".css"],
    wasm: repomix("css"),
    expando: "_",
    wrappers: [["__x {\n", "\n}"]],
    leftOpen: blockComment,
  },
  {
    id: "dart",
    // Dart's triple-quoted strings span lines; its `'` and `"` strings end at their line's end.
    leftOpen: ["/*", "'''", '"""'],
    dollarNames: true,
    preferWrapped: true,
    flatChains: true,
    extensions: [".dart"],
    wasm: repomix("dart"),
    wrappers: [...cLike, ["class __C {\n", "\n}"]],
  },
  {
    id: "go",
    leftOpen: ["/*", "`"],
    preferWrapped: true,
    extensions: [".go"],
    wasm: "tree-sitter-go/tree-sitter-go.wasm",
    expando: "µ",
    wrappers: [
      ["func __f() {\n", "\n}"],
      ["type __T = ", "\n"],
    ],
    // `Pair[$K, $V]` in a function body is an instantiation expression; in code it is nearly
    // always the generic type (`var p Pair[string, int]`, `&Pair[K, V]{}`), as ast-grep reads it.
    rereadIn: { type_instantiation_expression: 1 },
  },
  {
    id: "java",
    leftOpen: blockComment,
    extensions: [".java"],
    wasm: "tree-sitter-java/tree-sitter-java.wasm",
    wrappers: [
      ["class __C { void __f() {\n", "\n} }"],
      ["class __C { void __f() {\n", ";\n} }"],
      ["class __C {\n", "\n}"],
      // `super(…);` and `this(…);` only parse first in a constructor's body, where the `;` a
      // statement needs is supplied as in a method's.
      ["class __C { __C() {\n", "\n} }"],
      ["class __C { __C() {\n", ";\n} }"],
      // A catch or finally clause (`catch ($T $E) { $$$B }`) only parses after a try block.
      ["class __C { void __f() { try {}\n", "\n} }"],
    ],
  },
  {
    id: "javascript",
    leftOpen: blockComment,
    extensions: [".js", ".mjs", ".cjs", ".jsx"],
    wasm: "tree-sitter-javascript/tree-sitter-javascript.wasm",
    wrappers: jsLike,
  },
  {
    id: "json",
    extensions: [".json"],
    wasm: "tree-sitter-json/tree-sitter-json.wasm",
    wrappers: [["{", "}"]],
  },
  {
    id: "php",
    leftOpen: ["/*", '"', "'"],
    dollarNames: true,
    extensions: [".php"],
    wasm: repomix("php"),
    wrappers: [
      ["<?php\n", "\n"],
      ["<?php\n", ";\n"],
    ],
    // `$` starts every PHP variable: `function $F()` would not parse with a variable for a name.
    expando: "µ",
    onlyWrapped: true,
    codeNames: ["GLOBALS", "_SERVER", "_GET", "_POST", "_FILES", "_COOKIE", "_SESSION", "_REQUEST", "_ENV"],
    opening: /^<\?php\b/i,
    closing: /\?>$/,
    caseInsensitiveKeywords: true,
  },
  {
    id: "python",
    leftOpen: ['"""', "'''"],
    extensions: [".py", ".pyi"],
    wasm: "tree-sitter-python/tree-sitter-python.wasm",
    expando: "µ",
    wrappers: [["def __f():\n    ", "\n"]],
  },
  { id: "ruby", extensions: [".rb"], wasm: repomix("ruby"), expando: "µ", wrappers: [], dollarNames: true },
  {
    id: "rust",
    leftOpen: ["/*", '"'],
    extensions: [".rs"],
    wasm: "tree-sitter-rust/tree-sitter-rust.wasm",
    expando: "µ",
    wrappers: [
      ["fn __f() {\n", "\n}"],
      ["fn __f() {\n", ";\n}"],
      ["impl __C {\n", "\n}"],
    ],
  },
  { id: "solidity", extensions: [".sol"], wasm: repomix("solidity"), wrappers: [], leftOpen: blockComment },
  {
    id: "swift",
    extensions: [".swift"],
    wasm: repomix("swift"),
    expando: "µ",
    wrappers: [],
    leftOpen: blockComment,
  },
  {
    id: "tsx",
    leftOpen: blockComment,
    extensions: [".tsx"],
    wasm: "tree-sitter-typescript/tree-sitter-tsx.wasm",
    wrappers: tsLike,
  },
  {
    id: "typescript",
    leftOpen: blockComment,
    extensions: [".ts", ".mts", ".cts"],
    wasm: "tree-sitter-typescript/tree-sitter-typescript.wasm",
    wrappers: tsLike,
  },
];

/**
 * Names users type for a language that are neither its id nor one of its file extensions (an
 * extension, with or without its dot, names its language too: `jsx`, `py`, `rs`, `hpp`).
 */
const aliases: Readonly<Record<string, string>> = {
  "c++": "cpp",
  "c#": "csharp",
  c_sharp: "csharp",
  golang: "go",
  javascriptreact: "javascript",
  typescriptreact: "tsx",
  python3: "python",
  shell: "bash",
};

/** The ids of every shipped grammar, sorted. */
export function languageIds(): string[] {
  return languages.map((language) => language.id);
}

/**
 * The grammar of that id, common alias (`golang`, `c++`) or file extension with or without its
 * dot (`jsx` and `.jsx` are JavaScript, as `.jsx` files are; `ts`, `py`, `rs`), or undefined.
 */
export function findLanguage(id: string): LanguageSpec | undefined {
  const wanted = id.trim().toLowerCase();
  const canonical = aliases[wanted] ?? wanted;
  const extension = `.${canonical.replace(/^\./, "")}`;
  return (
    languages.find((language) => language.id === canonical) ??
    languages.find((language) => language.extensions.includes(extension))
  );
}

/** The grammar a file's extension names, or undefined. */
export function languageForPath(path: string): LanguageSpec | undefined {
  const lower = path.toLowerCase();
  const dot = lower.lastIndexOf(".");
  if (dot < 0) return undefined;
  const extension = lower.slice(dot);
  return languages.find((language) => language.extensions.includes(extension));
}
