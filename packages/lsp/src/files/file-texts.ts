import { readdirSync, statSync, type BigIntStats, type Dirent } from "node:fs";
import { readRegularFileSync } from "@tools/registry";
import { splitLines } from "../positions/line-ends.js";

/** A file's text and its lines (split on first use). */
export interface FileText {
  readonly text: string;
  /** The lines, without their line ends (split on first call, then shared). */
  readonly lines: () => readonly string[];
}

interface Entry {
  readonly dev: bigint;
  readonly ino: bigint;
  readonly size: bigint;
  readonly mtimeNs: bigint;
  readonly ctimeNs: bigint;
  /** Wall-clock time of the read, in milliseconds. */
  readonly readAt: number;
  /** The text and its lines, split on first use (one object per read, handed to every caller). */
  readonly view: FileText;
}

/**
 * A file modified this close to our read could be modified again within the same timestamp
 * tick (Linux takes file times from a coarse clock, a few milliseconds per tick) without its
 * mtime changing; such an entry is never reused (git's "racily clean" rule).
 */
const racyMarginMs = 100;

/**
 * The margin for a file whose times are whole seconds: a filesystem keeping no fraction (ext4
 * with 128-byte inodes, ext3, HFS+; FAT's mtime even in 2 s steps) gives every write of the same
 * second (or two) the same times.
 */
const wholeSecondMarginMs = 2_000;

/**
 * Whether what was read of a file at `readAt` (Date.now(), taken before its stat) may be reused
 * while its identity (inode, size, mtime and ctime in ns) stays the one seen then: only when its
 * last change, the later of its mtime and ctime, is older than the read by more than a timestamp
 * tick, {@link racyMarginMs}, or {@link wholeSecondMarginMs} when both times are whole seconds.
 * The ctime counts: a file rewritten in place with its old mtime put back (`cp -p`, `tar x`,
 * `touch -r`) has an mtime long past, and a second such rewrite within the same tick (the same
 * second on a whole-second filesystem) leaves every part of its identity as it was.
 */
export function settledBefore(mtimeNs: bigint, ctimeNs: bigint, readAt: number): boolean {
  const margin = racyMarginOf(mtimeNs % 1_000_000_000n === 0n && ctimeNs % 1_000_000_000n === 0n);
  const changedNs = mtimeNs > ctimeNs ? mtimeNs : ctimeNs;
  return Number(changedNs) / 1e6 < readAt - margin;
}

/**
 * How long (ms) after a change what was seen may still change without the times moving:
 * {@link racyMarginMs}, or {@link wholeSecondMarginMs} when the times are whole seconds.
 */
export function racyMarginOf(wholeSeconds: boolean): number {
  return wholeSeconds ? wholeSecondMarginMs : racyMarginMs;
}

/** Bounds of a {@link FileTexts} cache. */
export interface FileTextsOptions {
  /** Most files kept; default 256. */
  readonly capacity?: number;
  /** Larger texts (in characters) are read but not kept; default no limit. */
  readonly largestKept?: number;
  /** Most characters kept in all; default no limit. */
  readonly totalKept?: number;
}

/**
 * Text of files read for navigation, reused while the file's identity (device, inode, size,
 * mtime and ctime in nanoseconds) is unchanged and its last change is older than the timestamp
 * granularity, so repeated questions about a file cost one `stat` instead of a read and a split.
 */
export class FileTexts {
  private readonly entries = new Map<string, Entry>();
  private readonly capacity: number;
  private readonly largestKept: number;
  private readonly totalKept: number;
  /** Characters of the texts kept. */
  private kept = 0;

  constructor(options: FileTextsOptions = {}) {
    this.capacity = options.capacity ?? 256;
    this.largestKept = options.largestKept ?? Infinity;
    this.totalKept = options.totalKept ?? Infinity;
  }

  /** The current text of `path` (throws as `readFileSync` does). */
  read(path: string): FileText {
    return this.load(path, false)!;
  }

  /**
   * The current text of `path`, or undefined when it cannot be read (missing, a folder, no
   * permission) or is larger than `largestRead` bytes.
   */
  tryRead(path: string, largestRead = Infinity): FileText | undefined {
    try {
      return this.load(path, false, largestRead);
    } catch {
      return undefined;
    }
  }

  /** Reads `path` from disk whatever the cache holds, and caches it (checking a write). */
  reread(path: string): FileText {
    return this.load(path, true)!;
  }

  private load(path: string, force: boolean, largestRead = Infinity): FileText | undefined {
    const readAt = Date.now();
    // A folder or a FIFO is refused by the read below (never cached, so always read).
    const { dev, ino, size, mtimeNs, ctimeNs } = statSync(path, { bigint: true });
    if (Number(size) > largestRead) return undefined;
    const cached = this.entries.get(path);
    // A write sets mtime and ctime to the same coarse time; mtime alone also covers a file whose
    // mtime was set back (its ctime, compared too, then changes).
    if (
      !force &&
      cached !== undefined &&
      cached.dev === dev &&
      cached.ino === ino &&
      cached.size === size &&
      cached.mtimeNs === mtimeNs &&
      cached.ctimeNs === ctimeNs &&
      settledBefore(mtimeNs, ctimeNs, cached.readAt)
    ) {
      return cached.view;
    }
    const entry: Entry = { dev, ino, size, mtimeNs, ctimeNs, readAt, view: view(readTextFile(path)) };
    this.forget(path);
    const length = entry.view.text.length;
    if (length > this.largestKept) return entry.view;
    this.entries.set(path, entry);
    this.kept += length;
    while (this.entries.size > this.capacity || this.kept > this.totalKept) {
      this.forget(this.entries.keys().next().value!);
    }
    return entry.view;
  }

  /** Drops the entry of `path`, if any. */
  private forget(path: string): void {
    const entry = this.entries.get(path);
    if (entry === undefined) return;
    this.entries.delete(path);
    this.kept -= entry.view.text.length;
  }
}

function view(text: string): FileText {
  let lines: readonly string[] | undefined;
  return { text, lines: () => (lines ??= splitLines(text)) };
}

/**
 * The text of the regular file at `path` (a marker, a configuration file, a compile database),
 * read synchronously but safely (the registry's `readRegularFileSync`: opened without blocking):
 * refused (throws, `EINVAL`) when it is a FIFO, socket or device or a folder (`EISDIR`), and
 * (`EFBIG`) when over `maxBytes`, in words that leave naming the file to the caller.
 */
export function readTextFile(path: string, maxBytes = Infinity): string {
  try {
    return readRegularFileSync(path, maxBytes).toString("utf8");
  } catch (error) {
    const failure = error as NodeJS.ErrnoException & { size?: number };
    if (failure.code === "EISDIR" || failure.code === "EINVAL")
      throw notRegular(path, failure.code === "EISDIR");
    if (failure.code === "EFBIG") {
      throw Object.assign(new Error(`it is ${failure.size} bytes, over ${maxBytes}`), {
        code: "EFBIG",
        path,
      });
    }
    throw error;
  }
}

/** An error as `fs` throws them (`code` EISDIR for a folder, else EINVAL) for what is not a file. */
function notRegular(path: string, folder: boolean): NodeJS.ErrnoException {
  const message = folder
    ? "it is a folder, not a file"
    : "it is a FIFO, socket or device, not a regular file";
  return Object.assign(new Error(message), { code: folder ? "EISDIR" : "EINVAL", path });
}

/** Whether a regular file is at `path` (a link followed); false when nothing is, or it cannot be told. */
export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * What is derived from files (a compilation database's facts, parsed once per version on disk):
 * per path, the value `derive` gave, reused while the file's identity (device, inode, size, mtime
 * and ctime in ns) is the one seen before that read and settled before it ({@link settledBefore}).
 * The oldest entry goes past `capacity`.
 */
export class DerivedFromFiles<T> {
  private readonly entries = new Map<string, { identity: string; readAt: number; value: T }>();

  constructor(private readonly capacity: number) {}

  /**
   * `derive(path)`, or the value it gave for the same file on disk. When `derive` throws, nothing
   * is kept and the error is thrown; a file that cannot be looked at is derived at each call.
   */
  get(path: string, derive: (path: string) => T): T {
    const readAt = Date.now();
    let identity: { key: string; mtimeNs: bigint; ctimeNs: bigint } | undefined;
    try {
      const stat = statSync(path, { bigint: true });
      identity = {
        key: `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`,
        mtimeNs: stat.mtimeNs,
        ctimeNs: stat.ctimeNs,
      };
    } catch {
      identity = undefined;
    }
    const kept = this.entries.get(path);
    if (
      kept &&
      identity &&
      kept.identity === identity.key &&
      settledBefore(identity.mtimeNs, identity.ctimeNs, kept.readAt)
    )
      return kept.value;
    this.entries.delete(path);
    const value = derive(path);
    if (identity) {
      this.entries.set(path, { identity: identity.key, readAt, value });
      if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value!);
    }
    return value;
  }
}

/** What a folder holds, as {@link folderListing} reads it. */
export interface FolderListing {
  /** The names of its entries. */
  readonly names: ReadonlySet<string>;
  /** Those names in lower case (a folder may ignore case). */
  readonly lower: ReadonlySet<string>;
  /**
   * Those of its entries that are regular files, not symlinks: while the folder is unchanged
   * (its identity: an entry replaced changes its times), each stays the same regular file.
   */
  readonly regular: ReadonlySet<string>;
}

/** The listing of entries named `names`, of which `regular` are regular files (see {@link FolderListing}). */
export function listingOf(names: readonly string[], regular: Iterable<string> = []): FolderListing {
  return {
    names: new Set(names),
    lower: new Set(names.map((name) => name.toLowerCase())),
    regular: new Set(regular),
  };
}

/**
 * What the folder at `path` holds (a link followed); nothing when nothing or a file is there;
 * undefined when it cannot be listed otherwise (no permission to read it).
 */
export function folderListing(path: string): FolderListing | undefined {
  let entries: Dirent[];
  try {
    entries = readdirSync(path, { withFileTypes: true });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    return code === "ENOENT" || code === "ENOTDIR" ? listingOf([]) : undefined;
  }
  return listingOf(
    entries.map((entry) => entry.name),
    entries.filter((entry) => entry.isFile()).map((entry) => entry.name),
  );
}

/** What nothing, or a file, holds. */
const noListing = listingOf([]);

/** A kept listing: the folder's identity before it was listed, when, and the walk that last used it. */
interface KeptListing {
  readonly identity: string;
  readonly readAt: number;
  readonly listing: FolderListing | undefined;
  walk: number;
}

/**
 * Listings of folders ({@link folderListing}) kept between calls: one is listed again only when
 * its identity (device, inode, size, mtime and ctime in ns: creating, removing or renaming an
 * entry changes its times) is not the one seen before it was listed, or its last change was
 * within the timestamp granularity of that listing ({@link settledBefore}). A folder that cannot
 * be looked at is listed at each call; nothing there (or a file) costs its `stat` alone.
 *
 * At most `capacity` folders and `maxEntries` names in all kept (a folder of more names than that is
 * never kept), the least recently used dropped first, but only one unused in the
 * current walk and the one before (see {@link startWalk}): walks listing more folders than are
 * kept keep those listed first, and each lists only the rest again. (Dropping the least recently
 * used whatever it is would drop every folder before a walk over them in the same order came
 * round to it again, and a flush's two walks go in different orders: every folder was listed
 * again at every walk.)
 */
export class FolderListings {
  private readonly kept = new Map<string, KeptListing>();
  private walk = 0;
  /** The names the kept listings hold, in all. */
  private entries = 0;

  constructor(
    private readonly capacity = 4_096,
    private readonly maxEntries = 131_072,
  ) {}

  /** Begins a walk: the listings unused in it and the walk before may make room for those it lists. */
  startWalk(): void {
    this.walk++;
  }

  /** What the folder at `path` holds now (see {@link folderListing}). */
  get(path: string): FolderListing | undefined {
    const readAt = Date.now();
    let stat: BigIntStats;
    try {
      stat = statSync(path, { bigint: true });
    } catch (error) {
      this.drop(path);
      const code = (error as NodeJS.ErrnoException).code;
      // Nothing there (a folder included files are looked for beside, as `sys/` of `<sys/a.h>`).
      return code === "ENOENT" || code === "ENOTDIR" ? noListing : folderListing(path);
    }
    const identity = `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeNs}:${stat.ctimeNs}`;
    const kept = this.drop(path);
    if (kept && kept.identity === identity && settledBefore(stat.mtimeNs, stat.ctimeNs, kept.readAt)) {
      kept.walk = this.walk;
      this.keep(path, kept);
      return kept.listing;
    }
    const listing = stat.isDirectory() ? folderListing(path) : noListing;
    const size = listing?.names.size ?? 0;
    if (size > this.maxEntries) return listing;
    while (this.kept.size >= this.capacity || this.entries + size > this.maxEntries) {
      const [oldest, entry] = this.kept.entries().next().value!;
      if (entry.walk >= this.walk - 1) return listing;
      this.drop(oldest);
    }
    this.keep(path, { identity, readAt, listing, walk: this.walk });
    return listing;
  }

  /** Keeps `listing` as the most recently used. */
  private keep(path: string, listing: KeptListing): void {
    this.kept.set(path, listing);
    this.entries += listing.listing?.names.size ?? 0;
  }

  /** Forgets the listing of `path`, and returns it. */
  private drop(path: string): KeptListing | undefined {
    const kept = this.kept.get(path);
    if (kept === undefined) return undefined;
    this.kept.delete(path);
    this.entries -= kept.listing?.names.size ?? 0;
    return kept;
  }
}
