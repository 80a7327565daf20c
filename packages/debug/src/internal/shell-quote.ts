/** Characters a POSIX shell takes literally in a word: such an argument is shown as it is. */
const plain = /^[\w@%+=:,./-]+$/;

/** One argument as a POSIX shell would take it back: quoted (`'a b'`) only when it needs it. */
export function shellQuote(argument: string): string {
  if (plain.test(argument)) return argument;
  return `'${argument.replaceAll("'", `'\\''`)}'`;
}

/** A command line's words, each quoted as {@link shellQuote} does, joined by spaces. */
export function shellWords(words: readonly string[]): string {
  return words.map(shellQuote).join(" ");
}
