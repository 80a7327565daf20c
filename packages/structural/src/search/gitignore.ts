interface Rule {
  readonly negate: boolean;
  readonly dirOnly: boolean;
  readonly regex: RegExp;
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
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.replace(/(?<!\\)\s+$/, "");
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
    rules.push({ negate, dirOnly, regex: new RegExp(anchored ? `^${body}$` : `^(?:.*/)?${body}$`) });
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
}

/** Whether a path (relative to the walk root, `/`-separated) is ignored by the layers in scope. */
export function isIgnored(
  layers: readonly IgnoreLayer[],
  relativePath: string,
  isDirectory: boolean,
): boolean {
  let ignored = false;
  for (const layer of layers) {
    if (layer.base !== "" && !relativePath.startsWith(`${layer.base}/`)) continue;
    const local =
      (layer.prefix ?? "") + (layer.base === "" ? relativePath : relativePath.slice(layer.base.length + 1));
    for (const rule of layer.rules) {
      if (rule.dirOnly && !isDirectory) continue;
      if (rule.regex.test(local)) ignored = !rule.negate;
    }
  }
  return ignored;
}
