import { basename } from "node:path";

/** Most files of the root one {@link includeReach} test reads; past it, every text counts as reaching. */
export const includeReadLimit = 5_000;

/** One `#include` (or `#include_next`, `#import`) directive per match: the named file, or a macro. */
const directive =
  /^[ \t]*#[ \t]*(?:include|include_next|import)\b[ \t]*(?:"([^"\n]*)"|<([^>\n]*)>|(\S.*))?$/gm;

/**
 * The names (last path part) of the files `text` includes, by its `#include` directives; undefined
 * when one names its file through a macro (`#include HEADER`), which could be any file.
 */
export function includedNames(text: string): string[] | undefined {
  if (!text.includes("#")) return [];
  // A directive may be split over lines by a backslash at a line's end.
  const joined = text.includes("\\") ? text.replace(/\\\r?\n/g, "") : text;
  if (!/#[ \t]*(?:include|import)/.test(joined)) return [];
  const names: string[] = [];
  for (const match of joined.matchAll(directive)) {
    const named = match[1] ?? match[2];
    if (named === undefined) return undefined;
    names.push(named.slice(named.lastIndexOf("/") + 1));
  }
  return names;
}

/** What {@link includeReach} reads of the root. */
export interface IncludeRoot {
  /** Every file under the root (as the folder watch knows them). */
  readonly files: Iterable<string>;
  /** A file's text on disk (and, when open, the one sent too); undefined when unreadable. */
  texts(path: string): (string | undefined)[];
}

/**
 * A test of whether a text (a document open on clangd) includes, directly or through the root's
 * other files, one of `changed` (files that changed): by name, as `#include "…/name.h"` names a
 * file (a file of another folder with the same name counts too: more is sent again, never less).
 * A directive naming its file through a macro, a file of the root that cannot be read, and a
 * root of more than {@link includeReadLimit} files to read count as reaching. A name no file of
 * the root has (a system header) reaches nothing: a file outside the root is taken to include
 * none of it.
 */
export function includeReach(changed: readonly string[], root: IncludeRoot): (text: string) => boolean {
  const changedNames = new Set(changed.map((path) => basename(path)));
  let byName: Map<string, string[]> | undefined;
  const filesNamed = (name: string): string[] => {
    if (!byName) {
      byName = new Map();
      for (const file of root.files) {
        const each = basename(file);
        const list = byName.get(each);
        if (list) list.push(file);
        else byName.set(each, [file]);
      }
    }
    return byName.get(name) ?? [];
  };
  /** Per name: whether a file so named reaches a changed one; `following` while being followed. */
  const known = new Map<string, boolean | "following">();
  /** Set when an answer of false rests on a name still being followed (a cycle): it is not kept. */
  let partial = false;
  let read = 0;
  const reaches = (names: readonly string[] | undefined): boolean => {
    if (names === undefined) return true;
    for (const name of names) if (nameReaches(name)) return true;
    return false;
  };
  const nameReaches = (name: string): boolean => {
    if (changedNames.has(name)) return true;
    const seen = known.get(name);
    if (seen === "following") {
      // Headers including each other: this one reaches through its other includes, or not.
      partial = true;
      return false;
    }
    if (seen !== undefined) return seen;
    known.set(name, "following");
    const outer = partial;
    partial = false;
    let found = false;
    for (const file of filesNamed(name)) {
      if (++read > includeReadLimit) {
        found = true;
        break;
      }
      if (root.texts(file).some((text) => text === undefined || reaches(includedNames(text)))) {
        found = true;
        break;
      }
    }
    // False only for now while a name it reached was still being followed: asked again later.
    if (found || !partial) known.set(name, found);
    else known.delete(name);
    partial ||= outer;
    return found;
  };
  return (text) => reaches(includedNames(text));
}
