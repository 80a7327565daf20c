import { existsSync } from "node:fs";
import { dirname, extname, join, normalize } from "node:path";
import { pathToFileURL } from "node:url";
import { diskChangesKept } from "../client/disk-changes.js";
import type { LanguageClient } from "../client/language-client.js";
import { tsserverPullAvailable } from "../client/tsserver-diagnostics.js";
import {
  heldFiles,
  tsserverName,
  tsserverProjectFiles,
  tsserverReload,
  type HeldFiles,
} from "../client/tsserver-reload.js";
import { someOf } from "../format/some-of.js";
import { outsideUnwatchedText } from "../client/outside-folders.js";
import { awaitAnalysed } from "./analysed-documents.js";
import type { ActionContext } from "./action-context.js";
import { wholeName } from "../positions/identifier-chars.js";

/** Most files opened for one search on a server that sees only its open files. */
export const searchOpenLimit = 40;

/**
 * Most documents left open (parked) after the searches that opened them ended, so that the next
 * search naming them does not open and parse them again: one search's worth.
 */
export const searchParkLimit = searchOpenLimit;

/** Most files under the root read for one scan of their texts (for a name, or for importers). */
export const readLimit = 5_000;

/** What {@link prepareSearch} did, to say in the answer and to undo with {@link endSearch}. */
export interface PreparedSearch {
  /** Caveats for the answer (files not opened, analysis not finished), one per line. */
  readonly notes: readonly string[];
  /** Documents opened (or unparked) for this search only, let go by {@link endSearch}. */
  readonly opened: readonly string[];
}

/**
 * Gets a server ready to answer a search across files about `name` (references,
 * implementation, rename) asked in `uri`:
 *
 * - A server that sees only the files it has open (`spec.indexScope: "open-files"`: clangd
 *   without a background index) is first given the files of its root that mention `name` as a
 *   whole word (at most {@link searchOpenLimit}); otherwise its references miss every other file,
 *   and its rename edits one file of a symbol used in several, breaking the build.
 * - A server that misses files created after it started (`spec.createdFiles`: tsserver for a
 *   second after the folder's last change, gopls for a package in a new folder) is first given
 *   those that mention `name` (the newest {@link searchOpenLimit}); opened once, they are its own.
 * - Every server then finishes analysing the asked document, those opened and `alsoAnalysed`
 *   (documents just sent again, whose index entries are being rebuilt), bounded by the
 *   diagnostics bound: pyright's first references after its start found 1 of 3 uses.
 *
 * Never throws; what could not be done is in `notes`.
 */
export async function prepareSearch(
  client: LanguageClient,
  uri: string,
  name: string,
  context: ActionContext,
  alsoAnalysed: readonly string[] = [],
): Promise<PreparedSearch> {
  const { supervisor } = context;
  const notes: string[] = [];
  const opened: string[] = [];
  // tsserver may load more projects for a search across files (those of a solution's other
  // packages): the files its projects hold may change.
  if (client.spec.reloadChanged === "tsserver") searches.set(client, (searches.get(client) ?? 0) + 1);
  if (client.spec.createdFiles === "open-for-search") {
    // Files created since the server started: it would not search them yet.
    const word = wholeName(name);
    const created = client.createdFiles().filter((file) => {
      const text = client.rootText(file);
      return text !== undefined && text.includes(name) && word.test(text);
    });
    opened.push(...(await openForSearch(client, created.slice(-searchOpenLimit), context, uri)).opened);
    if (created.length > searchOpenLimit) {
      notes.push(
        `${created.length} files created since ${client.spec.command} started mention '${name}', the ${searchOpenLimit} newest were opened; uses in the others may be missing`,
      );
    }
  }
  if (client.spec.indexScope === "open-files") {
    const found = await mentioning(client, name, context.signal);
    // Files changed since they were closed here are opened too, so that the server drops the
    // uses their old text had (each kind bounded on its own).
    const files = [...found.outdated.slice(0, searchOpenLimit), ...found.files.slice(0, searchOpenLimit)];
    opened.push(...(await openForSearch(client, files, context, uri)).opened);
    const note = notAllOpenedNote(client, found, context, { name, verb: "mention", missing: "uses" });
    if (note) notes.push(note);
  }
  const late = await awaitAnalysed(
    client,
    [...new Set([uri, ...opened, ...alsoAnalysed])],
    supervisor,
    context.bound,
  );
  if (late) notes.push(late);
  return { notes, opened };
}

/**
 * Gets a server that sees only the files open on it (`spec.indexScope: "open-files"`: clangd
 * without a background index) ready for a workspace-symbol search of `query`: the files of its
 * root whose text holds the query, in any case, are opened first (at most
 * {@link searchOpenLimit}), each held until {@link endSearch}, with a note when some were not.
 * Other servers index their workspace: nothing is done for them.
 */
export async function prepareSymbolSearch(
  client: LanguageClient,
  query: string,
  context: ActionContext,
): Promise<PreparedSearch> {
  if (client.spec.indexScope !== "open-files" || query.trim() === "") return { notes: [], opened: [] };
  const lower = query.toLowerCase();
  const found = await mentioning(client, query, context.signal, (text) => text.toLowerCase().includes(lower));
  const { opened } = await openForSearch(client, found.files.slice(0, searchOpenLimit), context);
  const note = notAllOpenedNote(client, found, context, { name: query, verb: "hold", missing: "symbols" });
  return { notes: note ? [note] : [], opened };
}

/**
 * The caveat of a search on a server that sees only its open files when not every file naming
 * `name` was opened (over {@link searchOpenLimit}) or the root was not read whole; undefined when
 * nothing is missing.
 */
function notAllOpenedNote(
  client: LanguageClient,
  found: { files: readonly string[]; complete: boolean; read: number },
  context: ActionContext,
  words: { name: string; verb: string; missing: string },
): string | undefined {
  const left = found.files.length - Math.min(found.files.length, searchOpenLimit);
  if (left === 0 && found.complete) return undefined;
  return `${client.spec.command} sees only the files open on it: ${
    left > 0
      ? `${found.files.length} files ${words.verb} '${words.name}', ${searchOpenLimit} were opened`
      : `${found.read} files of ${context.supervisor.display(client.root)} were searched for '${words.name}', not all`
  }; ${words.missing} in the others may be missing`;
}

/**
 * Opens `files` on `client` for a search (not `asked`, open for its own sake), each held until
 * {@link endSearch}; those unreadable now are left out. Nothing to say: `notes` is empty.
 */
export async function openForSearch(
  client: LanguageClient,
  files: readonly string[],
  context: ActionContext,
  asked?: string,
): Promise<PreparedSearch> {
  const opened: string[] = [];
  for (const file of files) {
    context.bound?.waiting(`to open ${context.supervisor.display(file)} on ${client.spec.command}`);
    try {
      const document = await context.supervisor.open(file, false, undefined, true);
      // Held until the search ends, unless open for its own sake (asked about meanwhile).
      if (document.client === client && document.uri !== asked && client.searchHolds.hold(document.uri))
        opened.push(document.uri);
    } catch {
      // Unreadable now: searched without it.
    }
  }
  return { notes: [], opened };
}

/**
 * Gets a server's answers from an index or from files it read itself (hover's signature and doc
 * comment, workspace symbols) to come from the files' text now:
 *
 * - A server that keeps the symbols of a file closed on it as they were at the close (clangd,
 *   `spec.indexScope: "open-files"`): the files closed here and changed on disk since are opened
 *   again (at most {@link searchOpenLimit}; let go of with {@link endSearch}), and answer once
 *   analysed: before, clangd's hover gave a doc comment a shell command had replaced.
 * - A server that reads the files not open on it from disk when its own watch tells it of a
 *   change, which can come seconds after the question (tsserver, `spec.reloadChanged`): the
 *   files of its root the folder watch saw change since the last such look (a `git checkout`, a
 *   shell command) and that tsserver's projects hold are read again (see `reloadKnown`), and
 *   those a cancelled call left unread on the next call; nothing is opened. Before, a hover right
 *   after a checkout named the signature and doc comment the declaring file had before it.
 *   Nothing is sent when nothing changed (one comparison of counts); what changed past the
 *   record's bound (see `LanguageClient.diskChangesSince`) is not known, and left to its watch:
 *   a note says the answer may come from the old text.
 *
 * Elsewhere does nothing. Never throws: what could not be done is in `notes`.
 */
export async function reopenOutdated(
  client: LanguageClient,
  context: ActionContext,
): Promise<PreparedSearch> {
  if (client.spec.reloadChanged === "tsserver" && tsserverPullAvailable(client.capabilities)) {
    const { supervisor } = context;
    const changed = changedOnDiskSinceLastLook(client, context);
    // The files changed outside the root that tsserver's projects read (another package of a
    // solution-style tsconfig), open here or not: its copy of an open one is ours.
    // A folder created in a watched one outside the root (a checkout adding src/feature/) is
    // watched when in or under a folder of the sources its projects hold (not a build's dist/).
    const heldFolders = projectViews.get(client)?.heldFolders;
    const watchCreated = (folder: string): boolean =>
      heldFolders !== undefined && underHeldFolder(heldFolders, join(folder, "_"));
    const outside = (await client.outsideChanges(watchCreated)).filter(
      (file) => !client.isOpen(supervisor.uriOf(file)) && existsSync(file),
    );
    // First those whose reload a cancelled call cut short, if still the server's to read.
    const earlier = (cutShort.get(client) ?? []).filter(
      (file) => !client.isOpen(supervisor.uriOf(file)) && existsSync(file),
    );
    cutShort.delete(client);
    const pending = [...new Set([...earlier, ...(typeof changed === "number" ? [] : changed)])];
    await reloadKnown(client, pending, outside, context);
    const unwatched = unwatchedNote(client, context);
    if (typeof changed === "number") {
      return {
        notes: [
          `${changed} changes on disk since the last look, more than are remembered (a checkout of another branch?): ${client.spec.command} reads the files again when its own watch tells it, and what it says of them may come from their old text`,
          ...unwatched,
        ],
        opened: [],
      };
    }
    return { notes: unwatched, opened: [] };
  }
  if (client.spec.indexScope !== "open-files") return { notes: [], opened: [] };
  const outdated = client.outdatedClosed();
  const { opened } = await openForSearch(client, outdated.slice(0, searchOpenLimit), context);
  const notes =
    outdated.length > searchOpenLimit
      ? [
          `${outdated.length} files closed on ${client.spec.command} changed on disk since, ${searchOpenLimit} were opened again; what it says of the others may come from their old text`,
        ]
      : [];
  return { notes, opened };
}

/**
 * Per server re-reading changed files, the count of folders outside its root not watched (see
 * `LanguageClient.outsideUnwatched`) last said in an answer.
 */
const unwatchedSaid = new WeakMap<LanguageClient, number>();

/**
 * The note, said once (again only when more are left out than when last said, or than since
 * then: folders removed, then back), that folders outside the root the server's projects read are
 * not watched, past the bound: a change there (a checkout) is left to tsserver's own watch.
 * `status` says it every time.
 */
function unwatchedNote(client: LanguageClient, context: ActionContext): string[] {
  const count = client.outsideUnwatched();
  const said = unwatchedSaid.get(client) ?? 0;
  if (count <= said) {
    if (count < said) unwatchedSaid.set(client, count);
    return [];
  }
  unwatchedSaid.set(client, count);
  return [outsideUnwatchedText(count, client.spec.command, context.supervisor.display(client.root))];
}

/**
 * Per server re-reading changed files (`spec.reloadChanged`), the files whose reload the last
 * call's cancel cut short: {@link reopenOutdated} sends them again on the next call.
 */
const cutShort = new WeakMap<LanguageClient, readonly string[]>();

/**
 * Per server re-reading changed files, the count of searches across files (see
 * {@link prepareSearch}): tsserver may load projects for one.
 */
const searches = new WeakMap<LanguageClient, number>();

/** What is known, per server re-reading changed files, of the files its projects hold. */
interface ProjectView {
  /**
   * The files its projects held when last asked (see `tsserverProjectFiles`), with the projects
   * of the files opened since added: asked again only when a changed file is neither among them
   * nor known not to be held, not after every edit: the list of a project of 5 000 files took
   * ~15 ms, a reload ~0.5 ms. One listed that a project no longer holds is sent a reload tsserver
   * answers doing nothing; none it holds is left out.
   */
  held: HeldFiles | undefined;
  /** The folders of the source files in {@link held}. */
  heldFolders: ReadonlySet<string>;
  /**
   * The state of what can change the set of projects when {@link notHeld} was begun: the
   * project files changed, the searches across files, the documents open.
   */
  epoch: string;
  /**
   * Changed files found not held by a listing made since {@link epoch} (a build's output),
   * under no folder of a file held: not asked about again until the projects can have changed.
   * Before, each call while a build kept writing dist/ asked for the lists again. A file in or
   * under a folder of held files (a new source file, in a new folder of src/ too) is asked about
   * until tsserver holds it: its own watch adds it to the project a moment after, and a file
   * remembered was then never read again (a hover of its use named its old text).
   */
  notHeld: Set<string>;
  /** tsserver did not say (an old server, a failure) since {@link epoch}: not asked unprompted. */
  unlisted: boolean;
}

const projectViews = new WeakMap<LanguageClient, ProjectView>();

/** The server's {@link ProjectView}, what can be known only since the projects last could change kept. */
function projectView(client: LanguageClient): ProjectView {
  const epoch = `${client.projectConfigMark()} ${searches.get(client) ?? 0} ${client.openUris().join(" ")}`;
  const view = projectViews.get(client);
  if (view === undefined) {
    const fresh: ProjectView = {
      held: undefined,
      heldFolders: new Set(),
      epoch,
      notHeld: new Set(),
      unlisted: false,
    };
    projectViews.set(client, fresh);
    return fresh;
  }
  if (view.epoch !== epoch) {
    view.epoch = epoch;
    view.notHeld.clear();
    view.unlisted = false;
  }
  return view;
}

/** Whether `file` is in one of `folders` (tsserver's names) or under one. */
function underHeldFolder(folders: ReadonlySet<string>, file: string): boolean {
  for (let folder = dirname(tsserverName(file)); ;) {
    if (folders.has(folder)) return true;
    const parent = dirname(folder);
    if (parent === folder) return false;
    folder = parent;
  }
}

/** The folders of `names` (tsserver's) outside `root` and every node_modules: to watch. */
function foldersOutside(names: Iterable<string>, root: string): Set<string> {
  const inside = `${tsserverName(root)}/`;
  const folders = new Set<string>();
  for (const name of names) {
    if (name.startsWith(inside) || name.includes("/node_modules/")) continue;
    folders.add(dirname(name));
  }
  return folders;
}

/**
 * Has tsserver read again those of `files` (changed in the root) it knows (see
 * `tsserverProjectFiles`: the files of the projects of the documents open on it, see
 * {@link ProjectView}), all of them when it does not say which it knows, and every one of
 * `outside` (changed in the folders outside the root its projects read: those of the projects
 * a search across files loaded as well). A file it does not know (a build's output, a file
 * outside the tsconfig's include) is not sent: each `reload` is a round trip, and 500 files a
 * build wrote added a quarter of a second to a hover. The projects of documents opened since the
 * last listing are listed, for the folders outside the root they read, watched from then on
 * (before, a `git checkout` in another package of a solution went unseen). What a cancel cut
 * short is kept for the next call.
 */
async function reloadKnown(
  client: LanguageClient,
  files: readonly string[],
  outside: readonly string[],
  context: ActionContext,
): Promise<void> {
  const { supervisor, signal } = context;
  const request = client.request.bind(client);
  const view = projectView(client);
  const open = client.openUris().map((uri) => supervisor.pathOf(uri));
  // Outside the root too: a checkout there writing 3 000 files of new folders sent them all (2.2 s
  // on the next hover), where a reload of a file tsserver does not hold does nothing.
  const unknown = [...new Set([...files, ...outside])].filter(
    (file) => view.held?.(file) !== true && !view.notHeld.has(file),
  );
  // All listed again when a changed file is not among those listed (a file new to a project);
  // else those open whose projects were not listed yet (the folders outside the root they read).
  const toList =
    unknown.length > 0 ? open : view.unlisted ? [] : open.filter((file) => view.held?.(file) !== true);
  let sure = unknown.length === 0;
  if (toList.length > 0) {
    context.bound?.waiting(`for ${client.spec.command} to list the files of its projects`);
    const listed = await tsserverProjectFiles(request, toList, signal);
    if (signal.aborted) {
      cutShort.set(client, [...new Set([...files, ...outside])]);
      return;
    }
    if (listed) {
      const names =
        unknown.length > 0 || !view.held ? listed.names : new Set([...view.held.names, ...listed.names]);
      view.held = heldFiles(names);
      // Of the sources (the project's tsconfig.json is listed too: its folder held nothing else).
      view.heldFolders = new Set(
        [...names]
          .filter((name) => client.spec.extensions.includes(extname(name).toLowerCase()))
          .map((name) => dirname(name)),
      );
      client.watchOutside(foldersOutside(listed.names, client.root));
      // tsserver lists its projects' tsconfig and the bases their `extends` name, whatever their
      // names (JSON modules a source imports too: a change to one lists the files again, no more).
      client.noteProjectConfigs(
        [...listed.names]
          .filter((name) => extname(name).toLowerCase() === ".json")
          .map((name) => normalize(name)),
      );
      for (const file of unknown) {
        if (!view.held(file) && !underHeldFolder(view.heldFolders, file)) view.notHeld.add(file);
      }
      sure = true;
    } else {
      view.unlisted = true;
      if (unknown.length > 0) view.held = undefined;
    }
  }
  const known = [
    ...new Set(
      sure ? [...files, ...outside].filter((file) => view.held?.(file) === true) : [...files, ...outside],
    ),
  ];
  if (known.length === 0) return;
  context.bound?.waiting(
    `for ${client.spec.command} to read ${someOf(
      known.map((file) => supervisor.display(file)),
      3,
    )} again`,
  );
  const outcome = await tsserverReload(request, known, signal);
  if (outcome.cutShort.length > 0) cutShort.set(client, outcome.cutShort);
}

/**
 * Whether tsserver reads `file` from disk for `client`: not open here (an open one's text goes by
 * didChange), its own (not a nested root's), and still there.
 */
function readFromDisk(client: LanguageClient, context: ActionContext, file: string): boolean {
  const { supervisor } = context;
  return (
    !client.isOpen(supervisor.uriOf(file)) && supervisor.runningClientFor(file) === client && existsSync(file)
  );
}

/**
 * Per server re-reading changed files (`spec.reloadChanged`), the count of changes on disk (see
 * `LanguageClient.diskChangeMark`) up to which {@link reopenOutdated} has had them read again.
 */
const lookedThrough = new WeakMap<LanguageClient, number>();

/**
 * The files of `client`'s root and its languages that changed on disk since the last call (since
 * its start at the first), still there, not open here (an open one's text goes by didChange) and
 * its own (not a nested root's), in the order they changed. Past the record's bound (see
 * `LanguageClient.diskChangesSince`) the count of changes since; none when the watch does not
 * cover the root (what changed is then left to the server's own watch, silently: it would be
 * said after every change).
 */
function changedOnDiskSinceLastLook(client: LanguageClient, context: ActionContext): string[] | number {
  const mark = client.diskChangeMark();
  const last = lookedThrough.get(client) ?? 0;
  if (mark === last) return [];
  lookedThrough.set(client, mark);
  const changed = client.diskChangesSince(last);
  if (changed === undefined) return mark - last > diskChangesKept ? mark - last : [];
  return changed.filter((file) => readFromDisk(client, context, file));
}

/**
 * Lets go of the documents {@link prepareSearch} opened, once no search holds them and unless
 * they were asked about meanwhile: they stay open (parked), so that the next search naming them
 * finds them analysed instead of opening them again; each call still checks them against the
 * disk like any open document. Over {@link searchParkLimit}, the least recently searched are
 * closed, unless held or asked about again before their turn to close comes.
 */
export async function endSearch(client: LanguageClient, prepared: PreparedSearch): Promise<void> {
  for (const uri of prepared.opened) client.searchHolds.release(uri);
  for (const uri of client.searchHolds.overflow(searchParkLimit)) {
    if (client.searchHolds.confirmClose(uri)) await client.close(uri).catch(() => undefined);
  }
}

/**
 * Files of the client's root, of its languages, not open for their own sake, to open for a
 * search of `name`: first those closed here before and changed on disk since (clangd keeps a
 * closed file's symbols: a use removed by a shell command was still listed), then those that
 * mention `name` as a whole word. Stops early (incomplete) when `signal` aborts.
 */
async function mentioning(
  client: LanguageClient,
  name: string,
  signal: AbortSignal,
  mentions: (text: string) => boolean = (text) => text.includes(name) && wholeName(name).test(text),
): Promise<{ files: string[]; outdated: string[]; complete: boolean; read: number }> {
  const root = await client.rootFiles();
  const files: string[] = [];
  const outdated: string[] = [];
  let read = 0;
  let complete = root.complete;
  for (const file of root.files) {
    if (!client.spec.extensions.includes(extname(file).toLowerCase())) continue;
    // Not through the supervisor's memo: a scan of the root would push out the hot entries.
    const uri = pathToFileURL(file).href;
    if (client.searchHolds.isKept(uri)) continue;
    if (read >= readLimit) {
      complete = false;
      break;
    }
    read++;
    // Reads are synchronous (cached, but a root of thousands of files is read once): the event
    // loop, and every other run in the process, gets a turn every 100 files; a cancel stops here.
    if (read % 100 === 0) {
      await new Promise((resolve) => setImmediate(resolve));
      if (signal.aborted) {
        complete = false;
        break;
      }
    }
    // The client's own cache of the root's texts (kept until the folder watch reports a change),
    // not the supervisor's: a scan of the root would push out the files asked about.
    const text = client.rootText(file);
    if (text !== undefined && mentions(text)) files.push(file);
    else if (client.changedSinceClosed(file, uri)) outdated.push(file);
  }
  return { files: files.sort(), outdated: outdated.sort(), complete, read };
}
