export interface Rule {
  readonly negate: boolean;
  readonly dirOnly: boolean;
  readonly regex: RegExp;
  /** 1-based line of the rule in its file. */
  readonly line: number;
  /** The rule as written (trailing blanks off). */
  readonly text: string;
}

function globToRegex(glob: string): string {
  let out = "";
  for (let index = 0; index < glob.length; index++) {
    const char = glob[index] ?? "";
    if (char === "*") {
      if (glob[index + 1] === "*") {
        const atSegmentStart = index === 0 || glob[index - 1] === "/";
        const next = glob[index + 2];
        if (atSegmentStart && next === "/") {
          out += "(?:.*/)?";
          index += 2;
          continue;
        }
        if (atSegmentStart && next === undefined) {
          out += ".*";
          index += 1;
          continue;
        }
      }
      out += "[^/]*";
    } else if (char === "?") {
      out += "[^/]";
    } else if (char === "[") {
      const close = glob.indexOf("]", index + 2);
      if (close < 0) {
        out += "\\[";
        continue;
      }
      let body = glob.slice(index + 1, close);
      if (body.startsWith("!")) body = `^${body.slice(1)}`;
      out += `[${body.replace(/\\/g, "\\\\")}]`;
      index = close;
    } else if (char === "\\" && index + 1 < glob.length) {
      index++;
      out += (glob[index] ?? "").replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    } else {
      out += char.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
    }
  }
  return out;
}

/** Parses the text of one .gitignore into rules (git's syntax: `!`, trailing `/`, `**`, anchors). */
export function parseGitignore(text: string): Rule[] {
  const rules: Rule[] = [];
  const lines = text.split(/\r?\n/);
  for (let index = 0; index < lines.length; index++) {
    let line = (lines[index] ?? "").replace(/(?<!\\)\s+$/, "");
    const written = line;
    if (line === "" || line.startsWith("#")) continue;
    let negate = false;
    if (line.startsWith("!")) {
      negate = true;
      line = line.slice(1);
    } else if (line.startsWith("\\!") || line.startsWith("\\#")) {
      line = line.slice(1);
    }
    let dirOnly = false;
    if (line.endsWith("/")) {
      dirOnly = true;
      line = line.slice(0, -1);
    }
    if (line === "") continue;
    const anchored = line.includes("/");
    if (line.startsWith("/")) line = line.slice(1);
    const body = globToRegex(line);
    rules.push({
      negate,
      dirOnly,
      regex: new RegExp(anchored ? `^${body}$` : `^(?:.*/)?${body}$`),
      line: index + 1,
      text: written,
    });
  }
  return rules;
}

/** The rules of one directory's .gitignore, applied to paths relative to that directory. */
export interface IgnoreLayer {
  /** The directory's path relative to the walk root, with `/` separators ("" for the root). */
  readonly base: string;
  /** For a .gitignore above the walk root: the root's path relative to it, ending in `/`. */
  readonly prefix?: string;
  readonly rules: readonly Rule[];
  /** The ignore file the rules were read from (absolute), when known. */
  readonly source?: string;
}

/** The rule that ignores a path, and the file it was read from. */
export interface IgnoringRule {
  readonly rule: Rule;
  readonly source: string | undefined;
}

/**
 * The rule that ignores a path (relative to the walk root, `/`-separated), the last one matching
 * it in the layers in scope, or undefined when it is not ignored (no rule, or a `!` rule last).
 */
export function ignoringRule(
  layers: readonly IgnoreLayer[],
  relativePath: string,
  isDirectory: boolean,
): IgnoringRule | undefined {
  let last: Rule | undefined;
  let source: string | undefined;
  for (const layer of layers) {
    if (layer.base !== "" && !relativePath.startsWith(`${layer.base}/`)) continue;
    const local =
      (layer.prefix ?? "") + (layer.base === "" ? relativePath : relativePath.slice(layer.base.length + 1));
    for (const rule of layer.rules) {
      if (rule.dirOnly && !isDirectory) continue;
      if (rule.regex.test(local)) {
        last = rule;
        source = layer.source;
      }
    }
  }
  return last && !last.negate ? { rule: last, source } : undefined;
}

/** Whether a path (relative to the walk root, `/`-separated) is ignored by the layers in scope. */
export function isIgnored(
  layers: readonly IgnoreLayer[],
  relativePath: string,
  isDirectory: boolean,
): boolean {
  return ignoringRule(layers, relativePath, isDirectory) !== undefined;
}
