import { realpathSync } from "node:fs";
import { basename, dirname, join, sep } from "node:path";

/** Most real paths remembered (see {@link canonicalPath}); cleared whole when full. */
const remembered = 8_192;

/** Path → its real path, for those that resolved. */
const reals = new Map<string, string>();

/**
 * The one name of a file however it is reached: its real path (symlinked folders and a
 * symlinked file resolved), so that a file reached through a symlink is one file, not two, for
 * its server, the importer scan and the diagnostics ledger. A path that does not exist (a file
 * about to be written, or deleted) is its folder's real path and its own name. Remembered (at
 * most {@link remembered}, cleared whole when full): a symlink made to point elsewhere during a
 * run is not noticed for a path already resolved.
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
 * The symlink `used` goes through to reach `real` (its {@link canonicalPath}): the folder (or
 * file) where the two paths part, after the names they end with alike; undefined when `used` is
 * the real path.
 */
export function linkOf(used: string, real: string = canonicalPath(used)): Link | undefined {
  let to = real;
  let through = used;
  while (basename(to) === basename(through) && dirname(to) !== to && dirname(through) !== through) {
    to = dirname(to);
    through = dirname(through);
  }
  return to === through ? undefined : { to, through };
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
