import { basename, dirname, extname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { readLimit } from "../actions/cross-file-search.js";
import type { LanguageClient } from "../client/language-client.js";
import { canonicalPath, linkOf, throughLink, type Link } from "../files/canonical-path.js";

/** Escapes `text` for a regular expression. */
function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** Strips a TypeScript or JavaScript extension (and `/index`) from a module path. */
function modulePath(path: string): string {
  const bare = path.replace(/\.(d\.)?[cm]?[jt]sx?$/, "");
  return bare.endsWith("/index") ? bare.slice(0, -"/index".length) : bare;
}

/**
 * A test of whether a TypeScript or JavaScript file's text (at `importer`) names `written` in a
 * module specifier that `lead` (a regular expression's source) comes right before: a relative
 * one that resolves to it, or a path-like one whose last part is its name (see {@link importTest}).
 * The written file is known by its real path too: a specifier through a symlinked folder, or
 * naming the file a symlinked written file points to, names it; and by `aliases`, the symlinks
 * pointing to it (see {@link aliasesOf}).
 */
function moduleTest(
  written: string,
  lead: string,
  aliases: readonly string[],
): (text: string, importer: string) => boolean {
  const spellings = [...new Set([written, canonicalPath(written), ...aliases])];
  const targets = new Set(spellings.map(modulePath));
  const nameOf = (path: string) => {
    const stem = basename(path, extname(path));
    return stem === "index" ? basename(dirname(path)) : stem;
  };
  const lastNames = new Set(spellings.map(nameOf));
  // An index is named by its folder ("./lib"), or by itself from beside it ("./index.js").
  const names = [...new Set(spellings.flatMap((path) => [nameOf(path), basename(path, extname(path))]))];
  const pattern = new RegExp(`${lead}(["'])([^"'\\n]*(?:${names.map(literal).join("|")})[^"'\\n]*)\\1`, "g");
  return (text, importer) => {
    if (!names.some((each) => text.includes(each))) return false;
    for (const match of text.matchAll(pattern)) {
      const specifier = match[2]!;
      if (specifier.startsWith(".")) {
        const resolved = resolve(dirname(importer), specifier);
        if (targets.has(modulePath(resolved))) return true;
        // Through a symlinked folder: the folder's real path names the written file.
        const real = join(canonicalPath(dirname(resolved)), basename(resolved));
        if (real !== resolved && targets.has(modulePath(real))) return true;
      } else if (specifier.includes("/") && lastNames.has(basename(modulePath(specifier)))) {
        // An alias (`@/lib/api`): its last part names the file; a package's name alone does not.
        return true;
      }
    }
    return false;
  };
}

/**
 * A test of whether a file that imports `imported` (see {@link importTest}) passes it on, so
 * that the files importing it reach `imported` too: a TypeScript or JavaScript re-export
 * (`export * from "./core.js"`, `export { api } from "./core.js"`, a barrel's), or a C or C++
 * header that includes it (`includedExtensions` of the server). Undefined for other languages.
 */
export function passOnTest(
  spec: { readonly language: string; readonly includedExtensions?: readonly string[] },
  imported: string,
  aliases: readonly string[] = [],
): ((text: string, importer: string) => boolean) | undefined {
  if (spec.language === "typescript")
    return moduleTest(
      imported,
      "\\bexport\\s+(?:type\\s+)?(?:\\*(?:\\s*as\\s+[\\w$]+)?|\\{[^}]*\\})\\s*from\\s*",
      aliases,
    );
  if (spec.language === "c") {
    const headers = spec.includedExtensions ?? [];
    return (_text, importer) => headers.includes(extname(importer).toLowerCase());
  }
  return undefined;
}

/**
 * A test of whether a file's text (at `importer`) imports `written`, per language, by its text:
 *
 * - TypeScript and JavaScript: a relative module specifier (`from "./lib"`, `import("../lib.js")`,
 *   `require('./lib/index')`) that resolves to the written file, or a path-like one whose last
 *   part is its name (`@/lib/api` for `src/lib/api.ts`: an alias, not resolved; not a package
 *   name such as `io-ts-types` for `types.ts`).
 * - Python: `import pkg.mod`, `from pkg.mod import`, `from .mod import`, `from . import mod`,
 *   `from pkg import mod` (a package's `__init__.py` by its folder's name).
 * - C and C++: `#include "…/name.h"` or `<…/name.h>` naming the written header.
 *
 * A file is imported by the name of each of `aliases` too (the symlinks pointing to it: see
 * {@link aliasesOf}). Undefined for other languages (gopls covers files not open itself).
 */
export function importTest(
  language: string,
  written: string,
  aliases: readonly string[] = [],
): ((text: string, importer: string) => boolean) | undefined {
  if (language === "typescript")
    return moduleTest(written, "(?:from\\s*|import\\s*\\(\\s*|require\\s*\\(\\s*|import\\s+)", aliases);
  // A symlinked file is imported by its own name or by the name of the file it points to.
  const real = canonicalPath(written);
  const names = new Set([basename(written)]);
  const spellings = [written, real, ...aliases].filter((path) => {
    if (names.has(basename(path))) return path === written;
    names.add(basename(path));
    return true;
  });
  const tests = spellings.flatMap((path) => {
    const test = nameTest(language, path);
    return test ? [test] : [];
  });
  if (tests.length === 0) return undefined;
  return (text) => tests.some((test) => test(text));
}

/** {@link importTest} for the languages whose imports name a file by its name alone (Python, C and C++). */
function nameTest(language: string, written: string): ((text: string) => boolean) | undefined {
  const extension = extname(written);
  const stem = basename(written, extension);
  if (language === "python") {
    const name = literal(stem === "__init__" ? basename(dirname(written)) : stem);
    // Python names are Unicode (`café`, `मान`): `\w` and `\b` know only ASCII.
    const part = String.raw`[\p{ID_Continue}.]`;
    const start = String.raw`(?<![\p{ID_Continue}])`;
    const end = String.raw`(?![\p{ID_Continue}])`;
    const pattern = new RegExp(
      `^[ \\t]*(?:from[ \\t]+${part}*${start}${name}[ \\t]+import\\b|import[ \\t]+(?:${part}|[, \\t])*${start}${name}${end}|from[ \\t]+${part}+[ \\t]+import[ \\t(]+[^\\n]*${start}${name}${end})`,
      "mu",
    );
    return (text) =>
      text.includes(stem === "__init__" ? basename(dirname(written)) : stem) && pattern.test(text);
  }
  if (language === "c") {
    const name = literal(basename(written));
    const pattern = new RegExp(`^[ \\t]*#[ \\t]*include[ \\t]*["<](?:[^">\\n]*/)?${name}[">]`, "m");
    return (text) => text.includes(basename(written)) && pattern.test(text);
  }
  return undefined;
}

/**
 * The files of `client`'s root, of its languages, that import `written` (see {@link importTest})
 * and are not open on it, at most `limit` (in path order). Reads through the client's cache of
 * the root's texts, one `stat` per file, the first time; after that only the files changed on
 * disk since (as the folder watch says) are read and tested again, or all of them when that is
 * not known (the watch's record is bounded). One call reads at most `options.readBudget` files
 * it has not read yet: a larger root's scan goes on where it stopped at the next call, until
 * every file was read once.
 */
export async function importersOf(
  client: ImporterSource,
  written: string,
  limit: number,
  options: ScanOptions = {},
): Promise<string[]> {
  if (limit <= 0) return [];
  return (await scanImporters(client, written, options))
    .filter((file) => !client.isOpen(pathToFileURL(file).href))
    .slice(0, limit);
}

/** How {@link importersOf} reads the root. */
interface ScanOptions {
  /** Most files not read yet read by this call; default {@link readLimit}. */
  readonly readBudget?: number;
  /** Files whose disk events are not told to the server now (other writes': see `rootFiles`). */
  readonly heldBack?: ReadonlySet<string>;
}

/** Most levels of re-exports or includes {@link dependantsOf} follows past the direct importers. */
export const passOnDepth = 3;

/** What {@link dependantsOf} found. */
export interface Dependants {
  /** The files not open, direct importers first, then each level through re-exports or includes. */
  readonly files: string[];
  /** Set when a bound left files out: which one, as a phrase ("the 10-file bound"). */
  readonly cut?: string;
}

/**
 * The files of `client`'s root not open on it that reach one of `written` (see
 * {@link importersOf}): those importing it, then those importing a file that passes it on (see
 * {@link passOnTest}: a barrel's re-export, a header's include), and so on, at most
 * {@link passOnDepth} levels past the direct importers and `limit` files. An open file is not
 * listed (its server checks it) but is followed. `cut` says which bound left files out.
 */
export async function dependantsOf(
  client: ImporterSource,
  written: readonly string[],
  limit: number,
  options: ScanOptions = {},
): Promise<Dependants> {
  const files: string[] = [];
  // One file, however it is reached (a symlinked file and the file it points to): by real path.
  const seen = new Set(written.map((file) => canonicalPath(file)));
  // A file written through a symlinked folder: its importers there are named through it too,
  // as the server knows them (it was sent the written file by that path).
  const links = written.flatMap((file) => linkOf(file) ?? []);
  let cut: string | undefined;
  let level = [...written];
  // A language without an import test (Rust, Dart: their servers check the files not open):
  // nothing to scan, and its root's files not listed for nothing.
  if (!written.some((file) => importTest(client.spec.language, file))) return { files: [] };
  const rootLinks = (await client.rootFiles(options.heldBack)).links;
  for (let depth = 0; level.length > 0 && cut === undefined; depth++) {
    const next: string[] = [];
    for (const imported of level) {
      const passesOn = passOnTest(client.spec, imported, aliasesOf(rootLinks, imported));
      for (const found of await scanImporters(client, imported, options)) {
        const real = canonicalPath(found);
        if (seen.has(real)) continue;
        seen.add(real);
        const importer = reachedAs(found, real, links);
        if (!client.isOpen(pathToFileURL(importer).href)) {
          if (files.length >= limit) {
            cut = `the ${limit}-file bound`;
            break;
          }
          files.push(importer);
        }
        const text = passesOn && client.rootText(importer);
        if (text && passesOn(text, importer)) next.push(importer);
      }
      if (cut !== undefined) break;
    }
    if (depth >= passOnDepth) {
      // The level past the bound is cut only if it has an importer not listed: a header
      // included by nothing else (any C header passes its includes on) left nothing out.
      if (next.length > 0 && (await someImporterBeyond(client, next, seen, options)))
        cut ??= `the bound of ${passOnDepth} levels of re-exports or includes`;
      break;
    }
    level = next;
  }
  return { files, ...(cut !== undefined ? { cut } : {}) };
}

/** Whether a file of the root imports one of `files` and is not in `seen` (real paths). */
async function someImporterBeyond(
  client: ImporterSource,
  files: readonly string[],
  seen: ReadonlySet<string>,
  options: ScanOptions,
): Promise<boolean> {
  for (const file of files)
    for (const found of await scanImporters(client, file, options))
      if (!seen.has(canonicalPath(found))) return true;
  return false;
}

/**
 * `found` (a file of the root, `real` its real path) as reached through the first of `links`
 * whose real folder holds it; as found otherwise.
 */
function reachedAs(found: string, real: string, links: readonly Link[]): string {
  const through = throughLink(real, links);
  return through === real ? found : through;
}

/**
 * The symlinks among `links` (the root's: see `rootFiles`) that point to `written`'s file,
 * other than `written` itself: a module imported by a link's own name (`./alias` for a link
 * `alias.ts` → `lib.ts`) is that file.
 */
export function aliasesOf(links: ReadonlySet<string>, written: string): string[] {
  if (links.size === 0) return [];
  const real = canonicalPath(written);
  return [...links].filter((link) => link !== written && canonicalPath(link) === real).sort();
}

/** Every file of the root importing `written` (open or not), in path order; see {@link importersOf}. */
async function scanImporters(
  client: ImporterSource,
  written: string,
  options: ScanOptions,
): Promise<string[]> {
  const readBudget = options.readBudget ?? readLimit;
  const root = await client.rootFiles(options.heldBack);
  const aliases = aliasesOf(root.links, written);
  const test = importTest(client.spec.language, written, aliases);
  if (!test) return [];
  const known = found.get(client) ?? new Map<string, Scan>();
  found.set(client, known);
  // Known by its real path: written through a symlink or not, one file with one scan.
  const real = canonicalPath(written);
  const same = new Set([written, real, ...aliases]);
  const ofLanguage = (file: string) =>
    !same.has(file) && client.spec.extensions.includes(extname(file).toLowerCase());
  const imports = (file: string) => {
    const text = client.rootText(file);
    return text !== undefined && test(text, file);
  };
  const mark = client.diskChangeMark();
  // Found under other names than now (a link made or removed since): every file is read again.
  const names = aliases.join("\n");
  const kept = known.get(real);
  const entry = kept?.names === names ? kept : undefined;
  const changed = entry && client.diskChangesSince(entry.mark);
  let importers: Set<string>;
  let scanned: Set<string> | undefined;
  if (entry && changed) {
    ({ importers, scanned } = entry);
    for (const file of changed) {
      if (!ofLanguage(file)) continue;
      if (root.files.has(file) && imports(file)) importers.add(file);
      else importers.delete(file);
      scanned?.add(file);
    }
  } else if (entry?.scanned) {
    // What changed since is not known, and the scan was cut: the files it read are tested again
    // (read again only where changed: one `stat` each), and it goes on where it stopped.
    importers = new Set<string>();
    scanned = entry.scanned;
    let tested = 0;
    for (const file of Array.from(scanned)) {
      if (++tested % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
      if (root.files.has(file) && imports(file)) importers.add(file);
      else if (!root.files.has(file)) scanned.delete(file);
    }
  } else {
    importers = new Set<string>();
    scanned = new Set<string>();
  }
  let complete = scanned === undefined;
  if (scanned) {
    complete = true;
    let read = 0;
    // A copy: the watch's set changes while the scan yields (every 100 files read, so that a
    // write's bound can end its wait for a first scan of a large root).
    for (const file of Array.from(root.files)) {
      if (!ofLanguage(file) || scanned.has(file)) continue;
      if (read++ >= readBudget) {
        complete = false;
        break;
      }
      if (read % 100 === 0) await new Promise((resolve) => setImmediate(resolve));
      scanned.add(file);
      if (imports(file)) importers.add(file);
    }
  }
  known.set(real, { mark, names, importers, ...(complete ? {} : { scanned }) });
  return [...importers].sort();
}

/** What {@link importersOf} reads of a language client. */
export type ImporterSource = Pick<
  LanguageClient,
  "spec" | "rootFiles" | "rootText" | "diskChangeMark" | "diskChangesSince" | "isOpen"
>;

/** The importers of one written file as last found. */
interface Scan {
  /** The disk-change mark they were found at. */
  readonly mark: number;
  /** The written file's {@link aliasesOf} they were found for, one a line. */
  readonly names: string;
  readonly importers: Set<string>;
  /** While the root was not read whole yet: the files read (see `readBudget`). */
  readonly scanned?: Set<string>;
}

/** Per server, per written file, its importers as last found. */
const found = new WeakMap<ImporterSource, Map<string, Scan>>();
