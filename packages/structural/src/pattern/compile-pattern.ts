import type { Node, Parser } from "web-tree-sitter";
import { StructuralError } from "../errors/structural-error.js";
import type { LanguageSpec } from "../grammars/languages.js";
import { contextKeywords } from "./context-keywords.js";
import { parseMetaVariable, restoreSigils, substituteExpando } from "./metavariable.js";
import { anyType, type CompiledPattern, type PatternNode } from "./pattern-node.js";

/** Children that carry no code: zero-width terminators and MISSING nodes tree-sitter invented. */
export function isIgnorable(node: Node): boolean {
  return node.isMissing || node.startIndex === node.endIndex;
}

/** The first ERROR node in the subtree (MISSING nodes are tolerated, as ast-grep does). */
export function firstError(node: Node): Node | undefined {
  if (node.isError) return node;
  if (!node.hasError) return undefined;
  for (const child of node.children) {
    const found = firstError(child);
    if (found) return found;
  }
  return undefined;
}

/**
 * The metavariable a pattern node's text spells, or undefined. With an expando only text that
 * went through it counts: a `$` left as written is code (PHP's `$_GET`).
 */
function metaOf(text: string, expando: string | undefined): ReturnType<typeof parseMetaVariable> {
  if (expando !== undefined && !text.startsWith(expando)) return undefined;
  return parseMetaVariable(restoreSigils(text, expando));
}

/** Whether the node's whole text spells a metavariable (after the expando is put back). */
function isMetaText(node: Node, expando: string | undefined): boolean {
  return metaOf(node.text, expando) !== undefined;
}

/**
 * The first ERROR node a pattern may not keep. As in ast-grep, an ERROR whose whole text is a
 * metavariable is that metavariable (`class $C { $$$B }`: a lone `$$$B` where Java wants a
 * member), and an ERROR with a metavariable among its children is a node of any kind with those
 * children (JSON `{"k": $V}`, where no value can be an identifier). Any other ERROR is a typo.
 */
export function intolerableError(node: Node, expando: string | undefined): Node | undefined {
  if (!node.hasError && !node.isError) return undefined;
  if (node.isError) {
    if (isMetaText(node, expando)) return undefined;
    if (!node.children.some((child) => isMetaText(child, expando))) return node;
  }
  for (const child of node.children) {
    const found = intolerableError(child, expando);
    if (found) return found;
  }
  return undefined;
}

/** How much tree-sitter had to repair: none, MISSING tokens only, or ERRORs standing for metavariables. */
type Repair = 0 | 1 | 2;

function repairOf(root: Node): Repair {
  if (firstError(root)) return 2;
  return root.hasError ? 1 : 0;
}

/** Children that are code: not ignorable, and not comments (an ERROR counts as extra; it is kept). */
function meaningfulChildren(node: Node): Node[] {
  return node.children.filter((child) => !isIgnorable(child) && (!child.isExtra || child.isError));
}

/** Descends while the node has exactly one meaningful child: `foo(x)` → the call, not its statement. */
function effectiveNode(node: Node): Node {
  let current = node;
  for (;;) {
    const children = meaningfulChildren(current);
    const only = children[0];
    if (children.length !== 1 || !only) return current;
    current = only;
  }
}

interface Located {
  readonly node: Node;
  readonly wrapper: string | undefined;
  readonly repair: Repair;
  /** The node took the `;` a wrapper appended, which the user did not write. */
  readonly impliedSemicolon: boolean;
  /** Where the user's text ends in the parsed source (an appended `;` lies beyond). */
  readonly textEnd: number;
}

function tryBare(parser: Parser, text: string, expando: string | undefined): Located | undefined {
  // The tree stays alive through the returned node; web-tree-sitter frees it with the parser.
  const tree = parser.parse(text);
  if (!tree) return undefined;
  const root = tree.rootNode;
  if (intolerableError(root, expando)) return undefined;
  const node = effectiveNode(root);
  if (node.equals(root) && meaningfulChildren(root).length !== 1) return undefined;
  return { node, wrapper: undefined, repair: repairOf(root), impliedSemicolon: false, textEnd: text.length };
}

/**
 * Parses `prefix + text + suffix` and takes the smallest node spanning the text (it may also take
 * the suffix's `;`). Undefined when that has an ERROR or the node reaches outside the text.
 */
function tryWrapper(
  parser: Parser,
  text: string,
  prefix: string,
  suffix: string,
  expando: string | undefined,
): Located | undefined {
  const tree = parser.parse(prefix + text + suffix);
  if (!tree) return undefined;
  if (intolerableError(tree.rootNode, expando)) return undefined;
  const start = prefix.length;
  const end = start + text.length;
  const extra = suffix.startsWith(";") ? 1 : 0;
  const found = tree.rootNode.descendantForIndex(start, Math.max(start, end - 1));
  if (!found) return undefined;
  if (found.startIndex !== start || found.endIndex < end || found.endIndex > end + extra) return undefined;
  if (found.equals(tree.rootNode) && meaningfulChildren(found).length !== 1) return undefined;
  const wrapper = prefix === "" ? undefined : `${prefix.trim()} … ${suffix.trim()}`;
  return {
    node: effectiveNode(found),
    wrapper,
    repair: repairOf(tree.rootNode),
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

function describeError(
  parser: Parser,
  text: string,
  spec: LanguageSpec,
  original: string,
  lineOffset: number,
): never {
  const language = spec.id;
  // Where a bare fragment is never the language's code, the first wrapper shows the error.
  const [prefix, suffix] = spec.onlyWrapped ? (spec.wrappers[0] ?? ["", ""]) : ["", ""];
  const prefixLines = prefix.split("\n").length - 1;
  const tree = parser.parse(prefix + text + suffix);
  const error = tree ? intolerableError(tree.rootNode, spec.expando) : undefined;
  const lines = original.split("\n");
  let where = "";
  if (error) {
    const row = Math.max(0, error.startPosition.row - prefixLines);
    const column = error.startPosition.row < prefixLines ? 0 : error.startPosition.column;
    const line = lines[row] ?? "";
    where = ` at line ${row + 1 + lineOffset}, column ${column + 1} (near '${line.slice(column, column + 20) || "end of pattern"}')`;
  } else if (tree) {
    const nodes = meaningfulChildren(tree.rootNode).filter((node) => node.startIndex >= prefix.length);
    where = `: it parses as ${nodes.length} separate nodes, not one`;
  }
  const sexp = tree ? tree.rootNode.toString() : "";
  throw new StructuralError({
    code: "PATTERN_INVALID",
    message:
      `the pattern does not parse as ${language} code${where}. ` +
      `Give one complete expression, statement or declaration of ${language}; ` +
      `metavariables must stand for whole nodes ($X, $$$ARGS), not parts of a name or string.` +
      (sexp ? `\nParsed as: ${sexp.length > 400 ? `${sexp.slice(0, 400)}…` : sexp}` : ""),
    data: { pattern: original, language },
  });
}

/**
 * Parses a pattern as code of the language and turns it into a {@link CompiledPattern}. A
 * fragment that is not valid at the top level is retried inside the language's wrappers (a
 * function body, with and without a trailing `;`). Throws `PATTERN_INVALID` saying where it
 * failed; never returns a pattern that silently matches nothing because it did not parse.
 */
export function compilePattern(parser: Parser, spec: LanguageSpec, source: string): CompiledPattern {
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
  const locate = (fragment: string): Located | undefined => {
    const { expando } = spec;
    const bare: (() => Located | undefined)[] = [
      () => tryBare(parser, fragment, expando),
      () => (/;\s*$/.test(fragment) ? undefined : tryWrapper(parser, fragment, "", ";", expando)),
    ];
    const wrapped = spec.wrappers.map(
      ([prefix, suffix]) =>
        () =>
          tryWrapper(parser, fragment, prefix, suffix, expando),
    );
    const attempts = spec.onlyWrapped
      ? wrapped
      : spec.preferWrapped
        ? [...wrapped, ...bare]
        : [...bare, ...wrapped];
    // A parse tree-sitter did not have to repair wins over one with MISSING nodes, which wins
    // over one with ERRORs taken as metavariables; in order otherwise.
    let best: Located | undefined;
    for (const attempt of attempts) {
      const candidate = attempt();
      if (!candidate) continue;
      if (candidate.repair === 0) return candidate;
      if (!best || candidate.repair < best.repair) best = candidate;
    }
    return best;
  };
  // A member written with its `;` (`readonly $P: $T;`): where the `;` is a separator of the
  // enclosing body rather than part of the member, the member alone is the pattern.
  // That reading also beats one that keeps ERRORs around metavariables.
  const whole = locate(text);
  const member =
    (!whole || whole.repair === 2) && /;\s*$/.test(text) ? locate(text.replace(/;\s*$/, "")) : undefined;
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
  const reread = located && located.wrapper === undefined ? spec.rereadIn?.[located.node.type] : undefined;
  const rereadWrapper = reread === undefined ? undefined : spec.wrappers[reread];
  if (located && rereadWrapper) {
    const [prefix, suffix] = rereadWrapper;
    const meant = tryWrapper(parser, fragment, prefix, suffix, spec.expando);
    if (meant && meant.repair <= located.repair) {
      synthetic = new Set([...synthetic].map((index) => index - located!.textEnd + meant.textEnd));
      located = meant;
    }
  }
  if (!located) describeError(parser, text, spec, trimmed, lineOffset);

  const singleNames = new Set<string>();
  const multiNames = new Set<string>();
  const literals = new Set<string>();
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
      return { kind: "meta", meta };
    }
    const children = meaningfulChildren(node).filter(
      (child) => !(synthetic.has(child.startIndex) && child.endIndex === child.startIndex + 1),
    );
    if (children.length === 0) {
      const leafText = node.text;
      if (node.startIndex >= textEnd) keptImpliedSemicolon = true;
      if (node.isNamed || node.type === leafText) {
        if (leafText.trim() !== "" && !leafText.includes(spec.expando ?? "$$$$")) literals.add(leafText);
      }
      return { kind: "leaf", type: node.type, text: leafText, named: node.isNamed };
    }
    // An ERROR kept (see intolerableError) matches a node of any kind, as in ast-grep.
    const type = node.isError ? anyType : node.type;
    return { kind: "inner", type, children: children.map(convert) };
  };
  const root = convert(located.node);
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
  return {
    source: trimmed,
    language: spec.id,
    root,
    rootType,
    singleNames,
    multiNames,
    literals: [...literals],
    context: contextKeywords(spec.id, rootType).filter((word) => !literals.has(word)),
    wrapper: located.wrapper,
    impliedSemicolon: located.impliedSemicolon && keptImpliedSemicolon,
    codeNames: spec.codeNames ?? [],
  };
}
