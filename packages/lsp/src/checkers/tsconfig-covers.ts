import { join, relative, sep } from "node:path";
import { readTextFile } from "../files/file-texts.js";
import { parseJsonc } from "../files/jsonc.js";

/**
 * Whether `tsc -p root` reads the files of `member` (a folder inside `root`), by the `include`,
 * `files` and `exclude` of `root`'s tsconfig.json, read conservatively: true only when an include
 * pattern takes files inside the folder (no include and no files: `**\/*`; `packages/*\/src`
 * takes `packages/c`'s sources) and no exclude pattern takes the whole folder. An `extends`
 * without include/files of its own, a `files` list only, or a tsconfig.json that cannot be read:
 * false (the folder is then said not checked, not checked by the tsconfig.json above).
 */
export function tsconfigCovers(root: string, member: string): boolean {
  let config: { include?: unknown; files?: unknown; exclude?: unknown; extends?: unknown };
  try {
    config = parseJsonc(readTextFile(join(root, "tsconfig.json"), 4 * 1024 * 1024)) as typeof config;
  } catch {
    return false;
  }
  if (typeof config !== "object" || config === null) return false;
  const rel = relative(root, member).split(sep).join("/");
  if (rel === "" || rel.startsWith("..")) return false;
  const strings = (value: unknown): string[] | undefined =>
    Array.isArray(value) && value.every((item) => typeof item === "string") ? value : undefined;
  if (config.include === undefined && (config.files !== undefined || config.extends !== undefined))
    return false;
  const include = config.include === undefined ? ["**/*"] : strings(config.include);
  const exclude = config.exclude === undefined ? [] : strings(config.exclude);
  if (include === undefined || exclude === undefined) return false;
  const folders = rel.split("/");
  const reachesInto = (pattern: string[]) => {
    for (const [index, folder] of folders.entries()) {
      const segment = pattern[index];
      // Ended at a folder holding the member (a folder included is all below it), or `**`.
      if (segment === undefined || segment === "**") return true;
      if (!segmentMatches(segment, folder)) return false;
    }
    return true;
  };
  const takesWhole = (pattern: string[]) =>
    pattern.length <= folders.length &&
    pattern.every((segment, index) => segment === "**" || segmentMatches(segment, folders[index]!));
  return include.map(segmentsOf).some(reachesInto) && !exclude.map(segmentsOf).some(takesWhole);
}

function segmentsOf(pattern: string): string[] {
  return pattern
    .replaceAll("\\", "/")
    .split("/")
    .filter((segment) => segment !== "" && segment !== ".");
}

/** A glob segment (`*`, `?`) against one folder name. */
function segmentMatches(segment: string, name: string): boolean {
  const source = segment
    .replace(/[.+^${}()|[\]\\]/g, "\\$&")
    .replaceAll("*", "[^/]*")
    .replaceAll("?", "[^/]");
  return new RegExp(`^${source}$`).test(name);
}
