import { nameRuns, nonIdentifierChar } from "./identifier-chars.js";

/**
 * The name a symbol argument points at: `config.port` means `port` (a member is asked about
 * through its object), `parse(` means `parse`, a call means its callee (`add(1, 2)`: `add`;
 * `new Square(3)`: `Square`). Number literals and the insides of quoted strings are no names. A
 * symbol with no name characters (an operator) is taken whole; one that is only a string or a
 * number, by the names in it. `names`: how many names it holds;
 * `callee`: the name was taken as the one before the first `(`, not the last.
 */
export function focusOf(symbol: string): { name: string; offset: number; names: number; callee?: true } {
  if (!nonIdentifierChar.test(symbol)) return { name: symbol, offset: 0, names: 1 };
  const quoted = quotedSpans(symbol);
  const all = [...symbol.matchAll(nameRuns())];
  // A run starting with a digit is a number; one starting with a mark or a joiner holds no name.
  const words = all.filter((match) => /^[\p{ID_Start}_$]/u.test(match[0]));
  const code = words.filter((match) => !quoted.some(([from, to]) => match.index >= from && match.index < to));
  // Only a string or a number asked about (an import's path, a key): its names are what there is.
  const names = code.length > 0 ? code : words.length > 0 ? words : all;
  if (names.length === 0) return { name: symbol, offset: 0, names: 0 };
  const call = symbol.indexOf("(");
  const beforeCall = call === -1 ? [] : names.filter((match) => match.index < call);
  const focus = (beforeCall.length > 0 ? beforeCall : names).at(-1)!;
  const callee = beforeCall.length > 0 && focus !== names.at(-1);
  return {
    name: focus[0],
    offset: focus.index,
    names: names.length,
    ...(callee ? { callee: true as const } : {}),
  };
}

/** The [start, end) spans of `text` inside quotes ('…', "…", `…`; a backslash escapes). */
function quotedSpans(text: string): Array<[number, number]> {
  const spans: Array<[number, number]> = [];
  let open: string | undefined;
  let from = 0;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (open !== undefined && char === "\\") i++;
    else if (open === undefined && (char === "'" || char === '"' || char === "`")) {
      open = char;
      from = i;
    } else if (char === open) {
      spans.push([from, i + 1]);
      open = undefined;
    }
  }
  if (open !== undefined) spans.push([from, text.length]);
  return spans;
}
