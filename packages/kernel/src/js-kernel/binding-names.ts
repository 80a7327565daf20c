import type { Pattern, Statement } from "acorn";

/** Names a statement list declares lexically: let/const/class, and its functions in a block. */
export function lexicalNames(statements: readonly Statement[], functions: boolean): Set<string> {
  const names = new Set<string>();
  for (const statement of statements) {
    if (statement.type === "VariableDeclaration" && statement.kind !== "var") {
      for (const declarator of statement.declarations) bindingNames(declarator.id, names);
    } else if (
      statement.type === "ClassDeclaration" ||
      (functions && statement.type === "FunctionDeclaration")
    ) {
      names.add(statement.id.name);
    }
  }
  return names;
}

/** Adds the names a binding pattern binds to `into`. */
export function bindingNames(pattern: Pattern, into: Set<string>): void {
  switch (pattern.type) {
    case "Identifier":
      into.add(pattern.name);
      return;
    case "ObjectPattern":
      for (const property of pattern.properties)
        bindingNames(property.type === "RestElement" ? property.argument : property.value, into);
      return;
    case "ArrayPattern":
      for (const element of pattern.elements) if (element) bindingNames(element, into);
      return;
    case "RestElement":
      bindingNames(pattern.argument, into);
      return;
    case "AssignmentPattern":
      bindingNames(pattern.left, into);
      return;
    default:
      return;
  }
}
