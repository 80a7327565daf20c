import { basename, dirname, isAbsolute, resolve } from "node:path";
import { listingOf, type FolderListing } from "../files/file-texts.js";

/** Most files of the root one {@link includeReach} test reads; past it, every text counts as reaching. */
export const includeReadLimit = 5_000;

/** Starts a directive: `#`, or its digraph `%:`. */
const hash = String.raw`(?:#|%:)[ \t\f\v]*(?:include|include_next|import)`;

/**
 * An `#include` (or `#include_next`, `#import`) naming its file, wherever on its line: after a
 * byte order mark or a comment (`/* … *\/ #include "a.h"` is a directive too), and followed by
 * anything (a comment, spaces). One in a comment or a string counts as well: more is sent again.
 */
const named = new RegExp(String.raw`${hash}[ \t\f\v]*(?:"([^"\r\n]*)"|<([^>\r\n]*)>)`, "g");

/**
 * A directive at a line's start naming its file by a macro (`#include HEADER`) or after a
 * comment (`#include /* … *\/ "a.h"`): what follows `include` starts a name or a comment.
 */
const computed = new RegExp(
  // A comment cannot hold `*/`: each way to read the line is one (no backtracking through the
  // ways to split `/**/ /**/ …` into comments, exponential in their count).
  String.raw`^(?:\uFEFF|[ \t\f\v]|/\*(?:[^*\r\n]|\*(?!/))*\*/)*${hash}\b[ \t\f\v]*[A-Za-z_/]`,
  "m",
);

/** A backslash ending a line (spaces may follow it) joins it with the next. */
const continuation = /\\[ \t\f\v]*(?:\r\n|\r|\n)/g;

/**
 * The files `text` includes as its `#include` directives write them (`sys/a.h`); undefined when
 * one names its file through a macro.
 */
export function includedPaths(text: string): string[] | undefined {
  const { paths, byMacro } = directivesIn(text);
  return byMacro ? undefined : [...paths];
}

/** What the `#include` directives of a text name (see {@link directivesIn}). */
export interface Directives {
  /** The files included as the directives write them (`sys/a.h`), each once. */
  readonly paths: readonly string[];
  /** Those of {@link paths} written only between `<` and `>` (searched for in include folders only). */
  readonly angled: ReadonlySet<string>;
  /** Whether one names its file through a macro (its file then unknown, not among {@link paths}). */
  readonly byMacro: boolean;
}

/** Nothing included. */
const none: Directives = { paths: [], angled: new Set(), byMacro: false };

/** What the `#include` directives of `text` name: see {@link Directives}. */
export function directivesIn(text: string): Directives {
  if (!text.includes("#") && !text.includes("%:")) return none;
  // A directive may be split over lines by a backslash at a line's end.
  const joined = text.includes("\\") ? text.replace(continuation, "") : text;
  // A comment is a space to the preprocessor: `# /* … */ include "a.h"`, or a directive on the
  // line a comment of several lines ends on, is one too. Read both with and without comments
  // (a `/*` in a string is no comment): a directive either reading shows counts.
  const paths = new Set<string>();
  const quoted = new Set<string>();
  let byMacro = false;
  for (const each of joined.includes("/*") ? [joined, withoutComments(joined)] : [joined]) {
    if (!/(?:#|%:)[ \t\f\v]*(?:include|import)/.test(each)) continue;
    if (computed.test(each)) byMacro = true;
    for (const match of each.matchAll(named)) {
      paths.add((match[1] ?? match[2])!);
      if (match[1] !== undefined) quoted.add(match[1]);
    }
  }
  if (paths.size === 0 && !byMacro) return none;
  const angled = new Set([...paths].filter((path) => !quoted.has(path)));
  return { paths: [...paths], angled, byMacro };
}

/** `text` with each block comment (`/* … *\/`, or an unclosed one to the end) made a space. */
function withoutComments(text: string): string {
  let out = "";
  let from = 0;
  for (let start = text.indexOf("/*"); start !== -1; start = text.indexOf("/*", from)) {
    const end = text.indexOf("*/", start + 2);
    out += `${text.slice(from, start)} `;
    from = end === -1 ? text.length : end + 2;
  }
  return out + text.slice(from);
}

/** What {@link includeReach} reads of the root. */
export interface IncludeRoot {
  /** Every file under the root (as the folder watch knows them). */
  readonly files: Iterable<string>;
  /** A file's text on disk (and, when open, the one sent too); undefined when unreadable. */
  texts(path: string): (string | undefined)[];
  /**
   * What each of {@link texts} includes ({@link directivesIn}), kept between walks while the file
   * is unchanged on disk; without it, each text is read and scanned at every walk.
   */
  directives?(path: string): (Directives | undefined)[];
  /**
   * The folders the compile flags search for included files (`-I`, `-isystem`, `-iquote`,
   * `-idirafter`), absolute: a file found there that the folder watch does not list (outside the
   * root, or in a folder it skips) is read too.
   */
  readonly includeDirs?: readonly string[];
  /**
   * The compiler's own include folders (`/usr/include`, the C++ library's), searched for a
   * `<…>` include after {@link includeDirs}: a name written so that one of them holds and no
   * include folder does is a system header, whatever the root's files of that name (a build's
   * executable named `vector`). Needs {@link entriesOf} or {@link listingOf}.
   */
  readonly systemFolders?: readonly string[];
  /** Whether a regular file is at `path`; without it, files the watch does not list are not read. */
  isFile?(path: string): boolean;
  /**
   * The names of the entries of `folder` (empty when there is none), looked in before
   * {@link isFile} is asked: one listing per folder, where a stat per folder and name tried cost
   * seconds (2 000 headers, 500 include folders); undefined when it cannot be listed.
   */
  entriesOf?(folder: string): readonly string[] | undefined;
  /**
   * What `folder` holds, as {@link entriesOf} tells and which entries are regular files (taken
   * as files without {@link isFile}, and as their own real names without {@link realPath});
   * used instead of {@link entriesOf} when given.
   */
  listingOf?(folder: string): FolderListing | undefined;
  /**
   * The real path of a file the watch does not list (a symlink in an include folder outside the
   * root may lead to a root file of another name, changed under that name), or of a path ending
   * in `..` (where `sub/../a.h` leads when `sub` is a symlink).
   */
  realPath?(path: string): string;
}

/**
 * Lookups into a root for a walk of what files include: the listed files of a name, the files
 * not listed that a directive may name from the including file's folder or an include folder,
 * the name a file not listed is included by, whether a `<…>` directive names a system header,
 * and what a file includes.
 */
function rootIndex(root: IncludeRoot): {
  filesNamed: (name: string) => string[];
  unlisted: (written: string, from: string | undefined) => string[];
  realName: (file: string) => string;
  systemHeader: (written: string) => boolean;
  directivesOf: (file: string) => (Directives | undefined)[];
} {
  const listed = new Set(root.files);
  let byName: Map<string, string[]> | undefined;
  const filesNamed = (name: string): string[] => {
    if (!byName) {
      byName = new Map();
      for (const file of listed) {
        const each = basename(file);
        const list = byName.get(each);
        if (list) list.push(file);
        else byName.set(each, [file]);
      }
    }
    return byName.get(name) ?? [];
  };
  const isFile = new Map<string, boolean>();
  const listable = root.listingOf !== undefined || root.entriesOf !== undefined;
  /** Per folder, listed once a walk: what it holds; undefined when it cannot be listed. */
  const folders = new Map<string, FolderListing | undefined>();
  const listing = (folder: string): FolderListing | undefined => {
    if (folders.has(folder)) return folders.get(folder);
    let found: FolderListing | undefined;
    if (root.listingOf) found = root.listingOf(folder);
    else {
      const names = root.entriesOf?.(folder);
      found = names && listingOf(names);
    }
    folders.set(folder, found);
    return found;
  };
  /** Whether `path` may be a file: its folder lists its name (in any case: a folder may ignore it), or cannot be listed. */
  const mayBeFile = (path: string): boolean => {
    if (!listable) return true;
    const entries = listing(folderOf(path));
    if (!entries) return true;
    const name = nameOf(path);
    return entries.names.has(name) || entries.lower.has(name.toLowerCase());
  };
  /** Whether its folder's listing shows `path` a regular file (not a symlink). */
  const regular = (path: string): boolean =>
    root.listingOf !== undefined && listing(folderOf(path))?.regular.has(nameOf(path)) === true;
  /** The name `file` (not listed) is included by: its real path's (a symlink's target's). */
  const realName = (file: string): string =>
    !root.realPath || regular(file) ? nameOf(file) : basename(root.realPath(file));
  /**
   * The path `written` names from `folder`. A `..` goes up from where the part before it leads,
   * as the system opens `sub/../a.h` (the compiler does not tidy it up first): out of a symlinked
   * `sub`, into the folder holding the one it leads to, not back to `folder`. The tidied path when
   * both are in one folder (a symlinked root's files keep the names the watch lists).
   */
  const at = (folder: string, written: string): string => {
    if (plain(written)) return folder === "/" ? `/${written}` : `${folder}/${written}`;
    const tidied = resolve(folder, written);
    const parts = written.split("/");
    const up = parts.lastIndexOf("..");
    if (!root.realPath || up === -1) return tidied;
    const before = parts.slice(0, up + 1).join("/");
    const opened = resolve(
      root.realPath(isAbsolute(written) ? before : `${folder}/${before}`),
      ...parts.slice(up + 1),
    );
    return root.realPath(dirname(tidied)) === root.realPath(dirname(opened)) ? tidied : opened;
  };
  /** The files not listed that `written`, included from the file at `from`, may be. */
  const unlisted = (written: string, from: string | undefined): string[] => {
    if (!root.isFile) return [];
    if (isAbsolute(written)) return existing([at("/", written)]);
    const inFolders = fromIncludeDirs(written);
    if (from === undefined) return inFolders;
    const beside = existing([at(folderOf(from), written)]);
    return beside.length === 0 || inFolders.includes(beside[0]!) ? inFolders : [...beside, ...inFolders];
  };
  /** Those of `candidates` that are files the watch does not list. */
  const existing = (candidates: string[]): string[] =>
    candidates.filter((candidate) => {
      if (listed.has(candidate)) return false;
      let found = isFile.get(candidate);
      if (found === undefined)
        isFile.set(
          candidate,
          (found = regular(candidate) || (mayBeFile(candidate) && root.isFile!(candidate))),
        );
      return found;
    });
  /** Per written path: the files not listed it names in the include folders. */
  const inIncludeDirs = new Map<string, string[]>();
  const fromIncludeDirs = (written: string): string[] => {
    let found = inIncludeDirs.get(written);
    if (found === undefined) {
      found = existing(includeDirsFor(written).map((folder) => at(folder, written)));
      inIncludeDirs.set(written, found);
    }
    return found;
  };
  /**
   * Per first part of a written path (`sys` of `sys/a.h`, in lower case): the include folders
   * having an entry so named; and the include folders that cannot be listed.
   */
  let byFirstPart: Map<string, string[]> | undefined;
  const unlistable: string[] = [];
  /** The include folders where `written` may name a file (each of them, for one starting with `.` or `..`). */
  const includeDirsFor = (written: string): readonly string[] => {
    const all = root.includeDirs ?? [];
    const first = firstPart(written);
    if (!listable || first === "." || first === ".." || first === "") return all;
    if (!byFirstPart) {
      byFirstPart = new Map();
      for (const folder of new Set(all)) {
        const entries = listing(folder);
        if (entries === undefined) {
          unlistable.push(folder);
          continue;
        }
        for (const name of entries.lower) {
          const folders = byFirstPart.get(name);
          if (folders) folders.push(folder);
          else byFirstPart.set(name, [folder]);
        }
      }
    }
    const found = byFirstPart.get(first.toLowerCase()) ?? [];
    return unlistable.length === 0 ? found : [...found, ...unlistable];
  };
  /** Per written path: whether a `<…>` directive writing it names a system header. */
  const system = new Map<string, boolean>();
  const systemHeader = (written: string): boolean => {
    const folders = root.systemFolders;
    if (!folders || folders.length === 0 || !listable) return false;
    let found = system.get(written);
    if (found !== undefined) return found;
    const first = firstPart(written);
    found =
      !isAbsolute(written) &&
      first !== "." &&
      first !== ".." &&
      folders.some((folder) => {
        // Its first part first: the folders a written path goes through are listed only where they are.
        if (listing(folder)?.names.has(first) !== true) return false;
        const path = resolve(folder, written);
        return first === written || listing(dirname(path))?.names.has(basename(path)) === true;
      }) &&
      // An include folder holding it (searched first: its file is the one opened), or that
      // cannot be listed, leaves it as other names are.
      !includeDirsFor(written).some((folder) => {
        const path = at(folder, written);
        return listed.has(path) || mayBeFile(path);
      });
    system.set(written, found);
    return found;
  };
  const directivesOf = (file: string): (Directives | undefined)[] =>
    root.directives
      ? root.directives(file)
      : root.texts(file).map((text) => (text === undefined ? undefined : directivesIn(text)));
  return { filesNamed, unlisted, realName, systemHeader, directivesOf };
}

/** The folder of an absolute, tidy `path` (as `dirname`, without its checks: once per file and directive of a walk). */
function folderOf(path: string): string {
  const slash = path.lastIndexOf("/");
  return slash <= 0 ? "/" : path.slice(0, slash);
}

/** The name of an absolute, tidy `path` (as `basename`). */
function nameOf(path: string): string {
  return path.slice(path.lastIndexOf("/") + 1);
}

/** Whether a written path has no part that `resolve` would tidy (`.`, `..`, an empty one). */
const plain = (written: string): boolean =>
  !written.startsWith("/") &&
  !written.endsWith("/") &&
  !written.includes("//") &&
  !/(?:^|\/)\.\.?(?:\/|$)/.test(written);

/** The first part of a written path: `sys` of `sys/a.h`, `a.h` of `a.h`. */
function firstPart(written: string): string {
  const slash = written.indexOf("/");
  return slash === -1 ? written : written.slice(0, slash);
}

/**
 * A test of whether a text (a document open on clangd, at `path`) includes, directly or through
 * other files, one of `changed` (files that changed): by name, as `#include "…/name.h"` names a
 * file (a file of the root in another folder with the same name counts too: more is sent again,
 * never less). A file the watch does not list is followed too when the directive's path leads
 * to it, from the including file's folder or one of `root.includeDirs` (a header of a library
 * beside the root including the root's configuration header). A directive naming its file
 * through a macro, a file that cannot be read, and more than {@link includeReadLimit} files to
 * read count as reaching. A name found neither way (a system header) reaches nothing: the
 * compiler's own folders are taken to include none of the root's files; nor does a `<…>` name
 * that one of `root.systemFolders` holds and no include folder does, whatever root files share it.
 */
export function includeReach(
  changed: readonly string[],
  root: IncludeRoot,
): (text: string, path?: string) => boolean {
  const changedNames = new Set(changed.map((path) => basename(path)));
  const { filesNamed, unlisted, realName, systemHeader, directivesOf } = rootIndex(root);
  /**
   * Per name (`name:` key: the listed files so named) or unlisted file (`path:` key): those known
   * to reach a changed file, and those known not to.
   */
  const reaching = new Set<string>();
  const notReaching = new Set<string>();
  let read = 0;
  /**
   * The keys of what a text (of the file at `from`) includes, as `found` tells, each passed to
   * `next`; true when one reaches a changed file for sure (it names one, names its file through a
   * macro, or is known to).
   */
  const includes = (found: Directives, from: string | undefined, next: (key: string) => void): boolean => {
    if (found.byMacro) return true;
    for (const written of found.paths) {
      if (found.angled.has(written) && systemHeader(written)) continue;
      const name = written.slice(written.lastIndexOf("/") + 1);
      if (changedNames.has(name)) return true;
      const outside = unlisted(written, from);
      if (root.realPath && outside.some((file) => changedNames.has(realName(file)))) return true;
      const keys = [`name:${name}`, ...outside.map((file) => `path:${file}`)];
      for (const key of keys) {
        if (reaching.has(key)) return true;
        if (!notReaching.has(key)) next(key);
      }
    }
    return false;
  };
  /**
   * Whether a text reaches a changed file: a walk of everything it includes, without recursion
   * (a chain of headers may be long) and reading each file once. Headers including each other
   * are walked once: when nothing reached reaches a changed file, none of it does (the answer
   * kept for the next text); when one does, so do those it was reached through.
   */
  const reaches = (text: string, from: string | undefined): boolean => {
    /** Per key reached: the key it was reached from (undefined: from the text). */
    const via = new Map<string, string | undefined>();
    const queue: string[] = [];
    let current: string | undefined;
    const next = (key: string): void => {
      if (via.has(key)) return;
      via.set(key, current);
      queue.push(key);
    };
    const found = (): true => {
      for (let key = current; key !== undefined; key = via.get(key)) reaching.add(key);
      return true;
    };
    if (includes(directivesIn(text), from, next)) return true;
    while ((current = queue.pop()) !== undefined) {
      const files = current.startsWith("name:") ? filesNamed(current.slice(5)) : [current.slice(5)];
      for (const file of files) {
        if (++read > includeReadLimit) return found();
        for (const each of directivesOf(file))
          if (each === undefined || includes(each, file, next)) return found();
      }
    }
    for (const key of via.keys()) notReaching.add(key);
    return false;
  };
  return (text, path) => reaches(text, path);
}

/**
 * The names (`table.def`) of the files that `texts` (open documents: their text and path) include
 * by an `#include` directive naming its file, directly or through other files, followed as
 * {@link includeReach} follows them (by name among the root's files, or by the directive's path
 * to a file the watch does not list). Unlike {@link includeReach}, what cannot be told counts as
 * including nothing: a directive naming its file through a macro, a file that cannot be read.
 * Reads at most {@link includeReadLimit} files: the names found by then.
 */
export function includedNames(
  texts: Iterable<{ text: string; path: string }>,
  root: IncludeRoot,
): Set<string> {
  const { filesNamed, unlisted, realName, systemHeader, directivesOf } = rootIndex(root);
  const names = new Set<string>();
  /** The names (`name:` keys) and unlisted files (`path:` keys) already walked or queued. */
  const seen = new Set<string>();
  const queue: { found: Directives; path: string }[] = [...texts].map(({ text, path }) => ({
    found: directivesIn(text),
    path,
  }));
  let read = 0;
  for (let next = queue.pop(); next !== undefined; next = queue.pop()) {
    for (const written of next.found.paths) {
      if (next.found.angled.has(written) && systemHeader(written)) continue;
      const name = written.slice(written.lastIndexOf("/") + 1);
      names.add(name);
      const outside = unlisted(written, next.path).filter(
        (file) => !seen.has(`path:${file}`) && seen.add(`path:${file}`),
      );
      // A symlink the watch does not list: the file it leads to is included too, by its name.
      if (root.realPath) for (const file of outside) names.add(realName(file));
      const files = [
        ...(seen.has(`name:${name}`) ? [] : (seen.add(`name:${name}`), filesNamed(name))),
        ...outside,
      ];
      for (const file of files) {
        if (++read > includeReadLimit) return names;
        for (const found of directivesOf(file)) if (found !== undefined) queue.push({ found, path: file });
      }
    }
  }
  return names;
}
