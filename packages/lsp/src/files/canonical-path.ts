import { lstatSync, realpathSync } from "node:fs";
import { basename, dirname, join, sep } from "node:path";

/** Most real paths remembered within one turn (see {@link canonicalPath}); cleared whole when full. */
const remembered = 8_192;

/** Path → its real path, for those that resolved in this turn of the event loop. */
const reals = new Map<string, string>();

/** Whether the clearing of {@link reals} at the end of this turn is scheduled. */
let clearing = false;

/**
 * The one name of a file however it is reached: its real path (symlinked folders and a
 * symlinked file resolved), so that a file reached through a symlink is one file, not two, for
 * its server, the importer scan and the diagnostics ledger. A path that does not exist (a file
 * about to be written, or deleted) is its folder's real path and its own name. Remembered only
 * until the event loop's turn ends (a loop over a project's files asks the same paths many
 * times): a folder or file made a symlink, a link pointing elsewhere or one removed later (by a
 * package manager linking a workspace package, a build) is seen by the next call. Checking a
 * remembered answer would take a look at each part of the path, what resolving it takes.
 */
export function canonicalPath(path: string): string {
  const known = reals.get(path);
  if (known !== undefined) return known;
  let real: string;
  try {
    real = realpathSync.native(path);
  } catch {
    // Missing (or unreadable): not remembered, it may appear; its folder may resolve.
    const folder = dirname(path);
    return folder === path ? path : join(canonicalPath(folder), basename(path));
  }
  if (reals.size >= remembered) reals.clear();
  reals.set(path, real);
  if (!clearing) {
    clearing = true;
    setImmediate(() => {
      clearing = false;
      reals.clear();
    }).unref();
  }
  return real;
}

/** `paths` without the later ones naming a file named before (through a symlink), in order. */
export function oneSpellingEach(paths: Iterable<string>): string[] {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const path of paths) {
    const real = canonicalPath(path);
    if (seen.has(real)) continue;
    seen.add(real);
    kept.push(path);
  }
  return kept;
}

/**
 * The symlink `used` goes through to reach its real path: the deepest of `used` and its folders
 * that is a symlink (its path as used, and its real path); undefined when none is. Found on the
 * disk, not guessed from names: a link named like its target (`proj -> vendor/proj`) is the link.
 */
export function linkOf(used: string): Link | undefined {
  for (let through = used; ; through = dirname(through)) {
    if (isSymlink(through)) {
      try {
        return { to: realpathSync.native(through), through };
      } catch {
        return undefined; // A dangling link: nothing reached through it.
      }
    }
    if (dirname(through) === through) return undefined;
  }
}

/** Whether `path` is itself a symlink (false when missing or unreadable). */
function isSymlink(path: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink();
  } catch {
    return false;
  }
}

/** A symlink gone through: `through` (the link's path) names `to` (its real path). */
export interface Link {
  readonly to: string;
  readonly through: string;
}

/** `real` as reached through the first of `links` it lies under (itself when none). */
export function throughLink(real: string, links: readonly Link[]): string {
  for (const { to, through } of links) {
    if (real === to) return through;
    if (real.startsWith(`${to}${sep}`)) return `${through}${real.slice(to.length)}`;
  }
  return real;
}
