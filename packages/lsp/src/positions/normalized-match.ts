/**
 * The spellings in `text` of `symbol` under Unicode normalization: the substrings of `text` that
 * read as `symbol` once both are NFC (a decomposed `cafe\u0301` for a precomposed `café`, or the
 * other way round), each once, in order of first occurrence. A match must start and end between
 * characters (a base character with its combining marks is never cut). UTF-16 columns stay the
 * text's own: a spelling is a slice of `text`, so its columns and length are those written.
 */
export function spellingsIn(text: string, symbol: string): string[] {
  const wanted = symbol.normalize("NFC");
  if (wanted === "") return [];
  const normal = text.normalize("NFC");
  if (normal === text) return text.includes(wanted) ? [wanted] : [];
  // Per base character with its marks: the NFC of the whole is that of each piece, and each
  // piece's start is a column of the text to map back to.
  let folded = "";
  const starts = new Map<number, number>();
  for (const piece of text.matchAll(/\P{M}\p{M}*|\p{M}+/gu)) {
    starts.set(folded.length, piece.index);
    folded += piece[0].normalize("NFC");
  }
  starts.set(folded.length, text.length);
  const found = new Set<string>();
  for (let at = folded.indexOf(wanted); at !== -1; at = folded.indexOf(wanted, at + 1)) {
    const from = starts.get(at);
    const to = starts.get(at + wanted.length);
    if (from !== undefined && to !== undefined) found.add(text.slice(from, to));
  }
  return [...found];
}
