import type { MetaVariable } from "./metavariable.js";

/**
 * The type of an inner pattern node that matches a node of any type with its children: an ERROR
 * tree-sitter made of the pattern around a metavariable (see `intolerableError`).
 */
export const anyType = "ERROR";

/** A node of a compiled pattern. */
export type PatternNode =
  | {
      readonly kind: "meta";
      readonly meta: MetaVariable;
      /**
       * The field of its parent that the node a `$$$` stands for fills (Python's `body` block of
       * a `try`): the run then holds only nodes of that field, with comments and unnamed tokens,
       * never a sibling clause after it (`except …`, `elif …`, `else: …`).
       */
      readonly field?: string;
    }
  | {
      readonly kind: "leaf";
      readonly type: string;
      readonly text: string;
      readonly named: boolean;
      /**
       * The token is the `;` a wrapper appended, which the user did not write (CSS's `color: red`
       * is a declaration only with it): it matches nothing where the code's node ends without
       * one (the last declaration of a CSS block may leave out its `;`).
       */
      readonly implied?: true;
    }
  | {
      readonly kind: "inner";
      readonly type: string;
      readonly children: readonly PatternNode[];
      /**
       * The pattern is only the start of this node (its root only): code may trail its last
       * child, as in ast-grep. C's `#ifdef $X` without the `#endif` tree-sitter added matches an
       * `#ifdef` block with its lines and `#endif`.
       */
      readonly open?: true;
    };

/** A pattern ready to match: its root, what it binds, and the literals every match contains. */
export interface CompiledPattern {
  readonly source: string;
  readonly language: string;
  readonly root: PatternNode;
  /** Node type of the root, or undefined when the root is a metavariable (matches any node). */
  readonly rootType: string | undefined;
  /** Names bound by `$NAME` / `$$NAME`. */
  readonly singleNames: ReadonlySet<string>;
  /** Names bound by `$$$NAME`. */
  readonly multiNames: ReadonlySet<string>;
  /** Texts every matching code must contain (prefilter before parsing). */
  readonly literals: readonly string[];
  /**
   * Those of `literals` that are the text of a named leaf (an identifier, a number), which no
   * token tree-sitter supplied (MISSING) matches: in a tree with errors, matches are looked for
   * around the rarest of these only (a `)` or `#endif` the pattern writes may match a MISSING
   * one, which no occurrence of its text leads to).
   */
  readonly namedLiterals?: readonly string[];
  /**
   * Words that the top-level statement around every match contains, though the match may not:
   * `class` for a class member in JavaScript and TypeScript (see `contextKeywords`). Prefilter
   * and parse plans require them; matching does not.
   */
  readonly context: readonly string[];
  /** The wrapper the fragment needed to parse, if any (`void __f() { … }`). */
  readonly wrapper: string | undefined;
  /**
   * The root is a statement that took a `;` the pattern did not write (Dart's `f(x)` is only a
   * statement with its `;`): a rewrite leaves that `;` in place.
   */
  readonly impliedSemicolon: boolean;
  /**
   * A `;` that ends a match is code the pattern does not write, which a rewrite leaves in place:
   * the `;` a wrapper appended (`impliedSemicolon`), or one the code has after the pattern's last
   * token (JavaScript's `const $A = $B` on `const a = 1;`). Never when the pattern ends in a `;`
   * or an anonymous metavariable, which may hold it; a rewrite also keeps none that a capture
   * holds (`if ($C) $S` on `if (x) foo();`).
   */
  readonly keepsSemicolon: boolean;
  /** The language's own variables spelled like metavariables (see `LanguageSpec.codeNames`). */
  readonly codeNames: readonly string[];
  /**
   * The pattern as a run of siblings, for a grammar of flat chains (see `LanguageSpec.flatChains`):
   * the statement's children without its implied `;`. A match is then also any contiguous run of
   * children, starting a chain, that matches these.
   */
  readonly sequence?: readonly PatternNode[];
  /**
   * Where the pattern did not parse, when tree-sitter read it whole as an ERROR (then matched as
   * a node of any kind with its children): a search that finds nothing reports this as an error.
   */
  readonly unparsed?: string;
  /**
   * Part of the pattern tree-sitter read as an ERROR, kept (matched as a node of any kind with its
   * children; see `intolerableError`) though the pattern as a whole parsed: its text (with `$`
   * sigils) and the single metavariables among its children. JavaScript's `export * from $M`,
   * where only a string can follow `from`, is an expression statement holding such an ERROR and
   * matches nothing; a search that finds nothing says so (ast-grep's warning is only for a
   * pattern that is an ERROR whole). Unset when the pattern is itself an ERROR (see `unparsed`).
   */
  readonly keptError?: { readonly text: string; readonly metaVariables: readonly string[] };
}

/**
 * Whether a pattern node is a list separator (`,` or `;`) that may match nothing right after a
 * `$$$` run that matched nothing, as in ast-grep: `foo($$$A, $B)` matches `foo(x)`. Such a
 * separator is no literal every match contains.
 */
export function isSeparator(node: PatternNode | undefined): boolean {
  return node?.kind === "leaf" && !node.named && (node.text === "," || node.text === ";");
}

/**
 * The children of a pattern's root that every match has among its own children, each matching
 * one of them: written code, not a metavariable, nor a separator that may match nothing after an
 * empty `$$$` (see {@link isSeparator}). For a root read whole as an ERROR (see `anyType`), a
 * node can only match if it has a child of the type of each.
 */
export function writtenChildren(root: PatternNode): PatternNode[] {
  if (root.kind !== "inner") return [];
  const out: PatternNode[] = [];
  let afterRun = false;
  for (const child of root.children) {
    const optional: boolean = afterRun && isSeparator(child);
    afterRun = optional || (child.kind === "meta" && child.meta.kind === "multi");
    if (!optional && child.kind !== "meta") out.push(child);
  }
  return out;
}

/**
 * Those of {@link writtenChildren} that are tokens every token of whose type spells their text
 * (the literals the prefilter asks for: not `#define`, which may be written `# define`, nor a
 * keyword of a grammar that takes any case): in a tree without errors, each one of the code is at
 * an occurrence of that text.
 */
export function spelledChildren(pattern: CompiledPattern): Extract<PatternNode, { kind: "leaf" }>[] {
  return writtenChildren(pattern.root).flatMap((child) =>
    child.kind === "leaf" &&
    !child.named &&
    child.text === child.type &&
    pattern.literals.includes(child.text)
      ? [child]
      : [],
  );
}
