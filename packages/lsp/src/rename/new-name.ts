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
  // C23 and C++ name characters are XID_Start and XID_Continue (an accent's combining mark too).
  c: {
    pattern: /^[\p{XID_Start}_][\p{XID_Continue}]*$/u,
    says: "a letter or _ first, then letters, digits or _",
  },
  dart: { pattern: /^[A-Za-z_$][\w$]*$/, says: "a letter, _ or $ first, then letters, digits, _ or $" },
};

/** Reserved words per language (C and C++ apart: `new` or `class` is a C name). */
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
    "auto break case char const continue default do double else enum extern float for goto if inline int long register restrict return short signed sizeof static struct switch typedef union unsigned void volatile while _Alignas _Alignof _Atomic _Bool _Complex _Generic _Imaginary _Noreturn _Static_assert _Thread_local".split(
      " ",
    ),
  ),
  cpp: new Set(
    "alignas alignof and and_eq asm auto bitand bitor bool break case catch char char8_t char16_t char32_t class compl concept const consteval constexpr constinit const_cast continue co_await co_return co_yield decltype default delete do double dynamic_cast else enum explicit export extern false float for friend goto if inline int long mutable namespace new noexcept not not_eq nullptr operator or or_eq private protected public register reinterpret_cast requires return short signed sizeof static static_assert static_cast struct switch template this thread_local throw true try typedef typeid typename union unsigned using virtual void volatile wchar_t while xor xor_eq".split(
      " ",
    ),
  ),
  dart: new Set(
    "assert break case catch class const continue default do else enum extends false final finally for if in is new null rethrow return super switch this throw true try var void while with".split(
      " ",
    ),
  ),
};

/** The dialects (LSP language ids) whose reserved words are another list's. */
const keywordsOf: Record<string, string> = { cpp: "cpp" };

/**
 * Languages where a member (a property, a method, an enum member) may be named by a reserved
 * word: `store.delete(key)` and `class Store { default() {} }` are TypeScript and JavaScript.
 */
const reservedMembersAllowed: ReadonlySet<string> = new Set(["typescript"]);

/** Where the name is used, as far as {@link newNameProblem} needs to know. */
export interface NameUse {
  /** The file's LSP language id (`cpp` for a C++ file of the `c` server): picks C++'s reserved words. */
  readonly dialect?: string;
  /** The symbol renamed is a member (a property, a method, an enum member): see {@link reservedWordIsFine}. */
  readonly member?: boolean;
}

/**
 * Whether `name` is a reserved word of `language` (of its `dialect`) that a member of that
 * language may still be named (TypeScript and JavaScript): whether the rename may go on once
 * the symbol is known to be a member.
 */
export function reservedWordIsFine(language: string, name: string, use: NameUse = {}): boolean {
  return reservedMembersAllowed.has(language) && reservedIn(language, name, use.dialect);
}

/**
 * Whether `name` is a reserved word of `language` (of its `dialect`, the file's LSP language id:
 * `cpp` picks C++'s words for a file of the `c` server). A language without a list has none.
 */
export function reservedIn(language: string, name: string, dialect: string | undefined): boolean {
  const list = (dialect !== undefined ? keywordsOf[dialect] : undefined) ?? language;
  return keywords[list]?.has(name) ?? false;
}

/** The language as messages about its reserved words name it: "c++" for a C++ file of the `c` server. */
export function reservedWordsOf(language: string, dialect: string | undefined): string {
  return dialect === "cpp" ? "c++" : language;
}

/** Whether a member of `language` may be named by a reserved word (see {@link reservedMembersAllowed}). */
export function membersMayBeReserved(language: string): boolean {
  return reservedMembersAllowed.has(language);
}

/**
 * Why `name` cannot be the new name of a symbol in `language` (not an identifier, or a reserved
 * word), or undefined when it can (or the language has no rule here). A reserved word is fine
 * for a member where the language allows it (`use.member`; see {@link reservedWordIsFine}).
 * Servers do not all check: typescript-language-server wrote `1bad` into the file, and it and
 * pyright renamed to `class`.
 */
export function newNameProblem(language: string, name: string, use: NameUse = {}): string | undefined {
  if (reservedIn(language, name, use.dialect) && !(use.member && reservedMembersAllowed.has(language))) {
    const where = reservedWordsOf(language, use.dialect);
    const only = reservedMembersAllowed.has(language) ? " (only a property or method may be named so)" : "";
    return `'${name}' is a reserved word in ${where}${only}: every file using the name would stop parsing; give another name`;
  }
  const rule = rules[language];
  if (!rule || rule.pattern.test(name)) return undefined;
  return `'${name}' is not a ${language} identifier (${rule.says}); give new_name as one whole name, without spaces or punctuation`;
}
