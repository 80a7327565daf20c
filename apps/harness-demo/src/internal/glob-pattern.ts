/**
 * Compiles a glob (`*`, `**`, `?`, `[abc]`, `{a,b}`) into a regular expression over a
 * `/`-separated relative path. `*` never crosses a `/`; `**` crosses any number of folders.
 */
export function globToRegExp(glob: string): RegExp {
  let source = "";
  let braces = 0;
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index] as string;
    if (char === "*") {
      if (glob[index + 1] === "*") {
        const slashAfter = glob[index + 2] === "/";
        source += slashAfter ? "(?:.*/)?" : ".*";
        index += slashAfter ? 2 : 1;
      } else {
        source += "[^/]*";
      }
    } else if (char === "?") {
      source += "[^/]";
    } else if (char === "[") {
      const close = glob.indexOf("]", index + 1);
      if (close === -1) {
        source += "\\[";
      } else {
        const body = glob
          .slice(index + 1, close)
          .replace(/^!/, "^")
          .replace(/\\/g, "\\\\");
        source += `[${body}]`;
        index = close;
      }
    } else if (char === "{") {
      braces++;
      source += "(?:";
    } else if (char === "}" && braces > 0) {
      braces--;
      source += ")";
    } else if (char === "," && braces > 0) {
      source += "|";
    } else {
      source += char.replace(/[.+^$()|\\]/g, "\\$&");
    }
  }
  return new RegExp(`^${source}$`);
}

/**
 * A file filter from a glob: a glob without `/` matches the file's name (`*.ts`), one with `/`
 * matches the whole relative path (`src/**\/*.ts`).
 */
export function globFilter(glob: string): (relativePath: string) => boolean {
  const pattern = globToRegExp(glob);
  if (glob.includes("/")) return (path) => pattern.test(path);
  return (path) => pattern.test(path.slice(path.lastIndexOf("/") + 1));
}
