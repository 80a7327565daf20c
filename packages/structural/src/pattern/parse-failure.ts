import type { Node, Parser } from "web-tree-sitter";
import { StructuralError } from "../errors/structural-error.js";
import type { LanguageSpec } from "../grammars/languages.js";
import { firstError, intolerableError, meaningfulChildren } from "./pattern-tree.js";

/** Words that open a statement or declaration with a body. */
const headerWords =
  /^(?:async\s+)?(class|def|function|if|elif|else|for|while|with|try|except|switch|do|struct|impl|fn|func|interface|enum)\b/;

/**
 * A hint for a pattern that is a header without its body (`class $C`, `if $C`): the same with a
 * `$$$B` body, in the language's block syntax.
 */
export function bodyHint(pattern: string, language: string): string {
  const opened = headerWords.exec(pattern);
  if (!opened) return "";
  if (opened[1] === "do")
    return " Hint: a metavariable after `do` is an expression, not a statement: write `do { $$$B } while ($C);`.";
  // Ruby's bodies end with `end`, not braces: a pattern with its `end` lacks no body.
  if (language === "ruby")
    return /\bend\s*$/.test(pattern)
      ? ""
      : ` Hint: \`${opened[1]}\` needs its body, e.g. \`${pattern}\n  $$$B\nend\`.`;
  const indented = language === "python";
  if (indented ? pattern.includes(":") : pattern.includes("{")) return "";
  // A metavariable last, after more than the header word, is the body (`fn $F() $B`).
  const last = /(\S+)\s+\$+[A-Z_][A-Z0-9_]*\s*$/.exec(pattern);
  if (!indented && last && last[1] !== opened[1]) return "";
  const example = indented ? `${pattern}: $$$B` : `${pattern} { $$$B }`;
  return ` Hint: \`${opened[1]}\` needs its body, e.g. \`${example}\`.`;
}

/**
 * A hint for a C pattern opening a conditional directive inside another without closing it
 * (`#ifdef $X⏎#ifdef $Y`), which tree-sitter reads as an ERROR matching nothing (as in ast-grep):
 * the inner one closed by its lines and `#endif`, so that the pattern is an outer block whose
 * first lines are that inner block (the outer `#endif` may stay out, as for `#ifdef $X` alone).
 * Not in C++, whose grammar reads that pattern as an ERROR too (in ast-grep as well), nor for a
 * third level, which ast-grep reads as one.
 */
export function directiveHint(pattern: string, language: string): string {
  if (language !== "c") return "";
  const lines = pattern.split("\n");
  const opened = lines.filter((line) => /^\s*#\s*if(?:n?def)?\b/.test(line)).length;
  const closed = lines.filter((line) => /^\s*#\s*endif\b/.test(line)).length;
  if (opened - closed !== 2) return "";
  const example = `${pattern.trimEnd()}\n$$$\n#endif`;
  return (
    ` Hint: a conditional directive inside another is a block of its own, with its \`#endif\`: ` +
    `write it, e.g. \`${example}\`, a block whose first lines are the inner one.`
  );
}

/** A metavariable name of `base`'s stem that `pattern` does not use (`T`, else `T2`, `T3`, …). */
function freshName(pattern: string, base: string): string {
  for (let index = 1; ; index++) {
    const name = index === 1 ? base : `${base}${index}`;
    if (!new RegExp(`\\$${name}(?![A-Z0-9_])`).test(pattern)) return name;
  }
}

/** Languages whose `if` takes its condition in parentheses and its branches in braces. */
const parenthesisedIf = new Set([
  "c",
  "cpp",
  "csharp",
  "dart",
  "java",
  "javascript",
  "php",
  "tsx",
  "typescript",
]);

/**
 * A hint for a pattern that is a clause continuing a statement (Python's `except $E as $N: $$$B`,
 * `elif`, `else`, `finally`, `case`; `else { … }` in a brace language), which tree-sitter does not
 * read alone: the statement written around it, which a search then matches with its clauses.
 */
export function clauseHint(pattern: string, language: string, refused = false): string {
  const text = pattern.trimStart();
  if (language === "python") {
    const opened = /^(except\*?|elif|else|finally|case)\b/.exec(text);
    if (!opened) return "";
    const word = opened[1]!;
    // A header without its `:` gets a body, as `bodyHint` gives one.
    const clause = text.includes(":") ? text.trimEnd() : `${text.trimEnd()}: $$$${freshName(text, "B")}`;
    const body = `$$$${freshName(clause, "A")}`;
    const [statement, written] =
      word === "case"
        ? ["match", `match $${freshName(clause, "S")}:\n${clause.replace(/^/gm, "    ")}`]
        : word === "elif" || word === "else"
          ? ["if", `if $${freshName(clause, "C")}:\n    ${body}\n${clause}`]
          : ["try", `try:\n    ${body}\n${clause}`];
    const others =
      statement === "try"
        ? "`except`, `else` and `finally` clauses"
        : statement === "if"
          ? "`elif` and `else` clauses"
          : "cases";
    return (
      ` Hint: \`${word}\` is a clause of ${statement === "if" && word === "else" ? "an `if` (or `for`, `while`, `try`)" : `${statement === "if" ? "an" : "a"} \`${statement}\``} statement, not a pattern on its own: ` +
      `write the statement with it, e.g. \`${written}\`. That matches ${statement === "if" ? "an" : "a"} \`${statement}\` whose ${others} are the ones the pattern writes, no more.`
    );
  }
  if (language === "go") {
    const opened = /^(case|default)\b/.exec(text);
    if (opened) return goCaseHint(text.trimEnd(), opened[1]!, refused);
  }
  if (!/^else\b/.test(text) || !(parenthesisedIf.has(language) || language === "go")) return "";
  const clause = text.includes("{") ? text.trimEnd() : `${text.trimEnd()} { $$$${freshName(text, "B")} }`;
  const condition = `$${freshName(clause, "C")}`;
  const branch = `{ $$$${freshName(clause, "A")} }`;
  const written =
    language === "go" ? `if ${condition} ${branch} ${clause}` : `if (${condition}) ${branch} ${clause}`;
  return (
    ` Hint: \`else\` is a clause of an \`if\` statement, not a pattern on its own: write the statement with it, ` +
    `e.g. \`${written}\`.`
  );
}

/** Go's predeclared type names. */
const goTypeNames = new Set([
  "any",
  "bool",
  "byte",
  "complex64",
  "complex128",
  "error",
  "float32",
  "float64",
  "int",
  "int8",
  "int16",
  "int32",
  "int64",
  "rune",
  "string",
  "uint",
  "uint8",
  "uint16",
  "uint32",
  "uint64",
  "uintptr",
]);

/**
 * Whether a Go case's value (up to its `:`) can only be a type (a type switch's case): a
 * predeclared type name or a composite type (`[]T`, `map[K]V`, `chan T`, `func(…)`, `struct{…}`,
 * `interface{…}`), first in its list. A name of the code's own (`case T:`) may be either.
 */
function namesType(value: string): boolean {
  const first = value.replace(/:$/, "").split(",")[0]!.trim();
  return (
    goTypeNames.has(first) || /^(\[|map\s*\[|(<-\s*)?chan\b|func\s*\(|struct\s*\{|interface\s*\{)/.test(first)
  );
}

/**
 * Where a Go clause's `:` is: not one of `:=`, nor one inside a string (`"a:b"`, `` `a:b` ``), a
 * rune (`':'`) or a block comment (`/* a:b *\/`); -1 when there is none.
 */
function clauseColon(text: string): number {
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (text.startsWith("/*", index)) {
      const end = text.indexOf("*/", index + 2);
      if (end < 0) return -1;
      index = end + 1;
    } else if (char === '"' || char === "'" || char === "`") {
      // Skip to the closing quote; a raw string (`` ` ``) has no escapes.
      for (index++; index < text.length && text[index] !== char; index++)
        if (char !== "`" && text[index] === "\\") index++;
    } else if (char === ":" && text[index + 1] !== "=") return index;
  }
  return -1;
}

/**
 * A Go `case` (or `default`) clause is matched in the `switch` or `select` written around it, on
 * one line: `switch $X { $$$P case $A: $$$B $$$Q }` (the statements of the case in `$$$B`, the
 * other cases in `$$$P` and `$$$Q`), as in ast-grep. On several lines `$$$Q` would be read as
 * more statements of the case, and so would it after statements written out (`case 1: g() $$$Q`
 * does not parse, `g(); $$$Q` matches no switch with more cases): those become `$$$B`. A clause
 * receiving from a channel (`case v := <-c:`) is a `select`'s.
 */
function goCaseHint(text: string, word: string, refused: boolean): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const colon = clauseColon(flat);
  const head = colon < 0 ? `${flat}:` : flat.slice(0, colon + 1);
  const written = colon < 0 ? "" : flat.slice(colon + 1).trim();
  const body = /^\$\$\$[A-Z_][A-Z0-9_]*$/.test(written) ? written : `$$$${freshName(flat, "B")}`;
  const clause = `${head} ${body}`;
  const before = `$$$${freshName(clause, "P")}`;
  const after = `$$$${freshName(clause, "Q")}`;
  const select = head.includes("<-") && !/^case\s*<-\s*chan\b/.test(head);
  const subject = `$${freshName(clause, "X")}`;
  const typeCase = !select && namesType(head.replace(/^case\s*/, ""));
  const statement = select
    ? `select { ${before} ${clause} ${after} }`
    : `switch ${subject}${typeCase ? ".(type)" : ""} { ${before} ${clause} ${after} }`;
  const others = select
    ? ""
    : typeCase
      ? " (`switch $V := $X.(type) { … }` for a type switch that names its value; `switch $X { … }` for one on a value)"
      : " (`switch { … }` without a value; `switch $V := $X.(type) { … }` or `switch $X.(type) { … }` for a type switch)";
  return (
    ` Hint: \`${word}\` is a clause of a \`switch\` or \`select\` statement, not a pattern on its own: ` +
    `write the statement around it, on one line, e.g. \`${statement}\`${others}: ` +
    `${before} and ${after} stand for the other cases` +
    (written !== "" && written !== body
      ? `, and ${body} for the case's statements (written out, they would take ${after} as one of them).`
      : ".") +
    (refused
      ? " A clause is a pattern alone only as its head, a `case` with a metavariable in its value or `default:` (`case $A:` finds every case with its statements, but a rewrite leaves those unchanged)."
      : ` \`${head}\` alone finds each case with its statements, but a rewrite leaves those unchanged.`)
  );
}

/** What did not parse in a pattern: where, a hint, and tree-sitter's s-expression of it. */
export function parseFailure(
  parser: Parser,
  text: string,
  spec: LanguageSpec,
  original: string,
  lineOffset: number,
  /** The pattern is refused (not matched as an ERROR, of which this says what did not parse). */
  refused = true,
): string {
  const language = spec.id;
  // Where a bare fragment is never the language's code, the first wrapper shows the error.
  const [prefix, suffix] = spec.onlyWrapped ? (spec.wrappers[0] ?? ["", ""]) : ["", ""];
  const prefixLines = prefix.split("\n").length - 1;
  const tree = parser.parse(prefix + text + suffix);
  let where = "";
  let sexp = "";
  try {
    // An ERROR kept around a metavariable is still what did not parse when it is the pattern.
    const error = tree
      ? (intolerableError(tree.rootNode, spec.expando) ?? firstError(tree.rootNode))
      : undefined;
    const lines = original.split("\n");
    if (error) {
      const row = Math.max(0, error.startPosition.row - prefixLines);
      const column = error.startPosition.row < prefixLines ? 0 : error.startPosition.column;
      const line = lines[row] ?? "";
      where = ` at line ${row + 1 + lineOffset}, column ${column + 1} (near '${line.slice(column, column + 20) || "end of pattern"}')`;
    } else if (tree) {
      const nodes = meaningfulChildren(tree.rootNode).filter((node) => node.startIndex >= prefix.length);
      where = `: it parses as ${nodes.length} separate nodes, not one`;
    }
    sexp = tree ? tree.rootNode.toString() : "";
  } finally {
    tree?.delete();
  }
  return (
    `the pattern does not parse as ${language} code${where}. ` +
    `Give one complete expression, statement or declaration of ${language}; ` +
    `metavariables must stand for whole nodes ($X, $$$ARGS), not parts of a name or string.` +
    (clauseHint(original, language, refused) ||
      bodyHint(original, language) ||
      directiveHint(original, language)) +
    (sexp ? `\nParsed as: ${sexp.length > 400 ? `${sexp.slice(0, 400)}…` : sexp}` : "")
  );
}

/** Throws `PATTERN_INVALID` with {@link parseFailure}'s description of the pattern. */
export function describeError(
  parser: Parser,
  text: string,
  spec: LanguageSpec,
  original: string,
  lineOffset: number,
): never {
  throw new StructuralError({
    code: "PATTERN_INVALID",
    message: parseFailure(parser, text, spec, original, lineOffset),
    data: { pattern: original, language: spec.id },
  });
}

/**
 * Throws `PATTERN_INVALID` for a pattern tree-sitter read only by inventing a token it lacks (a
 * MISSING node in the pattern's node: `foo($A, $B` read as `foo($A, $B)`), which would otherwise
 * match code the user did not write. `at` is the token's index in `original`, when known.
 */
export function describeMissing(
  missing: Node,
  spec: LanguageSpec,
  original: string,
  at: number | undefined,
  lineOffset: number,
): never {
  const token = missing.isNamed ? `a missing ${missing.type}` : `a missing \`${missing.type}\``;
  let where = "";
  let completed = "";
  if (at !== undefined && at >= 0 && at <= original.length) {
    const before = original.slice(0, at).split("\n");
    const column = (before.at(-1) ?? "").length;
    where = ` at line ${before.length + lineOffset}, column ${column + 1}`;
    if (!missing.isNamed) {
      const head = original.slice(0, at);
      const tail = original.slice(at);
      // A directive (C's `#endif`) is a line of its own, and what it closes holds code: `#ifdef $X`
      // becomes `#ifdef $X⏎$$$⏎#endif`, not `#ifdef $X#endif`, which does not parse either.
      const added = missing.type.startsWith("#")
        ? `${head.endsWith("\n") ? "" : "\n"}$$$\n${missing.type}${tail === "" || tail.startsWith("\n") ? "" : "\n"}`
        : missing.type;
      completed = `, e.g. \`${head}${added}${tail}\``;
    }
  }
  throw new StructuralError({
    code: "PATTERN_INVALID",
    message:
      `the pattern is not complete ${spec.id} code: it parses only with ${token}${where}, which tree-sitter ` +
      `added. Complete the pattern${completed}; it must be one whole expression, statement or ` +
      `declaration of ${spec.id}.` +
      (clauseHint(original, spec.id, true) || bodyHint(original, spec.id)),
    data: { pattern: original, language: spec.id, missing: missing.type },
  });
}
