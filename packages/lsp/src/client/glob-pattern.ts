/**
 * An LSP glob (`GlobPattern` of `workspace/didChangeWatchedFiles` registrations) as a regular
 * expression over `/`-separated paths: `*` any run of characters in one segment, `?` one
 * character, `**` any number of segments (none included), `{a,b}` alternatives (nestable),
 * `[a-z]` / `[!a-z]` a character from (or not from) a range. Anything else is literal.
 */
export function globToRegExp(glob: string): RegExp {
  let source = "";
  let braces = 0;
  for (let i = 0; i < glob.length; i++) {
    const c = glob[i]!;
    if (c === "*") {
      if (glob[i + 1] === "*") {
        const slash = glob[i + 2] === "/";
        source += slash ? "(?:.*/)?" : ".*";
        i += slash ? 2 : 1;
      } else {
        source += "[^/]*";
      }
    } else if (c === "?") {
      source += "[^/]";
    } else if (c === "{") {
      source += "(?:";
      braces++;
    } else if (c === "}" && braces > 0) {
      source += ")";
      braces--;
    } else if (c === "," && braces > 0) {
      source += "|";
    } else if (c === "[" && glob.indexOf("]", i + 2) > i) {
      const end = glob.indexOf("]", i + 2);
      const body = glob.slice(i + 1, end);
      const negated = body.startsWith("!");
      source += `[${negated ? "^" : ""}${(negated ? body.slice(1) : body).replace(/[\\\]^]/g, "\\$&")}]`;
      i = end;
    } else {
      source += c.replace(/[.+^$()|[\]{}\\]/g, "\\$&");
    }
  }
  // An unclosed brace is literal text in most glob dialects; here it just closes at the end.
  source += ")".repeat(braces);
  return new RegExp(`^${source}$`);
}
