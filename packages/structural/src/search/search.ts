import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs";
import { stat } from "node:fs/promises";
import { performance } from "node:perf_hooks";
import { setImmediate as yieldToEventLoop } from "node:timers/promises";
import { isAbsolute, relative, sep } from "node:path";
import { StructuralError } from "../errors/structural-error.js";
import type { LanguageSpec } from "../grammars/languages.js";
import type { MatchLimits, StopReason, StructuralMatch } from "../match/find-matches.js";
import type { StructuralParser } from "../parser/structural-parser.js";
import type { CompiledPattern } from "../pattern/pattern-node.js";
import { plannable } from "../chunks/parse-plan.js";
import { byteSize } from "./byte-size.js";
import { hasLiterals, literalBytes, scanBytes, type FileScan } from "./scan-file.js";
import type { PoolFile, ScanJob, ScanJobResult } from "./scan-pool.js";
import {
  ignoreTally,
  outerIgnoreLayers,
  rootIgnoredBy,
  settleIgnoredFolders,
  walkFiles,
} from "./walk-files.js";

/** Why a file could not be read, in words (see `UnreadableFile.reason`). */
function readError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  if (code === "EACCES" || code === "EPERM") return "permission denied";
  if (code === "ENOENT") return "gone since the folder was listed";
  if (code === "EISDIR") return "not a regular file";
  return code ?? (error instanceof Error ? error.message : String(error));
}

/** How many times `parallelMinBytes` a search needs to wait for a pool that is not running yet. */
const coldPoolFactor = 8;

/** Files at least this large are searched in shares on every worker at once (when planned). */
const shareMinBytes = 256 * 1024;

/**
 * The scans with each shared file's shares joined into one scan; a file with a share that could
 * not be searched through its plan is scanned whole by `rescan`. A file some of whose shares the
 * job stopped before (`stopped`) is marked stopped so: it was not searched whole.
 */
async function joinShares(
  scans: readonly FileScan[],
  shared: ReadonlyMap<string, PoolFile>,
  rescan: (file: PoolFile) => Promise<FileScan>,
  stopped: StopReason | undefined,
): Promise<FileScan[]> {
  const out: FileScan[] = [];
  const parts = new Map<string, FileScan[]>();
  for (const scan of scans) {
    if (!scan.share) out.push(scan);
    else parts.set(scan.path, [...(parts.get(scan.path) ?? []), scan]);
  }
  for (const [path, shares] of parts) {
    const file = shared.get(path);
    if (shares.some((share) => share.incomplete) && file) {
      out.push(await rescan(file));
      continue;
    }
    const matches = shares.flatMap((share) => share.matches);
    matches.sort((a, b) => a.start - b.start || b.end - a.end);
    const withText = shares.find((share) => share.matches.length > 0) ?? shares[0];
    if (!withText) continue;
    const exhausted = shares.reduce((sum, share) => sum + share.exhausted, 0);
    const tooDeep = shares.reduce((sum, share) => sum + share.tooDeep, 0);
    const count = shares[0]?.share?.count ?? shares.length;
    const cut = shares.length < count ? (stopped ?? "deadline") : undefined;
    const shareStopped = cut ?? shares.find((share) => share.stopped)?.stopped;
    out.push({
      ...withText,
      share: undefined,
      matches,
      exhausted,
      tooDeep,
      ...(shareStopped ? { stopped: shareStopped } : {}),
    });
  }
  return out;
}

/** Longest run of synchronous file reads before the event loop gets a turn, in ms. */
const readSliceMs = 10;

/** A search's time budget when the caller sets none: 60 s. */
export const defaultTimeBudgetMs = 60_000;

/** Files larger than this are skipped (reported) when a folder is walked, default 2 MiB. */
export const defaultMaxFileBytes = 2 * 1024 * 1024;

/**
 * A file named as the search's target is searched whatever its size up to this bound (16 MiB),
 * above which the search fails with `FILE_TOO_LARGE`. Measured: a 9 MB TypeScript file with
 * 300,000 matches takes 1.5 GB and 18 s to search; the parser's WASM memory stops at 2 GiB.
 */
export const maxNamedFileBytes = 16 * 1024 * 1024;

/** The matches of one file, with what was read (for staging edits against it). */
export interface FileMatches {
  /** Absolute path. */
  readonly path: string;
  /** Relative to the working directory, `/`-separated. */
  readonly relativePath: string;
  readonly text: string;
  /** sha256 of the bytes read. */
  readonly hash: string;
  /** The file is not valid UTF-8: searched through a lossy decoding, never rewritten. */
  readonly notUtf8: boolean;
  readonly matches: readonly StructuralMatch[];
}

/** An ignore rule: the file it is in (relative to the working directory when inside it), its line and text. */
export interface IgnoreRuleRef {
  readonly source: string;
  readonly line: number;
  readonly text: string;
}

/** What one ignore rule left out of a search. */
export interface IgnoredByRule extends IgnoreRuleRef {
  /** Files of the language and folders it left out. */
  readonly files: number;
  readonly folders: number;
  /** The first path it left out, relative to the working directory when inside it. */
  readonly example: string;
  readonly exampleIsFolder: boolean;
  /** For a folder: whether naming it as `path` searches its files (see `walkFiles`). */
  readonly namingSearches: boolean;
  /** For a folder: a file of the language in it, when one was found (naming it searches it). */
  readonly fileInExample?: string;
}

/** What ignore rules (.gitignore, .ignore, info/exclude) left out of a walked folder. */
export interface IgnoredSummary {
  /**
   * Files of the language left out, and folders not entered (their files not counted). When
   * nothing was searched or the folder searched is itself ignored, only the folders holding a
   * file of the language are counted (they were looked into); otherwise every one.
   */
  readonly files: number;
  readonly folders: number;
  /** By rule, in the order first met. */
  readonly rules: readonly IgnoredByRule[];
  /** The rule ignoring the folder searched (or one above it), searched anyway as it was named. */
  readonly root?: IgnoreRuleRef;
}

/** A file a search could not read. */
export interface UnreadableFile {
  /** Relative to the working directory when inside it, `/`-separated. */
  readonly path: string;
  /** Why, in words: "permission denied", "not a regular file", or the system's error code. */
  readonly reason: string;
}

/** What a search saw. */
export interface SearchOutcome {
  /** Files with at least one match, by path. */
  readonly files: FileMatches[];
  /** Files of the language considered (after .gitignore), skipped ones included. */
  readonly considered: number;
  /**
   * Files read and searched through: `considered` less the binary, too large and unreadable ones
   * (a file ruled out by its bytes lacking a literal of the pattern counts as searched). When the
   * search stopped at `maxMatches`, this and the other counts of files (not `considered`) stop at
   * the file holding the last match kept. When it ran out of time, only files whose matching was
   * done count (not those read and handed on, nor one cut short); the skipped ones read count.
   */
  readonly searched: number;
  /** Files parsed and matched through (the rest of `searched` lacked one of the pattern's literal tokens). */
  readonly parsed: number;
  readonly skippedBinary: number;
  /** Files of a walked folder skipped for being larger than `maxFileBytes`. */
  readonly skippedLarge: number;
  /**
   * Files that could not be read (permission, vanished since the folder was listed, not a
   * regular file), and the first of them with why.
   */
  readonly unreadable: number;
  readonly unreadableExample?: UnreadableFile;
  /** What ignore rules left out (nothing for a named file, which is searched whatever ignores it). */
  readonly ignored: IgnoredSummary;
  /** The size above which a walked folder's files were skipped (the option, or its default). */
  readonly maxFileBytes: number;
  /** Match attempts abandoned at the `$$$` step budget. */
  readonly exhausted: number;
  /** Match attempts abandoned because the code was nested deeper than the matcher's stack allows. */
  readonly tooDeep: number;
  /**
   * Set when the search stopped before the end: it found `maxMatches` (there may be more), or ran
   * out of `timeBudgetMs` (only with `partial`; files and candidates not reached are not in
   * `files`).
   */
  readonly stopped?: StopReason;
}

/** Options of {@link searchFiles}. */
export interface SearchOptions {
  readonly parser: StructuralParser;
  readonly spec: LanguageSpec;
  readonly pattern: CompiledPattern;
  readonly workingDirectory: string;
  /** Absolute file or directory to search. */
  readonly target: string;
  readonly signal?: AbortSignal;
  /**
   * Files of a walked folder larger than this are skipped (counted in `skippedLarge`); default
   * 2 MiB. A file named as `target` is searched up to `maxNamedFileBytes` (16 MiB) instead.
   */
  readonly maxFileBytes?: number;
  /**
   * Stop once this many matches are found (`stopped: "max-matches"`); no bound by default. The
   * ones kept are the first in the search's order (files by path, then position in the file):
   * the first of an unbounded search's list, the same from run to run and whatever the number of
   * workers. (In the file where the bound falls, a flat-chain pattern's runs of siblings are tried
   * after its other matches, so one of them may be left out for a match after it.)
   */
  readonly maxMatches?: number;
  /** Wall-clock time the whole search may take, in ms; default 60 s (`defaultTimeBudgetMs`). */
  readonly timeBudgetMs?: number;
  /**
   * What running out of `timeBudgetMs` does: by default the search fails with `SEARCH_TIMEOUT`
   * (an edit must not be made from part of the matches); with `partial: true` it returns what it
   * found with `stopped: "deadline"`.
   */
  readonly partial?: boolean;
  /**
   * Also find where the statement each match is ends (`StructuralMatch.statementEnd`), for a
   * rewrite to nothing; off by default (it reads a few more nodes per match).
   */
  readonly statements?: boolean;
}

/**
 * What became of a path of a search: searched (its bytes lacking a literal of the pattern),
 * parsed (searched and handed to the parser), skipped as binary or as too large, unreadable.
 */
type Fate = "searched" | "parsed" | "binary" | "large" | "unreadable";

/** A file with a NUL byte among its first this many bytes is binary (as git decides). */
const binaryProbeBytes = 8000;

function isBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, binaryProbeBytes);
  for (let index = 0; index < end; index++) if (bytes[index] === 0) return true;
  return false;
}

/**
 * Searches a file or a directory tree for the pattern: only files of the language, .gitignore
 * honoured, binary and large files of a folder skipped (a named file is searched up to
 * `maxNamedFileBytes`, and is an error when binary or larger), files lacking a literal token of the pattern never
 * decoded nor parsed (the check runs on the bytes). Large searches are parsed on the parser's
 * worker pool, small ones on this thread. Results are ordered by path, then position.
 */
export async function searchFiles(options: SearchOptions): Promise<SearchOutcome> {
  const budgetMs = options.timeBudgetMs ?? defaultTimeBudgetMs;
  const limits: MatchLimits = {
    deadline: Date.now() + budgetMs,
    ...(options.maxMatches === undefined ? {} : { maxMatches: options.maxMatches }),
    ...(options.statements === true ? { statements: true } : {}),
  };
  const outcome = await search(options, limits, true);
  if (outcome.stopped === "deadline" && !options.partial)
    throw new StructuralError({
      code: "SEARCH_TIMEOUT",
      message:
        `the search for \`${options.pattern.source}\` stopped after ${budgetMs / 1000} s, its time budget, before it was done ` +
        `(${outcome.searched} of ${outcome.considered} file(s) searched through, ${outcome.parsed} of them parsed); narrow the pattern (a literal name or keyword) or the path`,
      data: { pattern: options.pattern.source, timeBudgetMs: budgetMs },
    });
  return outcome;
}

async function search(
  options: SearchOptions,
  limits: MatchLimits,
  allowPool: boolean,
): Promise<SearchOutcome> {
  const { parser, spec, pattern, workingDirectory, target, signal } = options;
  const deadline = limits.deadline ?? Infinity;
  const maxMatches = limits.maxMatches ?? Infinity;
  let stopped: StopReason | undefined;
  const maxBytes = options.maxFileBytes ?? defaultMaxFileBytes;
  const info = await stat(target);
  // A file the caller named is searched whatever its size (up to the hard bound) and never
  // skipped silently: a skip would read as "no matches".
  const named = !info.isDirectory();
  const tally = ignoreTally();
  const outerLayers = named ? [] : await outerIgnoreLayers(workingDirectory, target);
  const ofLanguage = (name: string): boolean =>
    [...spec.extensions, ...(spec.sharedExtensions ?? [])].some((extension) =>
      name.toLowerCase().endsWith(extension),
    );
  const paths = !named ? await walkFiles(target, ofLanguage, signal, outerLayers, tally) : [target];
  // Judged from the workspace down: a workspace inside an ignored folder (of a repository around
  // it) is where every search runs, not ignored code asked for.
  const fromWorkspace = relative(workingDirectory, target);
  const rootRule = rootIgnoredBy(
    outerLayers,
    fromWorkspace === ""
      ? 0
      : fromWorkspace.startsWith("..") || isAbsolute(fromWorkspace)
        ? Infinity
        : fromWorkspace.split(sep).length,
  );
  const literals = literalBytes(pattern);
  /** Why the named file cannot be searched (thrown once the read loop is done). */
  let refused: StructuralError | undefined;
  let skippedBinary = 0;
  let skippedLarge = 0;
  let unreadable = 0;
  /** The first file that could not be read (absolute path) and why. */
  let unreadableFirst: { path: string; reason: string } | undefined;
  let searched = 0;
  const candidates: PoolFile[] = [];
  let candidateBytes = 0;
  let parsed = 0;
  // Once the prefiltered files outweigh the pool's costs, they go to the workers as they are read.
  const poolWarm = parser.scanPoolStarted;
  let job: ScanJob | undefined;
  let poolSize = 1;
  const planned = plannable(spec.id, pattern);
  /** Large files kept here while the workers search them in shares (for a whole-file retry). */
  const shared = new Map<string, PoolFile>();
  const hand = (file: PoolFile): void => {
    if (!job) return;
    if (!planned || poolSize < 2 || file.bytes.byteLength < shareMinBytes) return job.add(file);
    shared.set(file.path, file);
    // A copy per share (each is transferred to its worker; the original stays for a retry).
    for (let index = 0; index < poolSize; index++)
      job.add({ ...file, bytes: new Uint8Array(file.bytes), share: { index, count: poolSize } });
  };
  const accept = (file: PoolFile): void => {
    parsed++;
    if (job) return hand(file);
    candidates.push(file);
    candidateBytes += file.bytes.byteLength;
    if (!allowPool || candidateBytes < parser.parallelMinBytes) return;
    if (!poolWarm) {
      parser.scanPool();
      if (candidateBytes < parser.parallelMinBytes * coldPoolFactor) return;
    }
    const pool = parser.scanPool();
    if (!pool) return;
    job = pool.start(spec.id, pattern, signal, limits);
    poolSize = pool.size;
    for (const pending of candidates.splice(0)) hand(pending);
  };
  // Reads are synchronous (an awaited read costs several thread-pool round trips per file, more
  // than the read itself), in slices between which the event loop runs.
  /** What became of each path read, by its place, to count only the files up to a bounded search's stop. */
  const fates: (Fate | undefined)[] = [];
  const cannotRead = (path: string, order: number, reason: string): void => {
    unreadable++;
    unreadableFirst ??= { path, reason };
    fates[order] = "unreadable";
  };
  const readOne = (path: string, order: number): void => {
    let fd: number;
    try {
      // Without blocking: a FIFO named as the search path (or swapped in since the walk) would
      // otherwise block the event loop, every run in the process, on the open and the read.
      fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK);
    } catch (error) {
      return cannotRead(path, order, readError(error));
    }
    try {
      const fileStat = fstatSync(fd);
      if (!fileStat.isFile()) return cannotRead(path, order, "not a regular file");
      if (named && fileStat.size > maxNamedFileBytes) {
        refused = new StructuralError({
          code: "FILE_TOO_LARGE",
          message:
            `'${relative(workingDirectory, path) || path}' is ${byteSize(fileStat.size)}; a file named by path is searched up to ${byteSize(maxNamedFileBytes)} ` +
            `(its syntax tree would not fit in memory); search a smaller file, or grep it as text`,
          data: { path, bytes: fileStat.size, maxBytes: maxNamedFileBytes },
        });
        return;
      }
      if (!named && fileStat.size > maxBytes) {
        skippedLarge++;
        fates[order] = "large";
        return;
      }
      const bytes = readFileSync(fd);
      if (isBinary(bytes)) {
        if (named) {
          refused = new StructuralError({
            code: "FILE_NOT_TEXT",
            message: `'${relative(workingDirectory, path) || path}' is binary (a NUL byte in its first ${binaryProbeBytes} bytes), not source text; name a source file or a folder`,
            data: { path },
          });
          return;
        }
        skippedBinary++;
        fates[order] = "binary";
        return;
      }
      searched++;
      fates[order] = "searched";
      if (!hasLiterals(bytes, literals)) return;
      fates[order] = "parsed";
      accept({ path, bytes, size: fileStat.size, order });
    } catch (error) {
      // Unreadable (vanished, permission): not searched, and said so.
      if (fates[order] === undefined) cannotRead(path, order, readError(error));
    } finally {
      closeSync(fd);
    }
  };
  try {
    let sliceStart = performance.now();
    for (const [order, path] of paths.entries()) {
      signal?.throwIfAborted();
      // The workers found enough (or ran out of time): reading on would only fill their queues.
      if (job?.stopped()) break;
      readOne(path, order);
      if (performance.now() - sliceStart > readSliceMs) {
        await yieldToEventLoop();
        sliceStart = performance.now();
        if (Date.now() >= deadline) {
          stopped = "deadline";
          break;
        }
      }
    }
  } finally {
    job?.close();
  }
  if (refused) throw refused;

  let scans: FileScan[];
  if (job) {
    let result: ScanJobResult;
    try {
      result = await job.done;
    } catch {
      signal?.throwIfAborted();
      // A worker failed: start afresh on this thread (the bytes went to the workers), within what
      // is left of the same time budget.
      parser.resetScanPool();
      return search(options, limits, false);
    }
    // A worker that did not answer is stuck on its file: it goes, and the search is not run again
    // here (it would take as long, on the thread that serves every other call).
    if (result.timedOut) parser.resetScanPool();
    stopped ??= result.stopped;
    scans = await joinShares(
      result.scans,
      shared,
      (file) => {
        const bytes = Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
        return scanBytes(parser, spec, pattern, file.path, bytes, { limits: { ...limits, signal } });
      },
      result.stopped,
    );
  } else {
    scans = [];
    let found = 0;
    let sliceStart = performance.now();
    for (const file of candidates) {
      signal?.throwIfAborted();
      if (stopped || found >= maxMatches) break;
      const bytes = Buffer.from(file.bytes.buffer, file.bytes.byteOffset, file.bytes.byteLength);
      // Each file to the whole bound, not what is left of it: what a file's matching stopped at
      // the bound gives depends on the bound (a flat-chain pattern's runs are tried last), so
      // the matches kept would depend on what came before the file (on the pool, in its batch).
      const scan = await scanBytes(parser, spec, pattern, file.path, bytes, {
        limits: { ...limits, signal },
      });
      scans.push(scan);
      found += scan.matches.length;
      stopped ??= scan.stopped;
      // Each file is parsed and matched in one go: let other calls in between files.
      if (performance.now() - sliceStart > readSliceMs) {
        await yieldToEventLoop();
        sliceStart = performance.now();
      }
    }
  }
  // Bounded: the first `maxMatches` matches in the files' order (that of `paths`, by path), the
  // same whichever worker finished first or how many there are; what was searched past the file
  // holding the last of them is dropped, and the counts stop at that file.
  const orderOf = new Map(paths.map((path, order) => [path, order]));
  scans.sort((a, b) => (orderOf.get(a.path) ?? 0) - (orderOf.get(b.path) ?? 0));
  // A file cut short by the time budget before the bound is reached (the large file searched
  // again whole on this thread after the workers were done, as the budget ran out) leaves the
  // search partial: the matches after it are not the first ones.
  if (stopped !== "deadline" && maxMatches < Infinity) {
    let kept = 0;
    for (const [index, scan] of scans.entries()) {
      if (scan.stopped === "deadline") {
        stopped = "deadline";
        break;
      }
      if (kept + scan.matches.length < maxMatches) {
        kept += scan.matches.length;
        continue;
      }
      scans[index] = { ...scan, matches: scan.matches.slice(0, maxMatches - kept), stopped: "max-matches" };
      scans.length = index + 1;
      stopped = "max-matches";
      const through = orderOf.get(scan.path) ?? paths.length - 1;
      const upTo = fates.slice(0, through + 1);
      const count = (...fate: Fate[]): number =>
        upTo.reduce((sum, f) => sum + (f !== undefined && fate.includes(f) ? 1 : 0), 0);
      searched = count("searched", "parsed");
      parsed = count("parsed");
      skippedBinary = count("binary");
      skippedLarge = count("large");
      unreadable = count("unreadable");
      // Files are read in order: the first unreadable one is in or past the files counted.
      if (unreadable === 0) unreadableFirst = undefined;
      break;
    }
  }
  if (!stopped && scans.some((scan) => scan.stopped === "deadline")) stopped = "deadline";
  if (stopped === "deadline") {
    // Searched are the files read and ruled out by their bytes, and those whose matching was done:
    // not those read and handed on but never matched, nor one cut short.
    const done = new Set(scans.filter((scan) => scan.stopped !== "deadline").map((scan) => scan.path));
    parsed = paths.reduce(
      (sum, path, order) => sum + (fates[order] === "parsed" && done.has(path) ? 1 : 0),
      0,
    );
    searched = parsed + fates.reduce((sum, fate) => sum + (fate === "searched" ? 1 : 0), 0);
  }
  const files: FileMatches[] = [];
  let exhausted = 0;
  let tooDeep = 0;
  for (const scan of scans) {
    exhausted += scan.exhausted;
    tooDeep += scan.tooDeep;
    stopped ??= scan.stopped;
    if (scan.matches.length === 0) continue;
    files.push({
      path: scan.path,
      relativePath: relative(workingDirectory, scan.path).split(sep).join("/"),
      text: scan.text,
      hash: scan.hash,
      notUtf8: scan.notUtf8,
      matches: scan.matches,
    });
  }
  files.sort((a, b) => (a.relativePath < b.relativePath ? -1 : a.relativePath > b.relativePath ? 1 : 0));
  // Ignored folders are not entered by the walk; when the tally is shown (see `ignoredShown` of
  // ast_grep), those without a file of the language are dropped from it: they left out nothing.
  if (tally.folders > 0 && (searched === 0 || rootRule))
    await settleIgnoredFolders(tally, ofLanguage, signal);
  const shown = (path: string): string => {
    const rel = relative(workingDirectory, path);
    return rel === "" || rel.startsWith("..") || isAbsolute(rel) ? path : rel.split(sep).join("/");
  };
  const ignored: IgnoredSummary = {
    files: tally.files,
    folders: tally.folders,
    rules: [...tally.byRule.values()].map((entry) => ({
      source: shown(entry.source),
      line: entry.line,
      text: entry.text,
      files: entry.files,
      folders: entry.folders,
      example: shown(entry.example),
      exampleIsFolder: entry.exampleIsFolder,
      namingSearches: entry.namingSearches,
      ...(entry.fileInExample === undefined ? {} : { fileInExample: shown(entry.fileInExample) }),
    })),
    ...(rootRule
      ? {
          root: {
            source: rootRule.source === undefined ? "an ignore file" : shown(rootRule.source),
            line: rootRule.rule.line,
            text: rootRule.rule.text,
          },
        }
      : {}),
  };
  return {
    files,
    considered: paths.length,
    searched,
    parsed,
    skippedBinary,
    skippedLarge,
    unreadable,
    ...(unreadableFirst
      ? { unreadableExample: { path: shown(unreadableFirst.path), reason: unreadableFirst.reason } }
      : {}),
    ignored,
    maxFileBytes: maxBytes,
    exhausted,
    tooDeep,
    ...(stopped ? { stopped } : {}),
  };
}
