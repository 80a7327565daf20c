import { existsSync } from "node:fs";
import { basename, extname, sep } from "node:path";
import type { Diagnostic } from "vscode-languageserver-protocol";
import { errorsAndWarnings } from "../format/diagnostics.js";
import { serverKey, type LspSupervisor } from "../supervisor/supervisor.js";
import type { LanguageClient } from "../client/language-client.js";
import { endSearch } from "../actions/cross-file-search.js";
import {
  forgetLooks,
  goneSinceLastLook,
  noteLook,
  recordAlongside,
  beyondAll,
  type DiagnosticsLedger,
  type DiagnosticsLooks,
} from "./diagnostics-ledger.js";
import { canonicalPath } from "../files/canonical-path.js";
import { FileKeyedSet } from "../files/file-keyed.js";
import { aliasesOf, dependantsOf, importTest } from "./importers.js";
import { checkedText } from "./look-lines.js";
import { namesTouched } from "./touched-names.js";
import { linkedSignal, untilAborted, withBound } from "./with-bound.js";
import type { WriteCheck } from "./write-diagnostics-section.js";

/** Per server publishing for files not open, its publish mark before the write (see `unopenedPublishes`). */
export type PublishMarks = ReadonlyMap<string, number>;

/** What {@link lookBefore} found and opened. */
export interface Before {
  /** Per server publishing for files not open, its publish mark before the write. */
  readonly marks: PublishMarks;
  /**
   * Servers whose publishes since their files' last looks are all still to be compared (a pass
   * had not ended): a file never looked at there is compared whatever its publish's mark.
   */
  readonly carried: ReadonlySet<string>;
  /**
   * Servers whose pass for the changes made outside the tools (told just before the write) had
   * not ended: what their files get after the look may come from those changes too.
   */
  readonly unsettled: ReadonlySet<string>;
  /** The importers opened for this write, held until {@link releaseImporters}. */
  readonly opened: Map<LanguageClient, string[]>;
  /** The servers whose importers were looked for (running before the write). */
  readonly covered: Set<LanguageClient>;
  /**
   * Per written file never looked at in the run, what its server had for it before the write
   * (it was open there: a question or a search opened it); see {@link writtenBefore}.
   */
  readonly written: ReadonlyMap<string, readonly Diagnostic[]>;
  /** The written files whose importers a bound left out of those opened, with the bound. */
  readonly cut: ImportersCut[];
}

/** Written files (absolute paths) whose importers were opened only up to `bound` (a phrase). */
export interface ImportersCut {
  readonly files: readonly string[];
  readonly bound: string;
}

/**
 * Most diagnostics listed for a file checked alongside a write for the first time: not known to
 * be the write's, they are a pointer, not a report (past it, only those naming what it changed).
 */
const firstLookRows = 3;

/** Most files importing the written ones opened for one write. */
const importerLimit = 10;

/** Most files open on other servers (other roots) and importing the written ones checked per write. */
const elsewhereLimit = 10;

/**
 * The files a write of `files` can break or mend that are open: those open on the written files'
 * servers (see `LspSupervisor.openAlongside`), after those open on other running servers of
 * their languages — other roots of a monorepo, whose servers read the written files from disk —
 * that import one of them (by their text; see `importTest`; at most 10).
 */
export function openAlongside(supervisor: LspSupervisor, files: readonly string[]): string[] {
  return [...openElsewhere(supervisor, files), ...supervisor.openAlongside(files)];
}

/** The files open on other roots' servers that import one of `files` (see {@link openAlongside}). */
function openElsewhere(supervisor: LspSupervisor, files: readonly string[]): string[] {
  const own = new Set(files.map((file) => supervisor.runningClientFor(file)));
  // A written file open under another path (through a symlink) is still the written file.
  const written = new FileKeyedSet(files);
  const found: string[] = [];
  for (const client of supervisor.runningClients()) {
    if (own.has(client)) continue;
    const tests = files.flatMap((file) => {
      if (!client.spec.extensions.includes(extname(file).toLowerCase())) return [];
      const test = importTest(client.spec.language, file);
      return test ? [test] : [];
    });
    if (tests.length === 0) continue;
    for (const uri of client.openUris()) {
      const path = supervisor.pathOf(uri);
      if (written.has(path) || !isProjectFile(supervisor, path)) continue;
      // Served there (its own root), not a file of the written ones' roots it happens to have open.
      if (supervisor.runningClientFor(path) !== client) continue;
      let text: string;
      try {
        text = supervisor.texts.read(path).text;
      } catch {
        continue;
      }
      if (!tests.some((test) => test(text, path))) continue;
      found.push(path);
      if (found.length >= elsewhereLimit) return found;
    }
  }
  return found;
}

/** Inside the working directory and not under node_modules. */
function isProjectFile(supervisor: LspSupervisor, path: string): boolean {
  return (
    path.startsWith(`${supervisor.workingDirectory}${sep}`) && !path.includes(`${sep}node_modules${sep}`)
  );
}

/**
 * Before a write is sent to the servers: records what the files it did not change had, for
 * those not looked at yet, so that only what the write adds to them is reported.
 *
 * - On servers that check only the files open on them (tsserver, pyright, clangd), the files
 *   importing a written one, directly or through re-exports or includes (see `dependantsOf`; at
 *   most 10 per write, a bound that cuts them recorded in `cut`) are opened, held until
 *   {@link releaseImporters}. What such a file had before can be read only while its server
 *   still has the written file's old text (it was open there); otherwise the file's first check
 *   says that what it lists may predate the write.
 * - The files open on the servers of `files` (at most `limit`, most recently opened) are read as
 *   their server had them before `started` (see `LanguageClient.currentDiagnostics`).
 * - The files not open that a server publishes for (gopls) are read from its publishes.
 *
 * All of it within `boundMs`, and until `signal` aborts: then it returns what it has, and nothing
 * more is looked at or opened (a look taken after the write was sent would pass the write's own
 * diagnostics off as older).
 */
export async function lookBefore(
  supervisor: LspSupervisor,
  files: readonly string[],
  looks: DiagnosticsLooks,
  options: {
    started: number;
    /** How long the look may hold the write back (see `DiagnosticsOnWriteOptions.lookBeforeMs`). */
    boundMs: number;
    limit: number;
    signal: AbortSignal;
    /** Files other than `files` not to send either (other writes being checked), read when needed. */
    holdBack: () => readonly string[];
    /**
     * Servers already sent a written file's new text (by a read call while the write's tool ran,
     * or since): what their files have now is not known to be from before the write. Asked
     * again before each look is taken and after each look read.
     */
    sentAlready?: () => ReadonlySet<LanguageClient>;
  },
): Promise<Before> {
  const ms = options.boundMs;
  const phase = linkedSignal(options.signal, ms);
  try {
    return await lookWithin(supervisor, files, looks, {
      ...options,
      deadline: performance.now() + ms,
      signal: phase.signal,
    });
  } finally {
    // What is still under way stops here: a look after the write was sent is none from before.
    phase.end();
  }
}

/** The time and files the look before a write works within (see {@link lookBefore}). */
interface LookWindow {
  /** When the call started (`performance.now()`): publishes before it tell the state before. */
  readonly started: number;
  /** The end of the look (`performance.now()`). */
  readonly deadline: number;
  /** Most files open alongside read. */
  readonly limit: number;
  readonly signal: AbortSignal;
  /** Files other than the written ones not to send either (other writes being checked). */
  readonly holdBack: () => readonly string[];
  /** See {@link lookBefore}'s option. */
  readonly sentAlready?: (() => ReadonlySet<LanguageClient>) | undefined;
}

/** {@link lookBefore}'s work, until `options.deadline` (`performance.now()`) or `options.signal`. */
async function lookWithin(
  supervisor: LspSupervisor,
  files: readonly string[],
  looks: DiagnosticsLooks,
  options: LookWindow,
): Promise<Before> {
  const { signal } = options;
  const written = new FileKeyedSet(files);
  // What changed besides this write (a shell command, since the last call) is sent first, so
  // that what the other files have is what they had before the write, not mixed with it.
  const { told } = await untilAborted(
    supervisor.catchUp(files, () => [...files, ...options.holdBack()]).then((told) => ({ told })),
    signal,
  );
  const caughtUp = told ?? new Set<LanguageClient>();
  // A server checking the whole workspace publishes for what it was told (its pass for the
  // changes on disk): awaited, so that those publishes are the state before the write. So is
  // its first check of the workspace (a question just started it): until that ends, a file not
  // published for yet is not known to be clean, and the write's break of it would pass for what
  // it had.
  const catchingUp = [...caughtUp].some((client) => client.spec.publishesWorkspace);
  const loading = supervisor.unopenedPublishes(files).some(({ mark }) => mark === undefined);
  const unfinished =
    catchingUp || loading
      ? await supervisor.awaitDiagnosticsWork(
          files,
          Date.now() + Math.max(0, options.deadline - performance.now()),
        )
      : [];
  const catching = catchingUp ? unfinished : [];
  const marks = new Map<string, number>();
  const carried = new Set<string>();
  const unsettled = new Set(catching.map(({ server }) => server));
  // Its first check of the workspace did not end within the look: what it publishes is compared
  // at the check whatever its mark, as checked for the first time (see `checkAlongside`).
  for (const server of supervisor.unopenedPublishes(files)) {
    if (server.mark === undefined && unfinished.some(({ server: key }) => key === server.server)) {
      marks.set(server.server, -Infinity);
      carried.add(server.server);
    }
  }
  // Cancelled or out of time meanwhile: nothing is looked at any more. The files open alongside
  // keep no look from before it (but those an earlier write's check still owes): a change made
  // outside the tools may not have been learnt of, or sent just now, and a look from before it
  // would pass that change's breaks off as this write's. Their check lists what is new to the
  // run, saying some may predate the write.
  if (signal.aborted) {
    const held = new Set(options.holdBack());
    for (const file of openAlongside(supervisor, files)) {
      if (!written.has(file) && !held.has(file) && !looks.pending.has(file)) forgetLooks(looks, file);
    }
    return { marks, carried, unsettled, opened: new Map(), covered: new Set(), written: new Map(), cut: [] };
  }
  const sentKeys = new Set([...(options.sentAlready?.() ?? [])].map(serverKey));
  for (const server of supervisor.unopenedPublishes(files)) {
    if (server.mark === undefined) continue;
    marks.set(server.server, server.mark);
    // A pass after an earlier write (or the one just caused) had not ended, or the server has
    // the write already: what it publishes is compared at this write's check, never taken as
    // the state before it.
    if (
      looks.pending.has(server.server) ||
      sentKeys.has(server.server) ||
      catching.some(({ server: key }) => key === server.server)
    ) {
      carried.add(server.server);
      continue;
    }
    for (const { file, diagnostics, mark } of server.files) {
      if (written.has(file)) continue;
      const since = looks.published.get(file);
      if (looks.files.has(file) && !(since !== undefined && mark > since)) continue;
      noteLook(looks, file, errorsAndWarnings(diagnostics), undefined, () => checkedText(supervisor, file));
      looks.published.set(file, mark);
    }
  }
  // The files open now first: finding importers tells the server of files changed on disk
  // (pyright would read the written file's new text before their look).
  const writtenLooks = await writtenBefore(supervisor, files, looks, options);
  await baseline(supervisor, files, looks, { ...options, caughtUp });
  // Finding importers tells the servers of the written files changed on disk (this check's own
  // doing): from here on, only what was sent before counts as sent by others.
  const sentBefore = options.sentAlready?.() ?? new Set<LanguageClient>();
  const covered = new Set<LanguageClient>();
  const opened = new Map<LanguageClient, string[]>();
  const cut: ImportersCut[] = [];
  const { unknown } = await untilAborted(
    openImporters(supervisor, files, looks, {
      opened,
      covered,
      cut,
      signal,
      holdBack: () => options.holdBack().filter((file) => !written.has(file)),
    }),
    signal,
  );
  const importers = new Set([...opened.values()].flat().map((uri) => supervisor.pathOf(uri)));
  if (unknown && [...importers].some((file) => !unknown.has(file))) {
    await baseline(
      supervisor,
      files,
      looks,
      { ...options, caughtUp: new Set(), sentAlready: () => sentBefore },
      (file) => importers.has(file) && !unknown.has(file),
    );
  }
  // To be compared after the write: should its check not get to them (the bound, a cancel),
  // their looks from before it stay for the next write's check.
  // All of them, not only those the check compares (the most recently opened): a look from
  // before this write is never replaced by one taken after it without a comparison between.
  for (const file of openAlongside(supervisor, files)) if (looks.files.has(file)) looks.pending.add(file);
  for (const server of marks.keys()) looks.pending.add(server);
  return { marks, carried, unsettled, opened, covered, written: writtenLooks, cut };
}

/**
 * What the written files never looked at in the run had before the write, read as their servers
 * have them: open there (a question or a search opened them) and not yet sent the write, only
 * publishes from before the call counting where the server reads files from disk on its own.
 * A file whose state before cannot be read is left out: its check lists all it has, saying
 * some may predate the write.
 */
async function writtenBefore(
  supervisor: LspSupervisor,
  files: readonly string[],
  looks: DiagnosticsLooks,
  options: LookWindow,
): Promise<Map<string, readonly Diagnostic[]>> {
  const found = new Map<string, readonly Diagnostic[]>();
  const ms = options.deadline - performance.now();
  if (ms <= 0 || options.signal.aborted) return found;
  const sent = options.sentAlready?.() ?? new Set<LanguageClient>();
  const reading = files.flatMap((file) => {
    if (looks.files.has(file)) return [];
    const client = supervisor.runningClientFor(file);
    if (!client || sent.has(client) || !client.isOpen(supervisor.uriOf(file))) return [];
    return [{ file, client }];
  });
  await untilAborted(
    Promise.all(
      reading.map(async ({ file, client }) => {
        const diagnostics = await supervisor
          .currentDiagnostics(file, ms, options.started, readsOnItsOwn(supervisor, client, file))
          .catch(() => undefined);
        // Its server got the write meanwhile (a read call): what it has may be the write's.
        if (!diagnostics || options.signal.aborted || performance.now() > options.deadline) return;
        if (options.sentAlready?.().has(client)) return;
        found.set(file, errorsAndWarnings(diagnostics));
      }),
    ),
    options.signal,
  );
  return found;
}

/**
 * Reads, for the files open on the servers of `files` (that pass `only`; at most
 * `options.limit`, most recently opened), what they had before the write, until
 * `options.deadline` (a `performance.now()` time) or `options.signal`:
 *
 * - A file looked at before keeps its look while its server was sent nothing since that other
 *   files' diagnostics may depend on (see `LanguageClient.changesMark`); so does one whose
 *   check after an earlier write did not come in time (still to be compared).
 * - A file not looked at yet, on a server not sent anything just now (`options.caughtUp`), is
 *   read as its server had it before `options.started` (see `LanguageClient.currentDiagnostics`).
 * - Otherwise its diagnostics are asked afresh, nothing else synced (the write is not sent yet).
 * - A server reading files from disk on its own (see `ServerSpec.readsFromDisk`) may have read
 *   a written one's new text already: only its publishes from before the call count.
 * - A look that no longer holds and is not taken again in time (or the file is past the limit)
 *   is dropped: the file's next check lists all it has, saying some may predate the write.
 */
async function baseline(
  supervisor: LspSupervisor,
  files: readonly string[],
  looks: DiagnosticsLooks,
  options: LookWindow & { caughtUp: ReadonlySet<LanguageClient> },
  only: (file: string) => boolean = () => true,
): Promise<void> {
  const readsDisk = new Set<LanguageClient>();
  const own = new Set<LanguageClient>();
  for (const written of [...files, ...options.holdBack()]) {
    const client = supervisor.runningClientFor(written);
    if (client) own.add(client);
    if (client && readsOnItsOwn(supervisor, client, written)) readsDisk.add(client);
  }
  // Another root's server reads the written files from disk, not open there (see openAlongside).
  const readsElsewhere = (client: LanguageClient) =>
    !own.has(client) && files.some((written) => readsOnItsOwn(supervisor, client, written));
  // Another write's file is that write's: asking it afresh would send its new text.
  const held = new Set(options.holdBack());
  const sent = options.sentAlready?.() ?? new Set<LanguageClient>();
  const candidates = openAlongside(supervisor, files).filter(
    (file) => only(file) && !looks.pending.has(file) && !held.has(file),
  );
  const toRead = candidates.flatMap((file) => {
    const client = supervisor.runningClientFor(file);
    if (!client) return [];
    // Its server has the write already: no look now is from before it. Dropped, the file's
    // check lists all it has, saying some may predate the write.
    if (sent.has(client)) {
      forgetLooks(looks, file);
      return [];
    }
    const mark = client.changesMark();
    const looked = looks.files.has(file);
    const caughtUp = options.caughtUp.has(client);
    if (looked && !caughtUp && looks.marks.get(file) === mark) return [];
    return [
      { file, client, mark, looked, caughtUp, readsDisk: readsDisk.has(client) || readsElsewhere(client) },
    ];
  });
  // Past the limit, or not read in time: a look that no longer holds is dropped (the file's
  // next check lists all it has, saying some may predate the write), never kept as "before".
  const past = Math.max(0, toRead.length - options.limit);
  const reading = toRead.slice(past);
  for (const { file, looked } of toRead.slice(0, past)) if (looked) forgetLooks(looks, file);
  const ms = options.deadline - performance.now();
  const read = new Set<string>();
  if (ms > 0 && !options.signal.aborted && reading.length > 0) {
    // An answer that comes later is no look from before the write.
    const inTime = () => !options.signal.aborted && performance.now() < options.deadline;
    await untilAborted(
      Promise.all(
        reading.map(async ({ file, client, mark, looked, caughtUp, readsDisk }) => {
          let diagnostics: readonly Diagnostic[] | undefined;
          if (!looked && !caughtUp) {
            diagnostics = await supervisor.currentDiagnostics(file, ms, options.started, readsDisk);
          } else if (!readsDisk) {
            const asked = await supervisor
              .diagnostics(file, { save: false, keep: false, resync: false, timeoutMs: ms })
              .catch(() => undefined);
            if (asked?.fresh) diagnostics = asked.diagnostics;
          }
          // Its server got the write meanwhile (a read call): the look may have it already.
          if (!diagnostics || !inTime() || options.sentAlready?.().has(client)) return {};
          noteLook(looks, file, errorsAndWarnings(diagnostics), mark, () => checkedText(supervisor, file));
          read.add(file);
          return {};
        }),
      ),
      options.signal,
    );
  }
  for (const { file, looked } of reading) if (looked && !read.has(file)) forgetLooks(looks, file);
}

/**
 * Whether `client` may have read the written file's new text from disk on its own, before it
 * was sent (see `ServerSpec.readsFromDisk`).
 */
function readsOnItsOwn(supervisor: LspSupervisor, client: LanguageClient, written: string): boolean {
  switch (client.spec.readsFromDisk) {
    case "files-not-open": {
      if (!client.isOpen(supervisor.uriOf(written))) return true;
      // Written through a symlinked file: what imports the file it points to is read from disk;
      // so is what imports it by the name of a symlink to it (`./alias`) not open there.
      const real = canonicalPath(written);
      if (basename(real) !== basename(written) && !client.isOpen(supervisor.uriOf(real))) return true;
      return aliasesOf(client.rootLinks(), written).some((alias) => !client.isOpen(supervisor.uriOf(alias)));
    }
    case "included-files":
      return (client.spec.includedExtensions ?? []).includes(extname(written).toLowerCase());
    default:
      return false;
  }
}

/**
 * Opens the files importing the written ones on servers that check only their open files (see
 * {@link lookBefore}), adding them to `opened` per server. Returns that, and those whose state
 * before the write cannot be read (the written file was not open on their server: it reads the
 * new text from disk). Servers in `into.covered` are skipped, those looked at are added: called
 * again after the write's check, it opens only those of a server the write started.
 */
export async function openImporters(
  supervisor: LspSupervisor,
  files: readonly string[],
  looks: DiagnosticsLooks,
  into: {
    opened?: Map<LanguageClient, string[]>;
    covered: Set<LanguageClient>;
    /** Where a bound left importers out, added to (see {@link Before.cut}). */
    cut?: ImportersCut[];
    signal?: AbortSignal;
    /** Other writes' files: their disk events are not told to the servers now. */
    holdBack?: () => readonly string[];
  },
): Promise<{ opened: Map<LanguageClient, string[]>; unknown: Set<string> }> {
  const opened = into.opened ?? new Map<LanguageClient, string[]>();
  const unknown = new Set<string>();
  const writtenFiles = new FileKeyedSet(files);
  let budget = importerLimit;
  // Per server, the written files it serves whose importers were not looked for before.
  const byClient = new Map<LanguageClient, string[]>();
  for (const file of files) {
    const client = supervisor.runningClientFor(file);
    // Looked for before the write already.
    if (!client || client.spec.publishesWorkspace || into.covered.has(client)) continue;
    byClient.set(client, [...(byClient.get(client) ?? []), file]);
  }
  for (const [client, served] of byClient) {
    if (into.signal?.aborted) break;
    // The bound spent on an earlier server of this write: no scan, no cut to report.
    if (budget <= 0) break;
    into.covered.add(client);
    // Every file of this write on this server open there: it has their old texts until they are
    // sent. One not open is read from disk once the server hears of the change (finding the
    // importers tells it), so its breakage would pass for the importers' earlier state.
    const oldTextThere = files.every(
      (other) =>
        supervisor.runningClientFor(other) !== client ||
        (client.isOpen(supervisor.uriOf(other)) && !readsOnItsOwn(supervisor, client, other)),
    );
    const heldBack = new Set(into.holdBack?.() ?? []);
    // Another write's file is that write's to send: opening it would send its new text.
    // Those reaching a written file through a barrel's re-export or a header follow the direct ones.
    const found = await dependantsOf(client, served, budget, { heldBack });
    if (found.cut !== undefined) into.cut?.push({ files: served, bound: found.cut });
    const importers = found.files.filter((importer) => !written(importer) && !heldBack.has(importer));
    budget -= importers.length;
    for (const importer of importers) {
      if (into.signal?.aborted) break;
      // Another root's server (a nested project) would be started for it: not this one's.
      if (supervisor.runningClientFor(importer) !== client) continue;
      // Named by a write that began meanwhile.
      if (into.holdBack?.().includes(importer)) continue;
      try {
        const document = await supervisor.open(importer, false, undefined, true);
        if (document.client !== client || !client.searchHolds.hold(document.uri)) continue;
        if (into.signal?.aborted) {
          // Opened after the check let go of its importers: parked at once, as they were.
          await endSearch(client, { notes: [], opened: [document.uri] });
          break;
        }
        opened.set(client, [...(opened.get(client) ?? []), document.uri]);
        // Not open until now: what was looked at before may be out of date.
        forgetLooks(looks, importer);
        if (!oldTextThere) unknown.add(importer);
      } catch {
        // Unreadable now: not checked.
      }
    }
  }
  return { opened, unknown };

  function written(path: string): boolean {
    return writtenFiles.has(path);
  }
}

/** Lets go of the importers {@link lookBefore} opened (parked: see `endSearch`). */
export async function releaseImporters(before: Before): Promise<void> {
  for (const [client, opened] of before.opened) {
    await endSearch(client, { notes: [], opened: [...opened] }).catch(() => undefined);
  }
}

/**
 * After the written files were checked (`checkedFiles`, fresh): the files their servers hold
 * that the write did not change. Those open there are checked again (at most `limit`, within
 * the bound; those not checked in time are named); those not open that a server published for
 * after its mark (gopls: the packages an edit affects) are read from those publishes. Errors and
 * warnings new since a file was last looked at are what the write broke in it, and those
 * reported earlier and now gone what it mended. A file open without a look from before the
 * write lists what was not reported before, marked `uncompared` (looked at earlier): some may
 * predate the write; one never looked at in the run (`firstLook`) lists at most 3, past that
 * only those naming what the write changed, and counts the rest (recorded as told of). One not open and never
 * published for was clean.
 */
export async function checkAlongside(
  supervisor: LspSupervisor,
  checkedFiles: readonly string[],
  state: {
    ledger: DiagnosticsLedger;
    looks: DiagnosticsLooks;
    marks: PublishMarks;
    /** See {@link Before.carried}. */
    carried: ReadonlySet<string>;
    /** See {@link Before.unsettled}. */
    unsettled?: ReadonlySet<string>;
    /** Every file the write changed (deleted ones too). */
    written: readonly string[];
    deadline: number;
    boundMs: number;
    limit: number;
    /** Aborted, nothing is recorded (the write's result went without its check). */
    signal: AbortSignal;
    /** Other writes' files, being made or checked: not sent by these checks (theirs to send). */
    holdBack?: () => readonly string[];
    /** The names the write changed in the written files (see `touchedNames`). */
    touched?: ReadonlySet<string>;
  },
): Promise<WriteCheck[]> {
  if (checkedFiles.length === 0 || state.signal.aborted) return [];
  // gopls publishes the written file's version before the other files of its pass. A pass not
  // ended by the deadline: its files not open are not compared (its publishes are not all in),
  // and it is said; those open get no time left and are named as not checked again.
  const unfinished = await supervisor.awaitDiagnosticsWork(checkedFiles, state.deadline);
  const pending = new Set(unfinished.map(({ server }) => server));
  // A written file open under another path (through a symlink) is no file it did not change.
  const written = new FileKeyedSet(state.written);
  // Another write's file is that write's to check: looking at it would send its change.
  const held = new Set(state.holdBack?.() ?? []);
  const open = openAlongside(supervisor, checkedFiles).filter(
    (file) => existsSync(file) && !written.has(file) && !held.has(file),
  );
  const results = await Promise.all(
    open.slice(-state.limit).map(async (file) => {
      const remaining = state.deadline - Date.now();
      if (remaining <= 0) return { file, fresh: undefined };
      try {
        const fresh = await withBound(
          // Checked, not asked about: an importer or a search's document stays parked.
          supervisor.diagnostics(file, {
            save: false,
            keep: false,
            timeoutMs: Math.max(100, remaining - 100),
            ...(state.holdBack ? { holdBack: state.holdBack } : {}),
          }),
          remaining,
          state.boundMs,
        );
        return { file, fresh };
      } catch {
        return { file, fresh: undefined };
      }
    }),
  );
  if (state.signal.aborted) return [];
  /** `unsettled`: its server was still checking changes made outside the tools (see `Before`). */
  const compare = (file: string, diagnostics: readonly Diagnostic[], unsettled = false): WriteCheck[] => {
    const current = errorsAndWarnings(diagnostics);
    // No look from before the write (opened for this write after its server read the new text,
    // its look did not come in time, or its server was sent other changes first): what was not
    // reported before is listed, saying some may predate the write, and whether the run had
    // looked at the file earlier.
    const noLook = !state.looks.files.has(file);
    const lookedEarlier = state.looks.everLooked.has(file) || state.ledger.has(file);
    let text: string | undefined;
    const checked = () => (text ??= checkedText(supervisor, file));
    // Neither reported nor seen at the file's last look (a look dropped since still tells what
    // predates everything after it), but for what stood on lines the file no longer has: fixed
    // since (a change outside the tools), so what has the same key now came back.
    const before = noLook
      ? beyondAll(
          [state.ledger, state.looks.lastSeen],
          file,
          current,
          goneSinceLastLook(state.looks, file, checked),
        )
      : [];
    const sinceLast = noteLook(state.looks, file, current, supervisor.changesMark(file), checked);
    // Never looked at in the run: nothing tells what it had before the write, and a file with
    // many old errors must not be listed whole as the write's. A few are listed whole; of more,
    // only those naming something the write changed (at most a few), the rest counted. The look
    // just taken is its baseline from now on.
    const firstLook = noLook && !lookedEarlier;
    const likely =
      !firstLook || before.length <= firstLookRows
        ? before
        : before
            .filter((diagnostic) => namesTouched(diagnostic, state.touched ?? new Set()))
            .slice(0, firstLookRows);
    const introduced = firstLook ? likely : noLook ? before : sinceLast;
    const unattributed = firstLook ? before.length - likely.length : 0;
    // Those counted are recorded as reported with those listed: the model was told they are
    // there (and where to list them), and none is new to a later write.
    const gone = recordAlongside(state.ledger, file, current, firstLook ? before : introduced);
    const display = supervisor.display(file);
    const caveat = noLook
      ? lookedEarlier
        ? { uncompared: true as const }
        : { firstLook: true as const, unattributed }
      : unsettled
        ? { unsettled }
        : {};
    return introduced.length > 0 || gone > 0 || unattributed > 0
      ? [{ kind: "alongside", file, display, introduced, gone, ...caveat }]
      : [];
  };
  const heldNow = new Set(state.holdBack?.() ?? []);
  const checks = results.flatMap(({ file, fresh }): WriteCheck[] => {
    if (fresh?.fresh) return compare(file, fresh.diagnostics);
    // Named by a write that began while it was asked: left to that write's check.
    if (heldNow.has(file)) return [];
    // Still to be compared: its look from before stays until then.
    state.looks.pending.add(file);
    return [{ kind: "alongside-unchecked", file, display: supervisor.display(file) }];
  });
  for (const { server, command } of unfinished) {
    state.looks.pending.add(server);
    checks.push({ kind: "alongside-pending", display: command });
  }
  const openSet = new Set(open);
  for (const server of supervisor.unopenedPublishes(checkedFiles)) {
    const mark = state.marks.get(server.server);
    // Started by this write, or still in its first check of the workspace: nothing to compare.
    if (mark === undefined || pending.has(server.server)) continue;
    state.looks.pending.delete(server.server);
    for (const { file, diagnostics, mark: at } of server.files) {
      if (written.has(file) || openSet.has(file)) continue;
      // Compared up to the publish its last look read; a later one is this write's, or came
      // after an earlier write's check ended (a pass that had not finished): compared now.
      if (at <= (state.looks.published.get(file) ?? (state.carried.has(server.server) ? -Infinity : mark))) {
        continue;
      }
      // Never published for before: clean, as far as the server said, unless publishes were
      // dropped past the server's bound (then as checked for the first time).
      // A server whose pass had not ended (carried) may have published it before the write
      // without it being looked at: as checked for the first time then.
      if (!state.looks.files.has(file) && server.complete && !state.carried.has(server.server)) {
        noteLook(state.looks, file, []);
      }
      state.looks.published.set(file, at);
      checks.push(...compare(file, diagnostics, state.unsettled?.has(server.server) ?? false));
    }
  }
  return checks;
}
