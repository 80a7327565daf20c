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

/**
 * Why `name` cannot be the new name of a symbol in `language`, or undefined when it can (or the
 * language has no rule here). Servers do not all check: typescript-language-server wrote `1bad`
 * into the file.
 */
export function newNameProblem(language: string, name: string): string | undefined {
  const rule = rules[language];
  if (!rule || rule.pattern.test(name)) return undefined;
  return `'${name}' is not a ${language} identifier (${rule.says}); give new_name as one whole name, without spaces or punctuation`;
}
