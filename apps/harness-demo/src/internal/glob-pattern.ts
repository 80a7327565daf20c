import { ToolsError } from "@tools/registry";

/** Options of {@link globToRegExp}. */
export interface GlobOptions {
  /**
   * Refuse a glob that is not well formed (an unclosed `[` or `{`, a bad range) with
   * `INVALID_GLOB`, instead of reading its stray `[` as a literal. On for a glob the model gives;
   * off for `.gitignore` lines, where git reads them leniently.
   */
  readonly strict?: boolean;
}

function invalidGlob(glob: string, problem: string): ToolsError {
  return new ToolsError({
    code: "INVALID_GLOB",
    message: `glob '${glob}' is not valid: ${problem}. Examples: *.ts, src/**/*.{ts,tsx}, [[] for a literal [`,
  });
}

/**
 * Compiles a glob (`*`, `**`, `?`, `[abc]`, `[!abc]`, `{a,b}`) into a regular expression over a
 * `/`-separated relative path. `*` never crosses a `/`; `**` crosses any number of folders. A `]`
 * right after `[` or `[!` is a member of the class, as in POSIX.
 */
export function globToRegExp(glob: string, options: GlobOptions = {}): RegExp {
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
      let bodyStart = index + 1;
      if (glob[bodyStart] === "!") bodyStart++;
      if (glob[bodyStart] === "]") bodyStart++;
      const close = glob.indexOf("]", bodyStart);
      if (close === -1) {
        if (options.strict) {
          throw invalidGlob(glob, `the '[' at character ${index + 1} has no closing ']'`);
        }
        source += "\\[";
      } else {
        const body = glob
          .slice(index + 1, close)
          .replace(/^!/, "^")
          .replace(/\\/g, "\\\\")
          .replace(/^(\^?)\]/, "$1\\]")
          .replace(/\[/g, "\\[");
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
      source += char.replace(/[.+^$()|\\{}[\]]/g, "\\$&");
    }
  }
  if (braces > 0) {
    if (options.strict) throw invalidGlob(glob, "a '{' has no closing '}'");
    // Lenient: the open groups are closed at the end.
    source += ")".repeat(braces);
  }
  try {
    return new RegExp(`^${source}$`);
  } catch (error) {
    throw invalidGlob(glob, error instanceof Error ? error.message : String(error));
  }
}

/**
 * A file filter from a glob the caller gave: a glob without `/` matches the file's name (`*.ts`),
 * one with `/` matches the whole relative path (`src/**\/*.ts`). An empty or malformed glob is
 * refused (`INVALID_GLOB`), never taken to match nothing.
 */
export function globFilter(glob: string): (relativePath: string) => boolean {
  if (glob.trim() === "") {
    throw new ToolsError({
      code: "INVALID_GLOB",
      message:
        "glob is empty; give a pattern such as *.ts or src/**/*.ts, or leave glob out to search every file",
    });
  }
  const pattern = globToRegExp(glob, { strict: true });
  if (glob.includes("/")) return (path) => pattern.test(path);
  return (path) => pattern.test(path.slice(path.lastIndexOf("/") + 1));
}
