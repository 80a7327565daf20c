/**
 * Node types that only occur inside a class, per grammar: the grammar's node types list no
 * parent for them but a class (`class`, `class_declaration`, `abstract_class_declaration`) or
 * another type of this list. A tree-sitter parser reduces them only in a class body's parse
 * states, which it reaches only after the `class` keyword, so the code around a match of one of
 * them holds the word `class`, although the match itself does not. (`context-keywords.test.ts`
 * derives these lists from the grammars' `node-types.json` again.)
 */
const javascriptClassOnly = ["class_body", "class_heritage", "class_static_block", "field_definition"];
const typescriptClassOnly = [
  "abstract_method_signature",
  "class_body",
  "class_heritage",
  "class_static_block",
  "extends_clause",
  "implements_clause",
  "public_field_definition",
];

const classOnly: ReadonlyMap<string, ReadonlySet<string>> = new Map([
  ["javascript", new Set(javascriptClassOnly)],
  ["typescript", new Set(typescriptClassOnly)],
  ["tsx", new Set(typescriptClassOnly)],
]);

/** The node types of {@link classOnly} for a language (empty when it has none listed). */
export function classOnlyTypes(languageId: string): ReadonlySet<string> {
  return classOnly.get(languageId) ?? new Set();
}

/**
 * Words that every top-level statement holding a match of a pattern rooted at `rootType`
 * contains besides the pattern's own literals: `class` for a class member in JavaScript and
 * TypeScript (`readonly $P: $T` matches only in a class body). A file or statement without them
 * cannot hold a match.
 */
export function contextKeywords(languageId: string, rootType: string | undefined): readonly string[] {
  return rootType !== undefined && classOnly.get(languageId)?.has(rootType) ? ["class"] : [];
}
