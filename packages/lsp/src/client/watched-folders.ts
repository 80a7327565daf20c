import { existsSync, lstatSync, readdirSync, statSync, watch, type Dirent, type FSWatcher } from "node:fs";
import { basename, dirname, join } from "node:path";
import { FileChangeType } from "vscode-languageserver-protocol";
import { canonicalPath } from "../files/canonical-path.js";
import { isFolder } from "../files/is-folder.js";

/** A file created, changed or deleted on disk since the last {@link WatchedFolders.take}. */
export interface FileEvent {
  readonly path: string;
  readonly type: FileChangeType;
}

/** Options of {@link WatchedFolders}. */
export interface WatchedFoldersOptions {
  /** Most folders watched; deeper or later ones are not (see {@link WatchedFolders.complete}). */
  readonly maxFolders?: number;
}

/** Most folders watched per server root by default. */
export const defaultMaxFolders = 2_000;

/**
 * Distinct paths in one take from which on the kernel's event queue may have overflowed (16 384
 * events by default; libuv drops the overflow notice, and every event after it is lost): each
 * watched folder's modification time is then compared with the one last seen.
 */
export const burstPaths = 1_000;

/** Folders read and watched per turn of the event loop during the first walk. */
const foldersPerTurn = 32;

/**
 * Folders never watched: version control and tool state, installed dependencies, Python
 * environments and build caches. Hidden folders (a leading dot: .git, .venv, .dart_tool …) are
 * skipped as well. Fewer than the root search skips (`skippedFolders`): servers read vendor/,
 * build/ (a compilation database) and the like, so changes there are theirs to know.
 */
const skippedNames = new Set(["node_modules", "__pycache__", "venv"]);

/** The entries of a folder; none when it cannot be read (gone meanwhile, no permission). */
function entriesOf(folder: string): Dirent[] {
  try {
    return readdirSync(folder, { withFileTypes: true });
  } catch {
    return [];
  }
}

/** A folder's modification time (ms); undefined when it cannot be read. */
function modifiedAt(folder: string): number | undefined {
  try {
    return statSync(folder).mtimeMs;
  } catch {
    return undefined;
  }
}

/**
 * A folder's identity: inode and birth time (a folder deleted and made again at once often gets
 * the same inode back); undefined when it is not a folder (or is gone).
 */
function folderIdentity(path: string): string | undefined {
  try {
    const stats = statSync(path);
    return stats.isDirectory() ? `${stats.ino}@${stats.birthtimeMs}` : undefined;
  } catch {
    return undefined;
  }
}

function skipped(parent: string, name: string): boolean {
  if (name.startsWith(".") || skippedNames.has(name)) return true;
  // Cargo's build output, not a source folder named target.
  return name === "target" && existsSync(join(parent, "Cargo.toml"));
}

/**
 * Watches the folders of a server's root (one inotify watch per folder, bounded) and collects
 * which files were created, changed or deleted there, so that the server can be told
 * (`workspace/didChangeWatchedFiles`) before it is asked anything: a file changed by a shell
 * command, and never opened on the server, would otherwise be answered from its old text.
 * Events wait in the kernel and in this process until {@link take}; nothing is sent from here.
 */
export class WatchedFolders {
  private readonly maxFolders: number;
  private readonly root: string;
  /**
   * Whether the root itself must be looked at on the next take even with no other event: an
   * event named it (deleted or moved away), or it was gone at the last take.
   */
  private rootInQuestion = false;
  /** The root folder's identity when it was last walked (see {@link folderIdentity}). */
  private rootIdentity: string | undefined;
  private readonly watchers = new Map<string, FSWatcher>();
  /** Files seen in watched folders (to tell a created file from a changed one). */
  private readonly known = new Set<string>();
  /** The known files that are symlinks (a file imported by a link's own name: see `links`). */
  private readonly linked = new Set<string>();
  /** Paths an event named since the last take. */
  private readonly touched = new Set<string>();
  /** Each watched folder's modification time (ms) when its entries were last read. */
  private readonly folderTimes = new Map<string, number>();
  private closed = false;
  private full = false;
  /** Set once a symlink to a folder was left unfollowed: the walk goes on, the watch is incomplete. */
  private linkSkipped = false;
  private readonly scanned: Promise<void>;

  constructor(root: string, options: WatchedFoldersOptions = {}) {
    this.maxFolders = options.maxFolders ?? defaultMaxFolders;
    this.root = root;
    this.scanned = this.scan(root);
  }

  /** Settles once the first walk of the root is done (or stopped by the bound or {@link close}). */
  get ready(): Promise<void> {
    return this.scanned;
  }

  /**
   * False when some folders are not watched: the bound was reached, the system refused one, or a
   * symlink to a folder was not followed.
   */
  get complete(): boolean {
    return !this.full && !this.linkSkipped;
  }

  /** How many folders are watched. */
  get folders(): number {
    return this.watchers.size;
  }

  /** The files seen in the watched folders (after {@link ready}: all of them, as of the last take). */
  get files(): ReadonlySet<string> {
    return this.known;
  }

  /**
   * The files among {@link files} that are symlinks (to a file, or to anything but a folder of
   * the first walk), as of the last take: a module imported by a link's own name is the file
   * the link points to.
   */
  get links(): ReadonlySet<string> {
    return this.linked;
  }

  /** True when events wait to be taken, or the root is gone (each take looks for it again). */
  get pending(): boolean {
    return this.touched.size > 0 || this.rootInQuestion;
  }

  /**
   * The changes since the last call, one per path: each touched path is looked at now, so a
   * file written twice is one change and a file created then deleted is none (unless it was
   * known before). A new folder is watched from now on and its files reported as created.
   */
  take(): FileEvent[] {
    const events: FileEvent[] = [];
    // The root's own deletion is not reported while a process has it as its working directory
    // (the server does): its identity is looked at whenever anything changed.
    if (this.rootInQuestion || this.touched.size > 0) this.lookAtRoot(events);
    const paths = [...this.touched];
    this.touched.clear();
    const burst = paths.length >= burstPaths;
    for (const path of paths) {
      let isFolder: boolean | undefined;
      try {
        const stats = lstatSync(path);
        isFolder = stats.isDirectory();
        if (!isFolder) this.noteLink(path, stats.isSymbolicLink());
      } catch {
        isFolder = undefined;
      }
      if (isFolder === true) {
        // A folder of ours named again (the kernel's queue overflowed, or its watch failed):
        // any file in it may have changed.
        if (this.watchers.has(path)) this.rescan(path, events);
        else this.add(path, events);
      } else if (isFolder === false) {
        events.push({ path, type: this.known.has(path) ? FileChangeType.Changed : FileChangeType.Created });
        this.known.add(path);
      } else {
        this.linked.delete(path);
        if (this.known.delete(path)) events.push({ path, type: FileChangeType.Deleted });
        this.remove(path, events);
      }
    }
    return this.withLinks(burst ? this.sweep(events) : events);
  }

  /**
   * `events` and, for each file changed, created or deleted that symlinks of {@link links}
   * point to, a change of each link (a deletion when it was deleted): the link's text is the
   * file's, and a server that read the file by the link's name (a module imported as `./alias`)
   * keeps the old text until told. One event per path.
   */
  private withLinks(events: FileEvent[]): FileEvent[] {
    if (this.linked.size === 0 || events.length === 0) return events;
    const byReal = new Map<string, string[]>();
    for (const link of this.linked) {
      const real = canonicalPath(link);
      if (real === link) continue;
      const list = byReal.get(real);
      if (list) list.push(link);
      else byReal.set(real, [link]);
    }
    if (byReal.size === 0) return events;
    const named = new Set(events.map((event) => event.path));
    const added: FileEvent[] = [];
    for (const { path, type } of events) {
      for (const link of byReal.get(canonicalPath(path)) ?? []) {
        if (link === path || named.has(link)) continue;
        named.add(link);
        added.push({ path: link, type: type === FileChangeType.Deleted ? type : FileChangeType.Changed });
      }
    }
    return added.length === 0 ? events : [...events, ...added];
  }

  /**
   * After a burst: every watched folder whose modification time moved since its entries were
   * last read is read again (files added or removed there, by events the kernel may have
   * dropped); one change per path in the result. A file rewritten in place leaves its folder's
   * time as it was, so such a change lost in an overflow stays unseen.
   */
  private sweep(events: FileEvent[]): FileEvent[] {
    const children = new Map<string, string[]>();
    for (const path of this.known) {
      const folder = dirname(path);
      const list = children.get(folder);
      if (list) list.push(path);
      else children.set(folder, [path]);
    }
    const found: FileEvent[] = [];
    // Folders added meanwhile are visited too, their time just taken: skipped.
    for (const folder of this.watchers.keys()) {
      const time = modifiedAt(folder);
      if (time === undefined || time === this.folderTimes.get(folder)) continue;
      this.folderTimes.set(folder, time);
      const present = new Set<string>();
      for (const entry of entriesOf(folder)) {
        const path = join(folder, entry.name);
        if (entry.isDirectory()) {
          if (!this.watchers.has(path)) this.add(path, found);
        } else {
          this.noteLink(path, entry.isSymbolicLink());
          if (!this.known.has(path)) {
            this.known.add(path);
            found.push({ path, type: FileChangeType.Created });
          }
        }
        present.add(path);
      }
      for (const path of children.get(folder) ?? []) {
        if (present.has(path)) continue;
        this.known.delete(path);
        this.linked.delete(path);
        found.push({ path, type: FileChangeType.Deleted });
      }
    }
    if (found.length === 0) return events;
    // The sweep's finding wins: it looked last.
    const byPath = new Map(events.map((event) => [event.path, event]));
    for (const event of found) byPath.set(event.path, event);
    return [...byPath.values()];
  }

  /**
   * The root deleted or moved away: every file known is deleted and nothing is watched, until a
   * take finds the root again. Found again, or found to be another folder now (deleted and made
   * again between two takes: a fresh checkout), it is walked and watched anew.
   */
  private lookAtRoot(events: FileEvent[]): void {
    if (this.closed) return;
    const identity = folderIdentity(this.root);
    if (identity === undefined) {
      this.rootInQuestion = true;
      this.remove(this.root, events);
      this.touched.clear();
      return;
    }
    this.rootInQuestion = false;
    // A child named like the root, and the root unchanged.
    if (identity === this.rootIdentity && this.watchers.has(this.root)) return;
    // Made again (since the last take, or after one that found it gone): the old watches are of
    // the folder gone. Walked anew; a file in both is changed, one per path.
    const gone: FileEvent[] = [];
    this.remove(this.root, gone);
    this.touched.clear();
    this.rootIdentity = identity;
    const found: FileEvent[] = [];
    const queue = [this.root];
    for (let next = queue.shift(); next !== undefined && !this.full; next = queue.shift()) {
      this.watchOne(next, queue, found);
    }
    const before = new Set(gone.map((event) => event.path));
    const after = new Set(found.map((event) => event.path));
    events.push(...gone.filter((event) => !after.has(event.path)));
    for (const { path } of found)
      events.push({ path, type: before.has(path) ? FileChangeType.Changed : FileChangeType.Created });
  }

  /** Stops every watch. Idempotent. */
  close(): void {
    this.closed = true;
    for (const watcher of this.watchers.values()) watcher.close();
    this.watchers.clear();
    this.folderTimes.clear();
    this.known.clear();
    this.linked.clear();
    this.touched.clear();
  }

  /**
   * Watches `folder` and the folders below it, breadth first, at once (a folder that appeared
   * later: its files are `created` events).
   */
  private add(folder: string, created: FileEvent[]): void {
    // A skipped folder that appeared later (npm install's node_modules, a new .venv) is not walked.
    if (skipped(dirname(folder), basename(folder))) return;
    const queue = [folder];
    for (let next = queue.shift(); next !== undefined && !this.full; next = queue.shift()) {
      this.watchOne(next, queue, created);
    }
  }

  /**
   * The first walk of the root, a few folders per turn of the event loop (the Go standard
   * library's 800 folders take 50–100 ms to read and watch, too long to hold every other call).
   */
  private async scan(root: string): Promise<void> {
    this.rootIdentity = folderIdentity(root);
    const queue = [root];
    while (queue.length > 0 && !this.closed && !this.full) {
      for (let n = 0; n < foldersPerTurn && queue.length > 0 && !this.full; n++) {
        this.watchOne(queue.shift()!, queue, undefined);
      }
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  /** Watches one folder and queues its subfolders; its files become known (and `created`, given a list). */
  private watchOne(folder: string, queue: string[], created: FileEvent[] | undefined): void {
    if (this.closed || this.watchers.has(folder)) return;
    if (this.watchers.size >= this.maxFolders) {
      this.full = true;
      return;
    }
    let watcher: FSWatcher;
    try {
      watcher = watch(folder, { persistent: false }, (_event, name) => {
        // Without a name (an overflow of the kernel's queue) the whole folder is looked at again.
        this.touched.add(name ? join(folder, name.toString()) : folder);
        // The root's own deletion or move names the root (by its base name) on its watch.
        if (folder === this.root && name?.toString() === basename(folder)) this.rootInQuestion = true;
      });
      watcher.on("error", () => this.forget(folder));
    } catch {
      // Gone already, unreadable, or the system's watch limit (ENOSPC): not watched.
      this.full ||= existsSync(folder);
      return;
    }
    this.watchers.set(folder, watcher);
    const time = modifiedAt(folder);
    if (time !== undefined) this.folderTimes.set(folder, time);
    for (const entry of entriesOf(folder)) {
      const path = join(folder, entry.name);
      if (entry.isDirectory()) {
        if (!skipped(folder, entry.name)) queue.push(path);
      } else if (entry.isSymbolicLink() && !skipped(folder, entry.name) && isFolder(path)) {
        // Not followed (a link can loop, or lead out of the root): what is behind it is not
        // watched. The other folders are (a project reached through a link is walked by its
        // real folder, when that lies in the root too).
        this.linkSkipped = true;
      } else {
        this.noteLink(path, entry.isSymbolicLink());
        if (!this.known.has(path)) {
          this.known.add(path);
          created?.push({ path, type: FileChangeType.Created });
        }
      }
    }
  }

  /** Records whether the file at `path` is a symlink (see {@link links}). */
  private noteLink(path: string, isLink: boolean): void {
    if (isLink) this.linked.add(path);
    else this.linked.delete(path);
  }

  /** Every file of a watched folder as `changed` (or `created`, when new). */
  private rescan(folder: string, events: FileEvent[]): void {
    for (const entry of entriesOf(folder)) {
      if (entry.isDirectory()) continue;
      const path = join(folder, entry.name);
      this.noteLink(path, entry.isSymbolicLink());
      events.push({ path, type: this.known.has(path) ? FileChangeType.Changed : FileChangeType.Created });
      this.known.add(path);
    }
  }

  /** Stops watching `folder` and below (if watched); their known files are `deleted` events. */
  private remove(folder: string, deleted: FileEvent[]): void {
    const prefix = `${folder}/`;
    for (const [path, watcher] of this.watchers) {
      if (path === folder || path.startsWith(prefix)) {
        watcher.close();
        this.watchers.delete(path);
        this.folderTimes.delete(path);
      }
    }
    for (const path of this.known) {
      if (path.startsWith(prefix)) {
        this.known.delete(path);
        this.linked.delete(path);
        deleted.push({ path, type: FileChangeType.Deleted });
      }
    }
  }

  private forget(folder: string): void {
    this.watchers.get(folder)?.close();
    this.watchers.delete(folder);
    this.folderTimes.delete(folder);
    this.touched.add(folder);
  }
}
