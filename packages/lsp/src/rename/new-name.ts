/** What a new name may look like per language: the pattern and how to say it. */
interface NameRule {
  readonly pattern: RegExp;
  readonly says: string;
}

const rules: Record<string, NameRule> = {
  // A private member keeps its '#'.
  typescript: {
    pattern: /^#?[\p{ID_Start}$_][\p{ID_Continue}$\u200C\u200D]*$/u,
    says: "a letter, _ or $ first, then letters, digits, _ or $",
  },
  python: {
    pattern: /^[\p{ID_Start}_][\p{ID_Continue}]*$/u,
    says: "a letter or _ first, then letters, digits or _",
  },
  go: { pattern: /^[\p{L}_][\p{L}\p{Nd}_]*$/u, says: "a letter or _ first, then letters, digits or _" },
  // A raw identifier (r#type) and a lifetime ('a) are names too.
  rust: {
    pattern: /^(?:r#|')?[\p{XID_Start}_][\p{XID_Continue}]*$/u,
    says: "a letter or _ first, then letters, digits or _",
  },
  c: { pattern: /^[\p{L}_][\p{L}\p{Nd}_]*$/u, says: "a letter or _ first, then letters, digits or _" },
  dart: { pattern: /^[A-Za-z_$][\w$]*$/, says: "a letter, _ or $ first, then letters, digits, _ or $" },
};

/** Reserved words per language: a name renamed to one breaks every file that uses it. */
const keywords: Record<string, ReadonlySet<string>> = {
  typescript: new Set(
    "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in instanceof new null return super switch this throw true try typeof var void while with implements interface let package private protected public static yield".split(
      " ",
    ),
  ),
  python: new Set(
    "False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield".split(
      " ",
    ),
  ),
  go: new Set(
    "break case chan const continue default defer else fallthrough for func go goto if import interface map package range return select struct switch type var".split(
      " ",
    ),
  ),
  rust: new Set(
    "as async await break const continue crate dyn else enum extern false fn for if impl in let loop match mod move mut pub ref return self Self static struct super trait true type unsafe use where while".split(
      " ",
    ),
  ),
  c: new Set(
    "auto break case char const continue default do double else enum extern float for goto if inline int long register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while bool class delete explicit false friend mutable namespace new nullptr operator private protected public template this throw true try typename using virtual".split(
      " ",
    ),
  ),
  dart: new Set(
    "assert break case catch class const continue default do else enum extends false final finally for if in is new null rethrow return super switch this throw true try var void while with".split(
      " ",
    ),
  ),
};

/**
 * Why `name` cannot be the new name of a symbol in `language` (not an identifier, or a reserved
 * word), or undefined when it can (or the language has no rule here). Servers do not all check:
 * typescript-language-server wrote `1bad` into the file, and it and pyright renamed to `class`.
 */
export function newNameProblem(language: string, name: string): string | undefined {
  if (keywords[language]?.has(name)) {
    return `'${name}' is a reserved word in ${language}: every file using the name would stop parsing; give another name`;
  }
  const rule = rules[language];
  if (!rule || rule.pattern.test(name)) return undefined;
  return `'${name}' is not a ${language} identifier (${rule.says}); give new_name as one whole name, without spaces or punctuation`;
}
