import type { VariableDeclaration } from "acorn";
import type { SourceEdit } from "./source-edits.js";

/** Where a statement stands: in a statement list, as the body of an if/loop/label/with, or a loop head. */
export type Place = "list" | "body" | "head";

/**
 * Edits that turn a `const`/`let`/`var` into assignments, keeping columns: the keyword becomes
 * blanks, or blanks and `;(` before a destructuring pattern in a statement list (` (` as the body
 * of an if or a loop, where a `;` would end it). In a loop head only the keyword goes. A `using`
 * declaration gets none: it disposes at its block's end, which an assignment would not.
 */
export function declarationEdits(code: string, declaration: VariableDeclaration, place: Place): SourceEdit[] {
  const { kind, declarations } = declaration;
  if (kind !== "const" && kind !== "let" && kind !== "var") return [];
  const destructures =
    place !== "head" && declarations.some((declarator) => declarator.id.type !== "Identifier");
  const start = declaration.start;
  // `;(`: a line before it without a `;` would otherwise take the `(` as a call of its value.
  const opening = place === "list" ? ";(" : " (";
  const edits: SourceEdit[] = [
    {
      start,
      end: start + kind.length,
      insert: [destructures ? `${" ".repeat(kind.length - 2)}${opening}` : " ".repeat(kind.length)],
    },
  ];
  if (place === "head") return edits;
  // A `var` without a value keeps the one its global has (declared before the cell runs).
  if (kind !== "var") {
    for (const declarator of declarations) {
      if (declarator.init == null)
        edits.push({ start: declarator.end, end: declarator.end, insert: [" = undefined"] });
    }
  }
  const lastEnd = declarations.at(-1)?.end ?? declaration.end;
  const closing = `${destructures ? ")" : ""}${code[declaration.end - 1] === ";" ? "" : ";"}`;
  if (closing !== "") edits.push({ start: lastEnd, end: lastEnd, insert: [closing] });
  return edits;
}
