import { basename } from "node:path";

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
const computed = new RegExp(String.raw`^(?:\uFEFF|[ \t\f\v]|/\*.*?\*/)*${hash}\b[ \t\f\v]*[A-Za-z_/]`, "m");

/** A backslash ending a line (spaces may follow it) joins it with the next. */
const continuation = /\\[ \t\f\v]*(?:\r\n|\r|\n)/g;

/**
 * The names (last path part) of the files `text` includes, by its `#include` directives; undefined
 * when one names its file through a macro (`#include HEADER`), which could be any file.
 */
export function includedNames(text: string): string[] | undefined {
  return includedPaths(text)?.map((path) => path.slice(path.lastIndexOf("/") + 1));
}

/**
 * The files `text` includes as its `#include` directives write them (`sys/a.h`); undefined when
 * one names its file through a macro.
 */
export function includedPaths(text: string): string[] | undefined {
  if (!text.includes("#") && !text.includes("%:")) return [];
  // A directive may be split over lines by a backslash at a line's end.
  const joined = text.includes("\\") ? text.replace(continuation, "") : text;
  if (!/(?:#|%:)[ \t\f\v]*(?:include|import)/.test(joined)) return [];
  if (computed.test(joined)) return undefined;
  return [...joined.matchAll(named)].map((match) => (match[1] ?? match[2])!);
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
