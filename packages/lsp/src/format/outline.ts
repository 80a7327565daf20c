import { SymbolKind, type DocumentSymbol } from "vscode-languageserver-protocol";

/** One line of a file's outline. */
export interface OutlineRow {
  readonly text: string;
  readonly depth: number;
  /**
   * Inside a function, method or initialiser (a local variable, a property of an object literal)
   * rather than a declaration of the file, a class, an interface or a namespace.
   */
  readonly inner: boolean;
}

/** Kinds whose children are declarations of their own (members), not a body's locals. */
const containers = new Set<number>([
  SymbolKind.File,
  SymbolKind.Module,
  SymbolKind.Namespace,
  SymbolKind.Package,
  SymbolKind.Class,
  SymbolKind.Enum,
  SymbolKind.Interface,
  SymbolKind.Struct,
]);

/**
 * A hierarchical outline as rows in the file's order (children by line under their parent:
 * typescript-language-server answers alphabetically), `line` formatting one symbol.
 */
export function outlineRows(
  symbols: readonly DocumentSymbol[],
  line: (symbol: DocumentSymbol, depth: number) => string,
): OutlineRow[] {
  const rows: OutlineRow[] = [];
  const visit = (symbol: DocumentSymbol, depth: number, inner: boolean): void => {
    rows.push({ text: line(symbol, depth), depth, inner });
    const childrenInner = inner || !containers.has(symbol.kind);
    for (const child of byLine(symbol.children ?? [])) visit(child, depth + 1, childrenInner);
  };
  for (const symbol of byLine(symbols)) visit(symbol, 0, false);
  return rows;
}

/**
 * At most `limit` rows of an outline, still in the file's order. Over the limit, the file's
 * structure is kept first: every top-level declaration, then members one level down, and so on,
 * and a body's locals (the noise of a long function) last — so a large file's last functions are
 * not cut off for the locals of its first ones. A row listed always has its parent listed.
 */
export function boundOutline(rows: readonly OutlineRow[], limit: number): { items: string[]; note: string } {
  if (rows.length <= limit) return { items: rows.map((row) => row.text), note: "" };
  const rank = (row: OutlineRow): number => (row.inner ? 1_000_000 : 0) + row.depth;
  // A parent ranks below its children (shallower, and never inner when they are not), so taking
  // the lowest ranks, ties in the file's order, keeps every listed row's parent listed.
  const kept = rows
    .map((row, index) => ({ rank: rank(row), index }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .slice(0, limit)
    .map(({ index }) => index)
    .sort((a, b) => a - b);
  const keptSet = new Set(kept);
  const left = rows.filter((_, index) => !keptSet.has(index));
  const innerLeft = left.filter((row) => row.inner).length;
  const allNested = left.every((row) => row.depth > 0);
  const why = allNested
    ? ` (nested ones: every top-level declaration is listed${
        innerLeft === 0
          ? ""
          : innerLeft === left.length
            ? `; all ${innerLeft} are locals of a function or initialiser`
            : `; ${innerLeft} of them are locals of a function or initialiser`
      })`
    : "";
  return {
    items: kept.map((index) => rows[index]!.text),
    note: `… ${left.length} more symbols${why}`,
  };
}

/** Document symbols in the order of their lines (stable: ties keep the server's order). */
export function byLine<T extends DocumentSymbol | { location: { range: DocumentSymbol["range"] } }>(
  symbols: readonly T[],
): T[] {
  const lineOf = (symbol: T): number =>
    "selectionRange" in symbol ? symbol.range.start.line : symbol.location.range.start.line;
  return [...symbols].sort((x, y) => lineOf(x) - lineOf(y));
}
