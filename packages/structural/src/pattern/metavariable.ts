/** What a metavariable in a pattern stands for. */
export type MetaVariable =
  | { readonly kind: "single"; readonly name: string | undefined; readonly namedOnly: boolean }
  | { readonly kind: "multi"; readonly name: string | undefined };

const multiPattern = /^\$\$\$([A-Z_][A-Z0-9_]*)?$/;
const singlePattern = /^(\$\$?)([A-Z_][A-Z0-9_]*)$/;

/**
 * The metavariable a node's whole text spells, if any: `$NAME` (one named node), `$$NAME` (one
 * node, named or not), `$$$NAME` (a sequence). Names starting with `_` bind nothing.
 */
export function parseMetaVariable(text: string): MetaVariable | undefined {
  const multi = multiPattern.exec(text);
  if (multi) {
    const name = multi[1];
    return { kind: "multi", name: name === undefined || name.startsWith("_") ? undefined : name };
  }
  const single = singlePattern.exec(text);
  if (single) {
    const name = single[2] ?? "";
    return { kind: "single", name: name.startsWith("_") ? undefined : name, namedOnly: single[1] === "$" };
  }
  return undefined;
}

/**
 * Words of a pattern in which a `$` and an uppercase letter are glued to other identifier
 * characters (`foo$X`, `$Xfoo`, `$Foo`): plain code, not metavariables, since a metavariable
 * must be a whole node. In order of appearance, each once.
 */
export function gluedMetaVariables(pattern: string): string[] {
  const out: string[] = [];
  for (const [word] of pattern.matchAll(/[\p{L}\p{N}_]*\$+[\p{L}\p{N}_]+/gu)) {
    if (!/\$[A-Z]/.test(word) || parseMetaVariable(word) || out.includes(word)) continue;
    out.push(word);
  }
  return out;
}

/**
 * Replaces the `$` sigils of metavariables with the grammar's expando character, keeping the
 * text length (the expando is one UTF-16 unit) so positions in the parsed pattern are positions
 * in what the user wrote.
 */
export function substituteExpando(
  pattern: string,
  expando: string | undefined,
  codeNames: readonly string[] = [],
): string {
  if (expando === undefined) return pattern;
  let out = "";
  let index = 0;
  while (index < pattern.length) {
    if (pattern[index] !== "$") {
      out += pattern[index];
      index++;
      continue;
    }
    let run = 0;
    while (pattern[index + run] === "$") run++;
    const next = pattern[index + run] ?? "";
    const name = run === 1 ? (/^[A-Za-z0-9_]+/.exec(pattern.slice(index + 1))?.[0] ?? "") : "";
    const sigil = (/[A-Z_]/.test(next) && !codeNames.includes(name)) || run === 3;
    out += (sigil ? expando : "$").repeat(run);
    index += run;
  }
  return out;
}

/** Turns expando characters back into `$` so metavariables can be read from node text. */
export function restoreSigils(text: string, expando: string | undefined): string {
  return expando === undefined ? text : text.split(expando).join("$");
}
