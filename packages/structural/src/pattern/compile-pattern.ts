import type { Node, Parser, Tree } from "web-tree-sitter";
import { StructuralError } from "../errors/structural-error.js";
import type { LanguageSpec } from "../grammars/languages.js";
import { contextKeywords } from "./context-keywords.js";
import { restoreSigils, substituteExpando } from "./metavariable.js";
import { ParseArena } from "./parse-arena.js";
import { bodyHint, describeError, describeMissing, parseFailure } from "./parse-failure.js";
import { anyType, isSeparator, type CompiledPattern, type PatternNode } from "./pattern-node.js";
import {
  firstError,
  firstMissing,
  hasUncoveredText,
  intolerableError,
  isIgnorable,
  isMetaText,
  meaningfulChildren,
  metaOf,
  treeShape,
  type TreeShape,
} from "./pattern-tree.js";

/** How much tree-sitter had to repair: none, MISSING tokens only, or ERRORs standing for metavariables. */
type Repair = 0 | 1 | 2;

function repairOf(root: Node): Repair {
  if (firstError(root)) return 2;
  return root.hasError ? 1 : 0;
}

/**
 * Descends while the node has exactly one meaningful child: `foo(x)` → the call, not its
 * statement. Never into a node whose text its children do not cover: Rust's `// first` is the
 * comment, not its `//`.
 */
function effectiveNode(node: Node): Node {
  let current = node;
  for (;;) {
    if (hasUncoveredText(current)) return current;
    const children = meaningfulChildren(current);
    const only = children[0];
    if (children.length !== 1 || !only) return current;
    current = only;
  }
}

/** The one node of a pattern that is only a comment (an extra, which is no meaningful child). */
function loneExtra(root: Node): Node | undefined {
  if (meaningfulChildren(root).length > 0) return undefined;
  const children = root.children.filter((child) => !isIgnorable(child));
  const only = children[0];
  return children.length === 1 && only?.isExtra === true && !only.isError ? only : undefined;
}

interface Located {
  readonly node: Node;
  readonly wrapper: string | undefined;
  readonly repair: Repair;
  /**
   * The pattern's node is itself an ERROR (matched as a node of any kind). Ranked as any other
   * reading with ERRORs, as before: `fn $F() $B` is that ERROR, as in ast-grep, not a body-less
   * `fn $F() $B;` a wrapper's `;` would make of it.
   */
  readonly wholeError: boolean;
  /** The node took the `;` a wrapper appended, which the user did not write. */
  readonly impliedSemicolon: boolean;
  /** Where the user's text ends in the parsed source (an appended `;` lies beyond). */
  readonly textEnd: number;
}

/**
 * Statement words no member of a wrapper's class should be named: `catch ($E) { $$$B }` is a
 * catch clause, not a method named `catch`.
 */
const statementWords = new Set([
  "if",
  "else",
  "for",
  "while",
  "do",
  "switch",
  "case",
  "default",
  "try",
  "catch",
  "finally",
  "return",
  "throw",
  "break",
  "continue",
  "with",
]);

/** Whether a located node is no reading of the pattern: inside a wrapper, a member named by a statement word. */
function unfitReading(node: Node, wrapped: boolean): boolean {
  const name = wrapped ? node.childForFieldName("name") : null;
  return name !== null && statementWords.has(name.text);
}

/** Whether a reading is a whole ERROR inside a wrapper, which then did not make it one node. */
function wrappedError(located: Located): boolean {
  return located.wholeError && located.wrapper !== undefined;
}

/** Whether the pattern's node is itself an ERROR (not one standing for a metavariable). */
function isWholeError(node: Node, expando: string | undefined): boolean {
  return node.isError && !isMetaText(node, expando);
}

/** Node types of a string's text or of what holds it: strings, templates, interpolations, heredocs, JSX text. */
const stringLike = /string|template|interpolat|heredoc|jsx_text/;

/** Whether a leaf is, or is a part of, a string's text, whose trailing blanks are its text. */
function inStringText(node: Node): boolean {
  return stringLike.test(node.type) || (node.parent !== null && stringLike.test(node.parent.type));
}

/** Node types that hold a body of statements (Python's `block`, a `suite`, a `body`). */
const blockLike = /(?:^|_)(?:block|suite|body)$/;

/**
 * Node types of an annotation or decorator (Java and Dart `annotation`, Java
 * `marker_annotation`, TypeScript, JavaScript and Python `decorator`): written alone, with nothing
 * to annotate, tree-sitter puts it in an ERROR of which it is the one child.
 */
const annotationTypes: ReadonlySet<string> = new Set(["annotation", "marker_annotation", "decorator"]);

/**
 * The fragment parsed alone; its tree lives in `parses` as long as the returned node is used. The
 * tree must be free of intolerable ERRORs, except around an annotation or decorator: an ERROR
 * with it as its one child is no part of it (Java's `@Override` alone is an ERROR holding one
 * `marker_annotation`, which is the pattern). Any other node alone in an ERROR is no reading
 * (Rust's `'static` would be a loop label, C#'s `[$A]` an indexer's argument list).
 */
function tryBare(parses: ParseArena, text: string, expando: string | undefined): Located | undefined {
  return parses.read(text, (tree) => {
    const root = tree.rootNode;
    const node = loneExtra(root) ?? effectiveNode(root);
    if (intolerableError(node, expando)) return undefined;
    if (!annotationTypes.has(node.type) && intolerableError(root, expando)) return undefined;
    if (node.equals(root) && meaningfulChildren(root).length !== 1) return undefined;
    if (unfitReading(node, false)) return undefined;
    const repair = repairOf(root);
    const wholeError = isWholeError(node, expando);
    return { node, wrapper: undefined, repair, wholeError, impliedSemicolon: false, textEnd: text.length };
  });
}

/** Whether the pattern's last line is a C or C++ preprocessor directive (`#define $X`). */
function endsInDirective(text: string, spec: LanguageSpec): boolean {
  return (spec.id === "c" || spec.id === "cpp") && /(?:^|\n)[ \t]*#[^\n]*$/.test(text);
}

/**
 * The fragment parsed alone with the newline that ends its last directive; the newline is no
 * text of the pattern's (`textEnd` is the fragment's end).
 */
function tryDirectiveLine(
  parses: ParseArena,
  text: string,
  expando: string | undefined,
): Located | undefined {
  const located = tryBare(parses, `${text}\n`, expando);
  return located && { ...located, textEnd: text.length };
}

/**
 * Parses `prefix + text + suffix` (the tree lives in `parses`) and takes the smallest node
 * spanning the text (it may also take the suffix's `;`). Undefined when that has an ERROR or the
 * node reaches outside the text.
 */
function tryWrapper(
  parses: ParseArena,
  text: string,
  prefix: string,
  suffix: string,
  expando: string | undefined,
): Located | undefined {
  return parses.read(prefix + text + suffix, (tree) => readWrapped(tree, text, prefix, suffix, expando));
}

function readWrapped(
  tree: Tree,
  text: string,
  prefix: string,
  suffix: string,
  expando: string | undefined,
): Located | undefined {
  if (intolerableError(tree.rootNode, expando)) return undefined;
  const start = prefix.length;
  const end = start + text.length;
  const extra = suffix.startsWith(";") ? 1 : 0;
  // The smallest node reaching from the text's first character to its last (inclusive of a `;`
  // the user wrote: `x = $V;` is the statement, not the assignment before it).
  const found = tree.rootNode.descendantForIndex(start, end);
  if (!found) return undefined;
  if (found.startIndex !== start || found.endIndex < end || found.endIndex > end + extra) return undefined;
  if (found.equals(tree.rootNode) && meaningfulChildren(found).length !== 1) return undefined;
  // The wrapper's own body holding several nodes of the fragment is no reading of one node:
  // Python's block has no delimiter, so it starts where the fragment does (`match $X:⏎    $$$C`
  // in `def __f():⏎    …`, whose second line the wrapper does not indent, is two statements).
  if (
    blockLike.test(found.type) &&
    (found.parent?.startIndex ?? start) < start &&
    meaningfulChildren(found).length > 1
  )
    return undefined;
  const node = effectiveNode(found);
  if (unfitReading(node, prefix !== "")) return undefined;
  const wrapper = prefix === "" ? undefined : `${prefix.trim()} … ${suffix.trim()}`.replace(/\s+/g, " ");
  return {
    node,
    wrapper,
    repair: repairOf(tree.rootNode),
    wholeError: isWholeError(node, expando),
    impliedSemicolon: found.endIndex === end + 1,
    textEnd: end,
  };
}

/** Whether the `;` at `index` (in the parsed source of `node`) ends a statement. */
function endsStatement(node: Node, index: number): boolean {
  const leaf = node.descendantForIndex(index, index + 1);
  return leaf?.type === ";" && leaf.startIndex === index && /statement/.test(leaf.parent?.type ?? "");
}

/**
 * The pattern with a `;` after each sequence metavariable that is alone in braces, and where the
 * `;`s went (indices into the new text); undefined when there is none.
 */
function withStatementSemicolons(
  text: string,
  sigil: string,
): { text: string; inserted: number[] } | undefined {
  const escaped = sigil.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const lone = new RegExp(`(\\{\\s*${escaped}{3}[A-Z0-9_]*)(\\s*\\})`, "g");
  const inserted: number[] = [];
  let shift = 0;
  const out = text.replace(lone, (_all, head: string, tail: string, offset: number) => {
    inserted.push(offset + shift + head.length);
    shift += 1;
    return `${head};${tail}`;
  });
  return inserted.length > 0 ? { text: out, inserted } : undefined;
}

/**
 * The children of an expression statement that is a chain (a primary, then one or more
 * `selector` nodes), without its final `;`; undefined for any other pattern.
 */
function flatChain(root: PatternNode): readonly PatternNode[] | undefined {
  if (root.kind !== "inner" || root.type !== "expression_statement") return undefined;
  const last = root.children.at(-1);
  if (last?.kind !== "leaf" || last.text !== ";") return undefined;
  const run = root.children.slice(0, -1);
  const selectors = run.slice(1);
  if (selectors.length === 0 || selectors.some((node) => node.kind !== "inner" || node.type !== "selector"))
    return undefined;
  return run;
}

/**
 * The texts of the literal leaves every match holds: all but the separators that may match
 * nothing after an empty `$$$` run (see `isSeparator`), which a prefilter must not require.
 */
function requiredLiterals(root: PatternNode, leaves: ReadonlyMap<PatternNode, string>): Set<string> {
  const out = new Set<string>();
  const visit = (node: PatternNode, optional: boolean): void => {
    if (node.kind === "leaf") {
      const text = leaves.get(node);
      if (text !== undefined && !optional) out.add(text);
    } else if (node.kind === "inner") {
      let afterRun = false;
      for (const child of node.children) {
        const skippable: boolean = afterRun && isSeparator(child);
        visit(child, skippable);
        afterRun = skippable || (child.kind === "meta" && child.meta.kind === "multi");
      }
    }
  };
  visit(root, false);
  return out;
}

/**
 * Whether the pattern's last token is written code other than a `;`, or a named metavariable
 * (whose capture says whether it holds a `;`): a `;` the code has after it (the ASI-optional `;`
 * of a JavaScript statement) is then not the pattern's. Not after an anonymous `$_` or `$$$`,
 * which may hold it unseen.
 */
function endsWithoutSemicolon(root: PatternNode): boolean {
  let node = root;
  while (node.kind === "inner") {
    const last = node.children.at(-1);
    if (!last) return false;
    node = last;
  }
  if (node.kind === "meta") return node !== root && node.meta.name !== undefined;
  return !node.text.endsWith(";");
}

/**
 * The text every token of an unnamed leaf's kind holds, for the literal prefilter: the matcher
 * compares such tokens by kind only, so the prefilter may require no more than every token of
 * the kind spells. A preprocessor directive may have blanks after its `#` (`# include`), so only
 * its word is required; a keyword of a grammar that takes any case (PHP's `NEW`), or a token
 * with blanks inside, requires nothing.
 */
function fixedText(text: string, spec: LanguageSpec): string | undefined {
  if (/\s/.test(text)) return undefined;
  const directive = /^#([A-Za-z_]\w*)$/.exec(text);
  if (directive) return directive[1];
  if (spec.caseInsensitiveKeywords === true && /[A-Za-z]/.test(text)) return undefined;
  return text;
}

/**
 * The field a node fills in its parent (`body` for the block of Python's `try:`), or undefined
 * when it fills none or its parent is an ERROR (whose children have no fields).
 */
function fieldOf(node: Node): string | undefined {
  const parent = node.parent;
  if (!parent || parent.isError) return undefined;
  for (let index = 0; index < parent.childCount; index++) {
    if (parent.child(index)?.equals(node)) return parent.fieldNameForChild(index) ?? undefined;
  }
  return undefined;
}

/**
 * Whether `missing` is the only token tree-sitter added to `node`, and a directive closing it as
 * its last child (the `#endif` of C's `#ifdef $X`).
 */
function closesDirective(node: Node, missing: Node, expando: string | undefined): boolean {
  if (!missing.type.startsWith("#") || !node.lastChild?.equals(missing)) return false;
  return node.children.every((child) => child.equals(missing) || firstMissing(child, expando) === undefined);
}

/**
 * Deepest pattern accepted, in syntax-tree levels. Compiling and matching recurse once per level
 * (several JavaScript frames each): 700 levels still matched under vitest's stack, 990 did not.
 * Real patterns are a few dozen levels deep.
 */
export const maxPatternDepth = 300;

/**
 * Most children of one node of a pattern (the arguments of `foo(a, b)` have 5: `(`, `a`, `,`,
 * `b`, `)`). The matcher recurses once per sibling it matches; lists twice as long still fit the
 * stack (outside vitest).
 */
export const maxPatternWidth = 500;

/**
 * Rejects a pattern nested or spread wider than the matcher can follow (see `maxPatternDepth`,
 * `maxPatternWidth`) with `PATTERN_INVALID`, before anything walks it by recursion.
 */
function checkShape(parser: Parser, text: string): void {
  const tree = parser.parse(text);
  if (!tree) return;
  let shape: TreeShape;
  try {
    shape = treeShape(tree.rootNode);
  } finally {
    tree.delete();
  }
  if (shape.depth > maxPatternDepth) {
    throw new StructuralError({
      code: "PATTERN_INVALID",
      message: `pattern too deeply nested (${shape.depth} levels; at most ${maxPatternDepth}); match an inner part of it, with $X or $$$X for what lies inside`,
      data: { depth: shape.depth, maxDepth: maxPatternDepth },
    });
  }
  if (shape.width > maxPatternWidth) {
    throw new StructuralError({
      code: "PATTERN_INVALID",
      message: `pattern too long: ${shape.width} nodes side by side in one list (at most ${maxPatternWidth}); match a part of it, or write $$$X for the part of the list that need not be spelled out`,
      data: { width: shape.width, maxWidth: maxPatternWidth },
    });
  }
}

/**
 * Parses a pattern as code of the language and turns it into a {@link CompiledPattern}. A
 * fragment that is not valid at the top level is retried inside the language's wrappers (a
 * function body, with and without a trailing `;`). Throws `PATTERN_INVALID` saying where it
 * failed; never returns a pattern that silently matches nothing because it did not parse. Every
 * tree parsed on the way is freed before it returns or throws (the compiled pattern is plain
 * data, holding no node).
 * @internal Hands out web-tree-sitter objects: not in the published types.
 */
export function compilePattern(parser: Parser, spec: LanguageSpec, source: string): CompiledPattern {
  const parses = new ParseArena(parser);
  try {
    return compileIn(parses, spec, source);
  } finally {
    parses.dispose();
  }
}

function compileIn(parses: ParseArena, spec: LanguageSpec, source: string): CompiledPattern {
  const { parser } = parses;
  // A frame the file has (`<?php` … `?>`) is not code to match; lines it took are counted so
  // errors name the line the user wrote.
  const framed = source.trim();
  const unframed = framed.replace(spec.opening ?? /^/, "");
  const trimmed = unframed.replace(spec.closing ?? /$/, "").trim();
  const lineOffset = framed.slice(0, framed.length - unframed.trimStart().length).split("\n").length - 1;
  if (trimmed === "") {
    throw new StructuralError({
      code: "PATTERN_INVALID",
      message: "the pattern is empty; give a code fragment",
    });
  }
  const text = substituteExpando(trimmed, spec.expando, spec.codeNames);
  checkShape(parser, text);
  const locate = (fragment: string): Located | undefined => {
    const { expando } = spec;
    // A `;` never ends a directive, which ends at its line's end: a fragment ending in one is not
    // read with a `;` after it (`#endif;` would put an empty statement in the block around).
    const directive = endsInDirective(fragment, spec);
    const bare: (() => Located | undefined)[] = [
      () => tryBare(parses, fragment, expando),
      () =>
        /;\s*$/.test(fragment) || directive ? undefined : tryWrapper(parses, fragment, "", ";", expando),
      // A preprocessor directive ends at its line's end: the pattern lost that newline to the
      // trim (`#ifndef $X⏎#define $X`, a header guard, is an ERROR without it, as in ast-grep).
      () => (directive ? tryDirectiveLine(parses, fragment, expando) : undefined),
    ];
    const wrapped = spec.wrappers.map(
      ([prefix, suffix]) =>
        () =>
          directive && suffix.trimStart().startsWith(";")
            ? undefined
            : tryWrapper(parses, fragment, prefix, suffix, expando),
    );
    const attempts = spec.onlyWrapped
      ? wrapped
      : spec.preferWrapped
        ? [...wrapped, ...bare]
        : [...bare, ...wrapped];
    // A parse tree-sitter did not have to repair wins over one with MISSING nodes, which wins
    // over one with ERRORs taken as metavariables; in order otherwise, but a wrapper that left
    // the fragment a whole ERROR loses to a plain reading (no wrapper, as ast-grep reads it)
    // that is a node without a `;` the user did not write: C's `#ifdef $X⏎#ifdef $Y⏎$$$B⏎#endif`
    // is two `#ifdef` blocks, as in ast-grep, not the ERROR a function body makes of it (while
    // C++'s `void $F() $B` stays that ERROR, as in ast-grep, not a declaration ending in the `;`
    // a wrapper appended, and C++'s `do $S while ($C);` is refused with its hint, not read as a
    // class's field of type `do`).
    let best: Located | undefined;
    for (const attempt of attempts) {
      const candidate = attempt();
      if (!candidate) continue;
      if (candidate.repair === 0) return candidate;
      if (
        !best ||
        candidate.repair < best.repair ||
        (candidate.repair === best.repair &&
          wrappedError(best) &&
          candidate.wrapper === undefined &&
          !candidate.wholeError &&
          !candidate.impliedSemicolon)
      )
        best = candidate;
    }
    return best;
  };
  // A member written with its `;` (`readonly $P: $T;`): where the `;` is a separator of the
  // enclosing body rather than part of the member, the member alone is the pattern.
  // That reading also beats one that keeps ERRORs around metavariables.
  const whole = locate(text);
  const member =
    (!whole || whole.repair >= 2) && /;\s*$/.test(text) ? locate(text.replace(/;\s*$/, "")) : undefined;
  let located = member && (!whole || member.repair < whole.repair) ? member : whole;
  // A statement sequence alone in braces (`if ($C) { $$$B }`): where an expression is no
  // statement without its `;` (C#, whose parser then reads `{ … }` as an initializer followed
  // by a MISSING `!`), the braces are read again with a `;` after the metavariable. That
  // reading wins where each added `;` ends a statement and it is not read as a class member
  // (`switch ($X) { $$$C }` must not become a constructor named `switch`); the `;` (alone, or
  // as an empty statement) is not the pattern's.
  const sequence = withStatementSemicolons(text, spec.expando ?? "$");
  let synthetic: ReadonlySet<number> = new Set();
  // The text `located` was parsed from: the pattern, or it with the added `;`s.
  let fragment = text;
  if (sequence && located && located.repair > 0) {
    const retried = locate(sequence.text);
    const offset = retried ? retried.textEnd - sequence.text.length : 0;
    const inserted = sequence.inserted.map((index) => offset + index);
    if (
      retried &&
      !/^(class|interface|struct|impl)\b/.test(retried.wrapper ?? "") &&
      inserted.every((index) => endsStatement(retried.node, index))
    ) {
      located = retried;
      synthetic = new Set(inserted);
      fragment = sequence.text;
    }
  }
  const reread = located ? spec.rereadIn?.[located.node.type] : undefined;
  const rereadWrapper = reread === undefined ? undefined : spec.wrappers[reread];
  if (located && rereadWrapper) {
    const [prefix, suffix] = rereadWrapper;
    const meant = tryWrapper(parses, fragment, prefix, suffix, spec.expando);
    if (meant && meant.repair <= located.repair) {
      synthetic = new Set([...synthetic].map((index) => index - located!.textEnd + meant.textEnd));
      located = meant;
    }
  }
  // A pattern that is itself an ERROR is matched as a node of any kind with its children (as in
  // ast-grep: `import { $$$N } from $M`, where a module cannot be an identifier), unless it is a
  // header without its body (`class $C`), which nothing can match.
  if (!located || (located.wholeError && bodyHint(trimmed, spec.id) !== ""))
    describeError(parser, text, spec, trimmed, lineOffset);
  // A token tree-sitter had to invent inside the pattern's node (the `)` of `foo($A, $B`) is one
  // the user did not write: matching without it would find code the pattern does not say.
  const missing = firstMissing(located.node, spec.expando);
  // A preprocessor conditional without its `#endif` (C's `#ifdef $X`) is the start of one, as in
  // ast-grep: its lines and `#endif` may trail (`#if $X` is read whole as an ERROR, the same).
  const open = missing !== undefined && closesDirective(located.node, missing, spec.expando);
  if (missing && !open) {
    const start = located.textEnd - fragment.length;
    const at = synthetic.size === 0 && fragment === text ? missing.startIndex - start : undefined;
    describeMissing(missing, spec, trimmed, at, lineOffset);
  }
  const unparsed = located.wholeError
    ? parseFailure(parser, text, spec, trimmed, lineOffset, false)
    : undefined;
  let keptError: CompiledPattern["keptError"];

  const singleNames = new Set<string>();
  const multiNames = new Set<string>();
  /** Leaves whose text every match holds, unless they lie where they may match nothing. */
  const literalLeaves = new Map<PatternNode, string>();
  const { textEnd } = located;
  // Whether a token of the pattern is the `;` a wrapper appended (not one a metavariable took).
  let keptImpliedSemicolon = false;
  const convert = (node: Node): PatternNode => {
    // A statement that took the appended `;` around a lone metavariable is that metavariable:
    // C `while ($C) $B` has a statement body, not the expression `$B` of `$B;`.
    let ownText = node.endIndex > textEnd ? node.text.slice(0, textEnd - node.startIndex) : node.text;
    if (synthetic.has(node.endIndex - 1) && node.startIndex < node.endIndex - 1)
      ownText = ownText.slice(0, -1);
    const meta = metaOf(ownText, spec.expando);
    if (meta) {
      if (meta.name !== undefined) (meta.kind === "multi" ? multiNames : singleNames).add(meta.name);
      // Only a run standing for a whole block (Python's indented `block`) is held to its field:
      // the clauses after it (`except`, `elif`, `else`, `finally`) fill other fields of the same
      // parent. A `$$$` in an expression, a list or a condition keeps matching whatever the code
      // has there (`from m import *`, `export default class A {}`, `if x := f(); x > 0`).
      const field = meta.kind === "multi" && blockLike.test(node.type) ? fieldOf(node) : undefined;
      return field === undefined ? { kind: "meta", meta } : { kind: "meta", meta, field };
    }
    const children = meaningfulChildren(node).filter(
      (child) => !(synthetic.has(child.startIndex) && child.endIndex === child.startIndex + 1),
    );
    // A node with text outside its children (a Rust comment: `//` and its text) is compared by
    // its whole text, as a leaf.
    if (children.length === 0 || hasUncoveredText(node)) {
      // A line comment runs on over the `;` a wrapper appended: that `;` is not the pattern's.
      // Only a string's text keeps its trailing blanks (the `hello ` of `f"hello {$X}"`); other
      // leaves lose them (the `1  ` of a C `#define FOO 1  ` is the `1` of the code's).
      const cut = node.endIndex > textEnd || node.isExtra || !inStringText(node);
      const leafText = node.startIndex < textEnd ? (cut ? ownText.trimEnd() : ownText) : node.text;
      const implied = node.startIndex >= textEnd;
      if (implied) keptImpliedSemicolon = true;
      const leaf: PatternNode = implied
        ? { kind: "leaf", type: node.type, text: leafText, named: node.isNamed, implied }
        : { kind: "leaf", type: node.type, text: leafText, named: node.isNamed };
      // A token the user did not write is no text every match holds (see `implied`).
      const literal = implied
        ? undefined
        : node.isNamed
          ? leafText
          : node.type === leafText
            ? fixedText(leafText, spec)
            : undefined;
      if (literal !== undefined && literal.trim() !== "" && !literal.includes(spec.expando ?? "$$$$"))
        literalLeaves.set(leaf, literal);
      return leaf;
    }
    // An ERROR kept (see intolerableError) matches a node of any kind, as in ast-grep.
    const type = node.isError ? anyType : node.type;
    if (node.isError && unparsed === undefined && keptError === undefined)
      keptError = {
        text: restoreSigils(ownText, spec.expando).trim(),
        metaVariables: children.flatMap((child) => {
          const meta = metaOf(child.text, spec.expando);
          return meta?.kind === "single" && meta.name !== undefined ? [meta.name] : [];
        }),
      };
    return { kind: "inner", type, children: children.map(convert) };
  };
  const converted = convert(located.node);
  const root: PatternNode = open && converted.kind === "inner" ? { ...converted, open: true } : converted;
  const chain =
    spec.flatChains === true && located.impliedSemicolon && keptImpliedSemicolon
      ? flatChain(root)
      : undefined;
  // A run inside an expression holds no `;`: only the run's literals are required.
  const literalRoot: PatternNode = chain ? { kind: "inner", type: anyType, children: chain } : root;
  const literals = requiredLiterals(literalRoot, literalLeaves);
  // A named leaf never matches a token tree-sitter supplied (MISSING, whose text is empty): each
  // match holds its text, also in a tree with errors.
  const namedLiterals = requiredLiterals(
    literalRoot,
    new Map([...literalLeaves].filter(([leaf]) => leaf.kind === "leaf" && leaf.named)),
  );
  if (root.kind === "meta" && root.meta.kind === "multi") {
    throw new StructuralError({
      code: "PATTERN_INVALID",
      message: `a pattern cannot be only '${trimmed}': a sequence metavariable needs surrounding code, e.g. 'foo(${trimmed})'`,
    });
  }
  for (const name of singleNames) {
    if (multiNames.has(name)) {
      throw new StructuralError({
        code: "PATTERN_INVALID",
        message: `metavariable ${name} is used both as $${name} and $$$${name}; use one form or two names`,
      });
    }
  }
  const rootType = root.kind === "meta" || root.type === anyType ? undefined : root.type;
  const impliedSemicolon = located.impliedSemicolon && keptImpliedSemicolon;
  return {
    source: trimmed,
    language: spec.id,
    root,
    rootType,
    singleNames,
    multiNames,
    literals: [...literals],
    namedLiterals: [...namedLiterals],
    context: contextKeywords(spec.id, rootType).filter((word) => !literals.has(word)),
    wrapper: located.wrapper,
    impliedSemicolon,
    keepsSemicolon: impliedSemicolon || endsWithoutSemicolon(root),
    ...(unparsed === undefined ? {} : { unparsed }),
    ...(keptError === undefined ? {} : { keptError }),
    ...(chain === undefined ? {} : { sequence: chain }),
    codeNames: spec.codeNames ?? [],
  };
}
