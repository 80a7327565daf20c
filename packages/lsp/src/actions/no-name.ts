import {
  charBefore,
  identifierChar,
  identifiers,
  nameCharAt,
  nameCharBefore,
} from "../positions/identifier-chars.js";
import { containingIdentifier } from "../positions/whole-occurrences.js";
import { reservedIn, reservedWordsOf } from "../rename/new-name.js";

/** A position that names nothing: a keyword of the file's language, or an operator. */
export interface NoName {
  readonly kind: "keyword" | "operator";
  /** The keyword, or the operator's characters, as the line writes them. */
  readonly word: string;
  /** The language as messages name it ("typescript", "c++"). */
  readonly language: string;
  /** A name of the line's code to ask about instead, when it has one (see {@link noNameAt}). */
  readonly instead?: string;
}

/** Characters of an operator: anything but a name's, spaces, brackets, separators and quotes. */
const operatorChar = {
  test: (char: string) => char !== "" && !identifierChar.test(char) && !/[\s()[\]{},;'"`]/.test(char),
};

/**
 * What is at `character` of line `text` (`code`: the line with comments and strings blanked,
 * columns kept) when it names nothing: a reserved word of `language` (of its `dialect`, the
 * file's LSP language id), or an operator. A reserved word right after a `.` is a member's
 * name (TypeScript's `store.delete`), and a word reserved in another language only is a name:
 * undefined for both, and for every other name. A server that finds nothing there is then told
 * apart from one that found no use of a name. `instead`: the first name of the line's code after
 * a keyword (the one it introduces: `export const total`), else the last before it; the last
 * before an operator (its left side), else the first after. Reserved words are no candidates.
 */
export function noNameAt(
  text: string,
  code: string,
  character: number,
  language: string,
  dialect: string | undefined,
): NoName | undefined {
  const named = (word: string) => !reservedIn(language, word, dialect);
  const around = (start: number, end: number, after: boolean): string | undefined => {
    const names = [...code.matchAll(identifiers())].filter((match) => named(match[0]));
    const later = names.filter((match) => match.index >= end);
    const earlier = names.filter((match) => match.index + match[0].length <= start);
    const order = after ? [later[0], earlier.at(-1)] : [earlier.at(-1), later[0]];
    return order.find((match) => match !== undefined)?.[0];
  };
  const shown = reservedWordsOf(language, dialect);
  if (nameCharAt(text, character)) {
    const word = containingIdentifier(text, character, 0);
    if (named(word)) return undefined;
    let start = character;
    while (start > 0 && nameCharBefore(text, start)) start -= charBefore(text, start).length;
    if (/\.\s*$/.test(code.slice(0, start))) return undefined;
    const instead = around(start, start + word.length, true);
    return { kind: "keyword", word, language: shown, ...(instead ? { instead } : {}) };
  }
  if (!operatorChar.test(text.charAt(character))) return undefined;
  let start = character;
  let end = character + 1;
  while (start > 0 && operatorChar.test(text.charAt(start - 1))) start--;
  while (end < text.length && operatorChar.test(text.charAt(end))) end++;
  const instead = around(start, end, false);
  return { kind: "operator", word: text.slice(start, end), language: shown, ...(instead ? { instead } : {}) };
}

/** The answer for a position that names nothing, where the server found nothing (`where`: path:line:column). */
export function noNameAnswer(noName: NoName, where: string): string {
  const example = noName.instead ? ` (e.g. '${noName.instead}')` : "";
  return noName.kind === "keyword"
    ? `'${noName.word}' at ${where} is a keyword of ${noName.language}, not a name: give the name it introduces or acts on as symbol${example}`
    : `'${noName.word}' at ${where} is an operator, not a name: give the name it applies to as symbol${example}`;
}
