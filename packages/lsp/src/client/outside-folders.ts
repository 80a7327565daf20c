import { readdirSync, watch, type FSWatcher } from "node:fs";
import { basename, join } from "node:path";
import { isFolder, isRealFolder } from "../files/is-folder.js";

/** Most folders outside the root watched per server (see {@link OutsideFolders}). */
export const outsideFoldersLimit = 500;

/**
 * What to say when `count` folders outside the root (`root`, shown) that `command`'s projects read
 * are not watched (see {@link OutsideFolders.unwatched}): in `status`, and once in an answer.
 */
export function outsideUnwatchedText(count: number, command: string, root: string): string {
  return `${count} folder${count === 1 ? "" : "s"} outside ${root} that ${command}'s projects read ${
    count === 1 ? "is" : "are"
  } not watched (past the bound of ${outsideFoldersLimit}): a change there (a checkout) is left to ${command}'s own watch, and what it says of ${
    count === 1 ? "its" : "their"
  } files right after may come from the old text`;
}

/**
 * Folders outside a server's root whose files the server reads all the same (tsserver: a
 * package a solution-style tsconfig's `references` name, its sources read in place of its
 * build), each watched on its own (not its subfolders): the root's folder watch does not see
 * them, and a `git checkout` there went unseen. The files changed since the last
 * {@link OutsideFolders.take} are kept, in the order they changed. A folder created in a watched
 * one (a checkout adding `src/feature/`) is watched too from the next {@link OutsideFolders.take},
 * its files all given as changed: before, it went unseen until the server's projects were listed
 * again, which only a change in the root, or a document opened, brings. Past
 * {@link outsideFoldersLimit} folders, later ones are not watched (their changes are left to the
 * server's own watch), and counted: see {@link OutsideFolders.unwatched}.
 *
 * A folder removed or moved away (a checkout of a branch without it) ends its watch: the kernel
 * drops it, and a folder written again under the same name was not seen. It is then watched
 * again by the first {@link OutsideFolders.take} that finds it there, its files all given as
 * changed (what was written meanwhile is not known), or refused when no place is left. A folder
 * not there takes no place under the bound and is not counted as unwatched (it was, for good: a
 * long session's removed folders filled the bound, and `status` said more were not watched than
 * there are); the place it left goes to a folder refused before, watched from then on (its files
 * all given as changed).
 */
export class OutsideFolders {
  private readonly watchers = new Map<string, FSWatcher>();
  /**
   * Folders the projects read that are not there now (their watch ended: removed, moved,
   * unreadable; or refused, then removed): watched again once back, if a place is left, else
   * refused. None is forgotten, as none refused is: one forgotten was, once back, neither watched
   * nor counted until the projects were listed again, which a change to a file they hold does
   * not bring (a checkout of a branch without more than the bound, then back, left those
   * uncounted). Bounded by the folders the projects named.
   */
  private readonly gone = new Set<string>();
  /** Folders to watch past {@link outsideFoldersLimit}: not watched. */
  private readonly refused = new Set<string>();
  /**
   * Of the folders watched or {@link refused}, those watched because created in a watched one:
   * once removed they are forgotten (their parent's watch sees them back), taking no place under
   * the bound and not counted as unwatched.
   */
  private readonly created = new Set<string>();
  private readonly changed = new Set<string>();
  /** Of {@link changed}, those created, removed or renamed: a folder among them is watched. */
  private readonly renamed = new Set<string>();
  /** Whether a watched folder told of a change since the last {@link take}. */
  private stirred = false;
  private closed = false;

  /**
   * Watches `folders` (those already watched are left as they are; those past the limit are not
   * watched, and counted in {@link unwatched}).
   */
  add(folders: Iterable<string>): void {
    for (const folder of folders) {
      if (this.closed) return;
      if (this.watchers.has(folder) || this.gone.has(folder) || this.refused.has(folder)) continue;
      if (this.full) this.refused.add(folder);
      else this.watch(folder);
    }
  }

  /**
   * How many folders there are not watched, past {@link outsideFoldersLimit}, as of the last
   * {@link take} (which looks again when a watched folder told of a change) or {@link recount}.
   */
  get unwatched(): number {
    return this.refused.size;
  }

  /**
   * {@link unwatched} as the folders are on disk now (for `status`): a refused folder's removal
   * brings no event, nor does a watched one's before its event is read. Looks at each folder
   * watched or refused (a few microseconds each); a place freed goes to a refused folder.
   */
  recount(): number {
    if (this.closed) return this.refused.size;
    for (const folder of this.watchers.keys()) if (!isFolder(folder)) this.lose(folder);
    this.comeBack();
    this.followRefused();
    return this.refused.size;
  }

  /**
   * The files changed in the watched folders since the last call; those of a folder watched again
   * or newly (see {@link OutsideFolders}) all of them. A folder created in a watched one is
   * watched when `watchCreated` says so (not a symlink, nor past the limit).
   */
  take(watchCreated: (folder: string) => boolean = () => true): string[] {
    if (this.closed) return [];
    this.comeBack();
    // Folders refused past the bound, removed since (a checkout: a watched folder told of it) no
    // longer to say, and a place freed given to one of them.
    if (this.stirred) this.followRefused();
    this.stirred = false;
    // Folders created in watched ones (those in a folder created too are added as met); not a
    // node_modules nor a dot-folder (.git, .turbo), whose files a tsconfig's include does not take.
    for (const path of this.renamed) {
      if (this.closed || this.watchers.has(path) || this.gone.has(path) || this.refused.has(path)) continue;
      if (notRead(basename(path)) || !isRealFolder(path) || !watchCreated(path)) continue;
      this.created.add(path);
      if (this.full) this.refused.add(path);
      else if (this.watch(path)) this.addEntries(path);
      else this.created.delete(path);
    }
    this.renamed.clear();
    const files = [...this.changed];
    this.changed.clear();
    return files;
  }

  /** Whether no folder is watched, to be watched again once back, or refused. */
  get empty(): boolean {
    return this.watchers.size === 0 && this.gone.size === 0 && this.refused.size === 0;
  }

  /** How many folders are watched. */
  get size(): number {
    return this.watchers.size;
  }

  /** Whether no place is left under {@link outsideFoldersLimit}: only folders there take one. */
  private get full(): boolean {
    return this.watchers.size >= outsideFoldersLimit;
  }

  /** Watches the {@link gone} folders back there, or refuses them when no place is left. */
  private comeBack(): void {
    for (const folder of this.gone) {
      if (!isFolder(folder)) continue;
      if (this.full) {
        this.gone.delete(folder);
        this.refused.add(folder);
      } else if (this.watch(folder)) {
        this.gone.delete(folder);
        this.addEntries(folder);
      }
    }
  }

  /**
   * Of the {@link refused} folders, forgets those created that are not there now (their parent's
   * watch sees them back), keeps the others not there among the {@link gone}, and watches those
   * there while places are left (their files all given as changed).
   */
  private followRefused(): void {
    for (const folder of this.refused) {
      const created = this.created.has(folder);
      if (created ? !isRealFolder(folder) : !isFolder(folder)) {
        this.refused.delete(folder);
        if (created) this.created.delete(folder);
        else this.gone.add(folder);
      } else if (!this.full && this.watch(folder)) {
        this.refused.delete(folder);
        this.addEntries(folder);
      }
    }
  }

  close(): void {
    this.closed = true;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    this.gone.clear();
    this.refused.clear();
    this.renamed.clear();
    this.created.clear();
  }

  /** Gives every entry of `folder`, just watched, as changed (what was written before is not known). */
  private addEntries(folder: string): void {
    try {
      for (const name of readdirSync(folder)) {
        this.changed.add(join(folder, name));
        this.renamed.add(join(folder, name));
      }
    } catch {
      // Gone again: its next event says so.
    }
  }

  /** Watches `folder`; false when it cannot be (gone or unreadable now: not watched). */
  private watch(folder: string): boolean {
    try {
      const self = basename(folder);
      const watcher = watch(folder, { persistent: false }, (event, name) => {
        this.stirred = true;
        if (typeof name === "string" && name !== "") {
          this.changed.add(join(folder, name));
          if (event === "rename") this.renamed.add(join(folder, name));
        }
        // The folder itself removed or moved (its name: a file of that name alike, watched
        // again at once): the kernel has dropped the watch, which sees nothing more.
        if (event === "rename" && name === self) this.lose(folder);
      });
      watcher.on("error", () => this.lose(folder));
      this.watchers.set(folder, watcher);
      return true;
    } catch {
      return false;
    }
  }

  /** Ends `folder`'s watch, to be watched again once it is there (see {@link take}). */
  private lose(folder: string): void {
    const watcher = this.watchers.get(folder);
    if (watcher === undefined) return;
    watcher.close();
    this.watchers.delete(folder);
    this.stirred = true;
    // A created one, removed, is seen again in its parent (a change there), if ever back.
    if (this.created.has(folder) && !isRealFolder(folder)) {
      this.created.delete(folder);
      return;
    }
    if (!this.closed) this.gone.add(folder);
  }
}

/** Whether a folder named `name` is one a tsconfig's include does not take: not watched once created. */
function notRead(name: string): boolean {
  return name === "node_modules" || name.startsWith(".");
}
