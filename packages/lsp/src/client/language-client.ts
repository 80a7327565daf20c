import type { ChildProcess } from "node:child_process";
import { EventEmitter } from "node:events";
import { basename, extname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createMessageConnection, StreamMessageReader, type MessageConnection } from "vscode-jsonrpc/node";
import {
  FileChangeType,
  type Diagnostic,
  type InitializeResult,
  type PublishDiagnosticsParams,
  type ServerCapabilities,
  type SymbolInformation,
  type WorkspaceSymbol,
} from "vscode-languageserver-protocol";
import { LspError } from "../errors/lsp-error.js";
import { settleDiskEvents } from "../files/disk-events.js";
import { convertPositions } from "../positions/convert-positions.js";
import type { ServerSpec } from "../servers/server-table.js";
import { clientCapabilities } from "./client-capabilities.js";
import { boundedRequest } from "./bounded-request.js";
import { boundedNotification } from "./bounded-notification.js";
import { sendSettingsChange } from "./settings-change.js";
import { DocumentSync } from "./document-sync.js";
import {
  currentDiagnosticsOf,
  freshDiagnosticsOf,
  type DiagnosticsSource,
  type FreshDiagnostics,
} from "./fresh-diagnostics.js";
import { SingleWriteMessageWriter } from "./single-write-writer.js";
import { tsserverPullAvailable } from "./tsserver-diagnostics.js";
import { tsserverSingleProject, tsserverWorkspaceSymbols, type KnownProjects } from "./tsserver-navto.js";
import {
  answerServerRequest,
  newServerRequestState,
  watchedBy,
  type ServerRequestState,
} from "./server-requests.js";
import { ProbedDocuments } from "./probed-documents.js";
import { SearchHolds } from "./search-holds.js";
import { WatchedFolders } from "./watched-folders.js";
import { DiskChanges } from "./disk-changes.js";
import { OutsideFolders } from "./outside-folders.js";
import { CreatedFiles } from "./created-files.js";
import { ServerPositions } from "./server-positions.js";
import { ServerProcess } from "./server-process.js";
import { RootTexts } from "./root-texts.js";
import { compileFlagFacts, type CompileFlagFacts } from "./compile-flags.js";
import { directivesIn, includedNames, includeReach, type IncludeRoot } from "./include-reach.js";
import { environmentIncludeFolders, systemIncludeFolders } from "./system-includes.js";
import { canonicalPath } from "../files/canonical-path.js";
import { FolderListings, isFile } from "../files/file-texts.js";

/** Where a server is in its life. */
export type ClientState = "starting" | "running" | "crashed" | "stopped";

/** Options of {@link LanguageClient}. */
export interface LanguageClientOptions {
  readonly spec: ServerSpec;
  readonly root: string;
  readonly binary: string;
  /** Answers `workspace/configuration`: the settings tree, looked up by section. */
  readonly settings: Record<string, unknown>;
  readonly initializationOptions?: unknown;
  /** Per-request bound in milliseconds. */
  readonly requestTimeoutMs: number;
  readonly env?: NodeJS.ProcessEnv;
  /** Called with each line of `$/progress` and `window/logMessage` while starting. */
  readonly onProgress?: (message: string) => void;
}

/**
 * One language-server process and its JSON-RPC connection: initialize, the server's own
 * requests answered, document sync with versions, and diagnostics by pull or push with a
 * freshness rule (see {@link LanguageClient.freshDiagnostics}).
 */
export class LanguageClient {
  readonly spec: ServerSpec;
  readonly root: string;
  state: ClientState = "starting";
  /** Why it crashed, with the tail of its stderr. */
  failure: string | undefined;
  /** When it crashed (`Date.now()` ms), stamped at the crash itself, not when a caller notices it. */
  crashedAt: number | undefined;
  /**
   * How long it had been up (ms from spawn to {@link crashedAt}) when it crashed while running;
   * 0 when it crashed while starting (a failed start); undefined until it crashes.
   */
  uptimeMs: number | undefined;
  capabilities: ServerCapabilities = {};
  readonly pid: number | undefined;

  private readonly options: LanguageClientOptions;
  /** The server's process: spawned, its stderr's tail, its temporary folder, its end. */
  private readonly serverProcess: ServerProcess;
  private readonly child: ChildProcess;
  private readonly connection: MessageConnection;
  private readonly events = new EventEmitter();
  private readonly documents: DocumentSync;
  private readonly requestState: ServerRequestState = newServerRequestState();
  /** The root's folders, watched from before the server first reads them. */
  private readonly watched: WatchedFolders;
  /** Which open documents searches opened for themselves, and which stay (see `SearchHolds`). */
  readonly searchHolds = new SearchHolds();
  /** Documents a rename's clash check holds edited text of (see `ProbedDocuments`). */
  readonly probes = new ProbedDocuments();
  /** See {@link createdFiles}. */
  private readonly created = new CreatedFiles();
  /** Texts of the root's files for scans by name, and whether each changed since its close. */
  private readonly rootTexts = new RootTexts();
  /** Listings of the folders the walks of what files include look in, kept while each is unchanged. */
  private readonly folderListings = new FolderListings();
  /** The include folders the environment adds and the compiler's own, found on first use (see `includeRoot`). */
  private includeFolders: { environment: string[] | undefined; system: string[] } | undefined;
  /** How the server's positions map to the user's, per document (see `spec.text`). */
  private readonly positions: ServerPositions;
  /** What {@link freshDiagnostics} and {@link currentDiagnostics} read from. */
  private readonly diagnosticsSource: DiagnosticsSource;
  private stopping = false;
  /** The shutdown under way or done (see {@link dispose}). */
  private disposing: Promise<void> | undefined;
  /** See {@link currentSettings}. */
  private settings: Record<string, unknown>;
  /** Changes on disk to files of this server's languages, and those held back (see {@link diskChangesSince}). */
  private readonly diskChanges = new DiskChanges();
  /** Folders outside the root whose files the server reads (see {@link watchOutside}). */
  private readonly outside = new OutsideFolders();
  /** Changes on disk to the server's project files (see {@link isProjectConfig}), counted. */
  private projectConfigChanges = 0;
  /** See {@link noteProjectConfigs}. */
  private readonly projectConfigFiles = new Set<string>();
  /** The projects tsserver last listed (see {@link workspaceSymbols}). */
  private readonly knownProjects: KnownProjects = { projects: [] };
  /** See {@link hasAnswered}. */
  private answeredOnce = false;
  /** Set once the connection closed (the process ended): nothing more can be sent. */
  private connectionClosed = false;
  /** When the process was spawned (`Date.now()` ms), for {@link uptimeMs}. */
  private readonly startedAt = Date.now();

  constructor(options: LanguageClientOptions) {
    this.options = options;
    this.settings = options.settings;
    this.spec = options.spec;
    this.root = options.root;
    this.events.setMaxListeners(0);
    this.watched = new WatchedFolders(options.root);
    this.documents = new DocumentSync(options.spec, {
      notify: (method, params) => this.notify(method, params),
      request: (method, params, timeoutMs) => this.request(method, params, timeoutMs),
      // Stopping (the run's end, a reload): nothing it says now answers a wait.
      alive: () => this.state !== "crashed" && this.state !== "stopped" && !this.stopping,
    });
    this.positions = new ServerPositions(options.spec, (uri) => this.documents.syncedText(uri));
    this.diagnosticsSource = {
      spec: options.spec,
      capabilities: () => this.capabilities,
      requestState: this.requestState,
      documents: this.documents,
      request: <R>(method: string, params: unknown, timeoutMs: number) =>
        this.request<R>(method, params, timeoutMs),
      fromServer: <T>(uri: string, value: T) => this.positions.fromServer(uri, value),
    };
    this.serverProcess = new ServerProcess(
      options.binary,
      options.spec.args,
      options.root,
      options.env ?? process.env,
    );
    this.pid = this.serverProcess.pid;
    this.child = this.serverProcess.child;
    this.child.on("error", (error) =>
      this.markCrashed(`could not start ${options.binary}: ${error.message}`),
    );
    this.child.on("exit", (code, signal) => {
      if (!this.stopping) {
        this.markCrashed(`exited ${signal ? `on ${signal}` : `with code ${code}`}`);
        // What a crashed server left running serves nothing: it ends too.
        void this.serverProcess.terminate();
      }
      this.serverProcess.removeTemporaryFolder();
    });
    this.connection = createMessageConnection(
      new StreamMessageReader(this.child.stdout!),
      new SingleWriteMessageWriter(this.child.stdin!),
    );
    this.connection.onRequest((method, params) => {
      const answer = answerServerRequest(method, params, {
        settings: this.settings,
        root: options.root,
        state: this.requestState,
      });
      // A pull provider registered now ends a push wait that started before it (see freshDiagnostics).
      if (method === "client/registerCapability") this.documents.events.emit("change");
      if (method === "workspace/configuration") setImmediate(() => this.events.emit("configuration"));
      return answer;
    });
    this.connection.onNotification((method, params) => this.onNotification(method, params));
    // vscode-jsonrpc routes `$/progress` here, never to onNotification.
    this.connection.onUnhandledProgress(({ token, value }) => this.onProgress(token, value));
    this.connection.onError(() => undefined);
    this.connection.onClose(() => {
      this.connectionClosed = true;
    });
    this.connection.listen();
  }

  /** Runs `initialize` + `initialized`, bounded by the spec's initialize timeout. */
  async initialize(): Promise<void> {
    const rootUri = pathToFileURL(this.root).href;
    const timeoutMs = this.spec.initializeTimeoutMs ?? 60_000;
    const result = await this.request<InitializeResult>(
      "initialize",
      {
        processId: process.pid,
        rootUri,
        rootPath: this.root,
        workspaceFolders: [{ uri: rootUri, name: this.root.split("/").pop() ?? "root" }],
        capabilities: clientCapabilities,
        initializationOptions: this.options.initializationOptions,
        clientInfo: { name: "@tools/lsp" },
      },
      timeoutMs,
    );
    this.capabilities = result.capabilities ?? {};
    await this.notify("initialized", {});
    await this.notify("workspace/didChangeConfiguration", {
      settings: this.settings,
    });
    if (this.state === "starting") this.state = "running";
  }

  /** The settings the server reads (`workspace/configuration`). */
  currentSettings(): Record<string, unknown> {
    return this.settings;
  }

  /**
   * Replaces the settings the server reads and tells it (`workspace/didChangeConfiguration`):
   * it asks for them again (pyright then resolves imports with a new interpreter).
   */
  changeSettings(settings: Record<string, unknown>): Promise<void> {
    this.settings = settings;
    // Waits (at most 2 s) until it asked for them: until then a question could still be answered with the old ones.
    return sendSettingsChange(this.events, () =>
      this.notify("workspace/didChangeConfiguration", { settings }),
    );
  }

  /** The last lines the server wrote to stderr. */
  stderrTail(): string {
    return this.serverProcess.stderrTail();
  }

  /** Sends a request with a bound; a timeout cancels it and throws `LSP_TIMEOUT`. */
  async request<R>(
    method: string,
    params: unknown,
    timeoutMs = this.options.requestTimeoutMs,
    signal?: AbortSignal,
  ): Promise<R> {
    if (this.state === "crashed") throw this.crashedError();
    if (this.spec.text !== undefined) {
      const uri = documentUri(params);
      const sent = convertPositions(params, uri, this.positions.converter("toServer"));
      const answer = await this.send<R>(method, sent, timeoutMs, signal);
      return convertPositions(answer, uri, this.positions.converter("toUser"));
    }
    return this.send<R>(method, params, timeoutMs, signal);
  }

  /**
   * `workspace/symbol` for `query`; of typescript-language-server, tsserver's `navto` without a
   * file (see {@link tsserverWorkspaceSymbols}), each location converted as a request's answer is,
   * unless tsserver holds one project (see {@link tsserverSingleProject}): then its own
   * `workspace/symbol`, whose cancel reaches tsserver (the pass-through takes no token: a
   * cancelled search of a large project kept tsserver busy, and the next call waited for it).
   */
  async workspaceSymbols(
    query: string,
    signal?: AbortSignal,
  ): Promise<(SymbolInformation | WorkspaceSymbol)[] | null> {
    if (tsserverPullAvailable(this.capabilities)) {
      const send = <R>(method: string, params: unknown) =>
        this.send<R>(method, params, this.options.requestTimeoutMs, signal);
      // One project, holding the documents open: its own search is the same, and cancellable.
      const single =
        this.documents.openUris().length > 0 && (await tsserverSingleProject(send, this.knownProjects));
      if (!single) {
        const found = await tsserverWorkspaceSymbols(send, query);
        if (found !== undefined) return this.positions.fromServer("", found);
      }
    }
    return this.request<(SymbolInformation | WorkspaceSymbol)[] | null>(
      "workspace/symbol",
      { query },
      undefined,
      signal,
    );
  }

  private async send<R>(
    method: string,
    params: unknown,
    timeoutMs: number,
    signal?: AbortSignal,
  ): Promise<R> {
    const answer = await boundedRequest<R>(this.connection, method, params, {
      timeoutMs,
      signal,
      events: this.events,
      crashedError: () => this.crashedError(),
      stoppedError: () => this.stoppedError(`${method} was answered`),
      command: this.spec.command,
      open: () => !this.connectionClosed,
    });
    if (method !== "initialize") this.answeredOnce = true;
    return answer;
  }

  /**
   * True once the server answered a request after its initialize: until then it may still be
   * loading its project (pyright's first answers), and a call waits on it as on a start.
   */
  hasAnswered(): boolean {
    return this.answeredOnce;
  }

  /**
   * Sends a notification (silently dropped once the server is gone), bounded like a request: a
   * server that stops reading its input leaves a large didOpen or didChange unwritten in a full
   * pipe, and the call would wait forever. At the bound the server counts as crashed (killed,
   * restarted on next use, so its copy of each document is rebuilt) and the call fails.
   */
  async notify(method: string, params: unknown): Promise<void> {
    if (this.state === "crashed" || this.state === "stopped") return;
    const timeoutMs = this.options.requestTimeoutMs;
    const outcome = await boundedNotification(this.connection, method, params, timeoutMs, this.events);
    if (outcome === "sent") return;
    if (this.stopping) {
      throw new LspError({
        code: "LSP_SERVER_FAILED",
        message: `${this.spec.command} (${this.spec.language}, root ${this.root}) was stopped while ${method} was being sent (the run ended, or the server was reloaded)`,
      });
    }
    if (outcome === "stalled") {
      this.markCrashed(`stopped reading its input (${method} not taken within ${timeoutMs} ms)`);
    }
    throw this.crashedError();
  }

  /** True when the document is open on this server. */
  isOpen(uri: string): boolean {
    return this.documents.isOpen(uri);
  }

  /** The uris of the documents open on this server that stay open (see `DocumentSync.openUris`). */
  openUris(): string[] {
    return this.documents.openUris();
  }

  /** True when `uri` is open with exactly `text` (a sync would send nothing). */
  isSynced(uri: string, text: string): boolean {
    return this.documents.isSynced(uri, text);
  }

  /**
   * Makes the server's copy of `uri` equal `text` (didOpen, or didChange with the next version
   * when it differs; didSave when `save` is set). Returns whether anything was sent.
   */
  sync(uri: string, languageId: string, text: string, save: boolean): Promise<boolean> {
    // Opened once, a created file is part of the server's project from then on.
    if (this.created.size > 0 && !this.documents.isOpen(uri)) this.created.forget(fileURLToPath(uri));
    return this.documents.sync(uri, languageId, text, save);
  }

  /**
   * Files of this server's languages created on disk since it started and not opened on it since
   * (most recent last, at most 5 000): see `spec.createdFiles`.
   */
  createdFiles(): string[] {
    return this.created.list();
  }

  /** See {@link DocumentSync.awaitWorkDone}. */
  awaitWorkDone(deadline: number): Promise<boolean> {
    return this.documents.awaitWorkDone(deadline);
  }

  /** See {@link DocumentSync.publishMark}. */
  publishMark(): number | undefined {
    return this.documents.publishMark();
  }

  /** See {@link DocumentSync.unopenedPublishes}. */
  unopenedPublishes(): { uri: string; diagnostics: Diagnostic[]; mark: number }[] {
    return this.documents.unopenedPublishes();
  }

  /** See {@link DocumentSync.latestPublishes}. */
  latestPublishes(): { uri: string; diagnostics: Diagnostic[]; mark: number }[] {
    return this.documents.latestPublishes();
  }

  /** See {@link DocumentSync.changesMark}. */
  changesMark(): number {
    return this.documents.changesMark();
  }

  /** See {@link DocumentSync.unopenedComplete}. */
  unopenedComplete(): boolean {
    return this.documents.unopenedComplete();
  }

  /**
   * Sends again the open documents built against an included file's old text (see
   * `DocumentSync.refreshIncluders`): those whose text includes a file changed since, directly or
   * through other files (the root's, or found through the compile flags' include folders), by
   * their `#include` directives (see `includeReach`); all of them when the folder watch does not
   * cover the root (a header it missed could be the link), or the compile flags may include a file
   * without an `#include` line (see `compileFlagFacts`).
   */
  refreshIncluders(): Promise<string[]> {
    return this.documents.refreshIncluders((changed) => this.includeTest(changed));
  }

  /**
   * A test of whether an open document (its text, its uri) includes one of `changed` (uris),
   * directly or through other files: see {@link refreshIncluders}.
   */
  private async includeTest(changed: readonly string[]): Promise<(text: string, uri: string) => boolean> {
    await this.watched.ready;
    if (!this.watched.complete) return () => true;
    const flags = compileFlagFacts(this.root, this.watched.files);
    if (flags.forcesIncludes) return () => true;
    // A file is included by its real name, or by that of a symlink to it.
    const paths = changed.map((uri) => fileURLToPath(uri));
    const reals = new Set(paths.map((path) => canonicalPath(path)));
    const links = [...this.watched.links].filter((link) => reals.has(canonicalPath(link)));
    const reaches = includeReach([...paths, ...reals, ...links], this.includeRoot(flags));
    return (text, uri) => reaches(text, fileURLToPath(uri));
  }

  /** The root as the walks of what files include read it (see `IncludeRoot`), with the compile flags' include folders. */
  private includeRoot({ includeDirs, movesSystemFolders }: CompileFlagFacts): IncludeRoot {
    // The environment's include folders come before the compiler's own; one not known (relative),
    // or a flag moving the compiler's own (a sysroot in the root), leaves every `<…>` include a
    // possible root file.
    this.includeFolders ??= {
      environment: environmentIncludeFolders(this.options.env ?? process.env),
      system: systemIncludeFolders(this.options.binary),
    };
    const { environment, system } = this.includeFolders;
    this.folderListings.startWalk();
    // Per path, for this walk (a uri per file read would cost more than its scan).
    let open: Map<string, string> | undefined;
    const syncedText = (path: string): string | undefined => {
      open ??= new Map([...this.documents.syncedTexts()].map(([uri, text]) => [fileURLToPath(uri), text]));
      return open.get(path);
    };
    return {
      files: this.watched.files,
      texts: (path) => {
        // clangd builds with an included file's text on disk; one open here may differ.
        const synced = syncedText(path);
        const onDisk = this.rootText(path);
        return synced === undefined || synced === onDisk ? [onDisk] : [onDisk, synced];
      },
      directives: (path) => {
        const synced = syncedText(path);
        const onDisk = this.rootTexts.directives(path);
        return synced === undefined || synced === onDisk?.text
          ? [onDisk?.directives]
          : [onDisk?.directives, directivesIn(synced)];
      },
      includeDirs: environment ? [...includeDirs, ...environment] : includeDirs,
      systemFolders: environment && !movesSystemFolders ? system : undefined,
      isFile,
      listingOf: (folder) => this.folderListings.get(folder),
      realPath: canonicalPath,
    };
  }

  /**
   * Those of `changed` (uris of files changed on disk that are not headers by their extension: a
   * `.def`, `.inc`, or `.c` file included as text) that an open document includes, directly or
   * through other files, by an `#include` naming them (see `includedNames`). Unlike a header's,
   * a change that cannot be told to reach one (a directive naming its file through a macro, a
   * flag including a file, a folder watch not covering the root) counts as reaching none: a build
   * writing a thousand object files must not send every open document again.
   */
  private async includedByOpen(changed: readonly string[]): Promise<string[]> {
    try {
      await this.watched.ready;
      const open = this.documents.openUris().flatMap((uri) => {
        const text = this.documents.syncedText(uri);
        return text === undefined ? [] : [{ text, path: fileURLToPath(uri) }];
      });
      if (open.length === 0) return [];
      const names = includedNames(open, this.includeRoot(compileFlagFacts(this.root, this.watched.files)));
      // A file is included by its real name, or by that of a symlink to it.
      const linked = new Set(
        [...this.watched.links]
          .filter((link) => names.has(basename(link)))
          .map((link) => canonicalPath(link)),
      );
      return changed.filter((uri) => {
        const path = fileURLToPath(uri);
        if (names.has(basename(path))) return true;
        if (linked.size === 0) return false;
        const real = canonicalPath(path);
        return linked.has(real) || names.has(basename(real));
      });
    } catch {
      // A failed walk (a bug) tells nothing: those files count as before they were followed.
      return [];
    }
  }

  /** Closes a document (after a rename moved or deleted it). */
  close(uri: string): Promise<void> {
    this.searchHolds.forget(uri);
    // Its text and view are not kept past the close (one per document converted while open).
    this.positions.forget(uri);
    return this.documents.close(uri);
  }

  /** When (performance.now()) the latest publish for a document arrived; for benchmarks. */
  lastPublishAt(uri: string): number | undefined {
    return this.documents.lastPublishAt(uri);
  }

  /** The synced version of an open document. */
  /** The text the server has of the open document, as last sent; undefined when not open. */
  syncedText(uri: string): string | undefined {
    return this.documents.syncedText(uri);
  }

  versionOf(uri: string): number | undefined {
    return this.documents.versionOf(uri);
  }

  /** Diagnostics for the document's current version by this server's freshness rule: see `freshDiagnosticsOf` (fresh-diagnostics.ts). */
  freshDiagnostics(
    uri: string,
    timeoutMs: number,
    options: { withCheck?: boolean } = {},
  ): Promise<FreshDiagnostics> {
    return freshDiagnosticsOf(this.diagnosticsSource, uri, timeoutMs, options);
  }

  /**
   * The open document's diagnostics as the server had them before `before` (performance.now()),
   * nothing sent first: see `currentDiagnosticsOf` (fresh-diagnostics.ts).
   */
  currentDiagnostics(
    uri: string,
    timeoutMs: number,
    before: number,
    publishedOnly = false,
  ): Promise<Diagnostic[] | undefined> {
    return currentDiagnosticsOf(this.diagnosticsSource, uri, timeoutMs, before, publishedOnly);
  }

  /**
   * Tells the server of the files created, changed or deleted on disk since the last call
   * (`workspace/didChangeWatchedFiles`, for those its registered watchers ask for and that are
   * not open here: an open document's text goes by didChange). When any file of this server's
   * languages, or one it watches, changed, every unchanged open document is checked again by its
   * next diagnostics sync (clangd re-reads a changed header only then). Sends nothing when
   * nothing changed: one look at a set. The changes to `except` are held back until the next
   * call (a write about to be checked: the state before it is being read). True when anything
   * relevant to the server was told.
   */
  async flushFileChanges(except?: ReadonlySet<string>): Promise<boolean> {
    if ((!this.watched.pending && !this.diskChanges.holding()) || this.state !== "running") return false;
    const events = this.diskChanges.release(this.watched.take(), except, this.watched.links);
    let relevant = false;
    const included: string[] = [];
    /** Files not open, of no included extension, that other files may include as text all the same. */
    const maybeIncluded: string[] = [];
    const changes: { uri: string; type: number }[] = [];
    for (const event of events) {
      const watched = watchedBy(this.requestState, this.root, event.path, event.type);
      const ofLanguage = this.spec.extensions.includes(extname(event.path).toLowerCase());
      const uri = pathToFileURL(event.path).href;
      if (this.isProjectConfig(event.path)) this.projectConfigChanges += 1;
      const open = this.documents.isOpen(uri);
      // An open one's new text counts once it is sent.
      const isIncluded = !open && this.documents.isIncluded(uri);
      // A server building files with those they include (clangd) reads any file an `#include`
      // names, whatever its extension (a .def table, a .c file): one changed counts when an open
      // document includes it (tested below).
      if (!open && !isIncluded && this.spec.includedExtensions) maybeIncluded.push(uri);
      if (!watched && !ofLanguage && !isIncluded) continue;
      relevant = true;
      if (ofLanguage) this.diskChanges.note(event.path);
      if (isIncluded) included.push(uri);
      if (this.spec.createdFiles && ofLanguage)
        this.created.note(event.path, event.type === FileChangeType.Created && !open);
      if (watched && !open) changes.push({ uri, type: event.type });
    }
    if (maybeIncluded.length > 0) {
      const reached = await this.includedByOpen(maybeIncluded);
      if (reached.length > 0) relevant = true;
      included.push(...reached);
    }
    if (!relevant) return false;
    this.documents.noteChanges(included);
    if (changes.length > 0) await this.documents.changedOnDisk({ changes });
    return true;
  }

  /**
   * Watches `folders`, outside the root, each on its own (not its subfolders): their files that
   * change are then given by {@link outsideChanges}. Those already watched are left as they are.
   */
  watchOutside(folders: Iterable<string>): void {
    if (this.state !== "stopped" && !this.stopping) this.outside.add(folders);
  }

  /**
   * The files of this server's languages changed in the folders of {@link watchOutside} since the
   * last call; the changes there to its project files (see {@link isProjectConfig}) are counted in
   * {@link projectConfigMark}. The events the kernel queued are read first (a write just before).
   * A folder created in a watched one is watched from now on when `watchCreated` says so (see
   * `OutsideFolders.take`), its files given as changed.
   */
  async outsideChanges(watchCreated?: (folder: string) => boolean): Promise<string[]> {
    if (this.outside.empty) return [];
    await settleDiskEvents();
    const files: string[] = [];
    for (const path of this.outside.take(watchCreated)) {
      if (this.isProjectConfig(path)) this.projectConfigChanges += 1;
      else if (this.spec.extensions.includes(extname(path).toLowerCase())) files.push(path);
    }
    return files;
  }

  /**
   * Counts the changes on disk to the files that say which files the server's projects hold
   * (see {@link isProjectConfig}), in the root and in the folders of {@link watchOutside} (the
   * latter as of the last {@link outsideChanges}).
   */
  projectConfigMark(): number {
    return this.projectConfigChanges;
  }

  /**
   * Adds `paths` to the files that say which files the server's projects hold, whatever their
   * names (a base tsconfig an `extends` names, `shared/base.json`): see {@link isProjectConfig}.
   */
  noteProjectConfigs(paths: Iterable<string>): void {
    for (const path of paths) this.projectConfigFiles.add(path);
  }

  /**
   * Whether `path` says which files the server's projects hold: named so (`spec.projectConfigs`,
   * a tsconfig.json) or given to {@link noteProjectConfigs}.
   */
  private isProjectConfig(path: string): boolean {
    return this.spec.projectConfigs?.test(basename(path)) === true || this.projectConfigFiles.has(path);
  }

  /**
   * How many folders outside the root its projects read, there on disk, are not watched (past the
   * bound): as of the last {@link outsideChanges}, or looked at again now when `recount` (status:
   * a few microseconds a folder watched or not).
   */
  outsideUnwatched(recount = false): number {
    return recount ? this.outside.recount() : this.outside.unwatched;
  }

  /** Counts the changes on disk to files of this server's languages (see {@link diskChangesSince}). */
  diskChangeMark(): number {
    return this.diskChanges.mark();
  }

  /**
   * The files of this server's languages that changed on disk after `mark` (see
   * {@link diskChangeMark}), each once, as the folder watch told; undefined when that is no
   * longer known (the record is bounded) or the watch does not cover the root.
   */
  diskChangesSince(mark: number): string[] | undefined {
    return this.diskChanges.since(mark, this.watched.complete);
  }

  /**
   * The files under the root as the folder watch knows them (the first walk awaited, the events
   * already queued read and taken, those of `heldBack` kept for a later flush), which of them are
   * symlinks, and whether that covers the whole root.
   */
  async rootFiles(
    heldBack?: ReadonlySet<string>,
  ): Promise<{ files: ReadonlySet<string>; links: ReadonlySet<string>; complete: boolean }> {
    await this.watched.ready;
    await settleDiskEvents();
    await this.flushFileChanges(heldBack);
    return { files: this.watched.files, links: this.watched.links, complete: this.watched.complete };
  }

  /** The files under the root that are symlinks, as the folder watch last saw (see {@link rootFiles}). */
  rootLinks(): ReadonlySet<string> {
    return this.watched.links;
  }

  /**
   * The text of a file under the root for a scan by name (see {@link rootFiles}), read again
   * only when the file changed; undefined when unreadable or over 1 MB.
   */
  rootText(path: string): string | undefined {
    return this.rootTexts.read(path);
  }

  /**
   * True when the file under the root was open here, is closed now, and its text on disk is not
   * the one it was closed with: a server that keeps a closed file's symbols (clangd) still
   * answers from the old text until it is opened again. Hashes each text read once.
   */
  changedSinceClosed(path: string, uri = pathToFileURL(path).href): boolean {
    const print = this.documents.closedPrint(uri);
    if (!print) return false;
    return this.rootTexts.changedFrom(path, print);
  }

  /**
   * The files closed here whose text on disk is no longer the one they were closed with
   * ({@link changedSinceClosed}), sorted; a file gone from disk is not among them.
   */
  outdatedClosed(): string[] {
    const outdated: string[] = [];
    for (const uri of this.documents.closedUris()) {
      const path = fileURLToPath(uri);
      if (this.changedSinceClosed(path, uri)) outdated.push(path);
    }
    return outdated.sort();
  }

  /** Whether every folder of the root is watched for changes on disk, and how many are. */
  watching(): { folders: number; complete: boolean } {
    return { folders: this.watched.folders, complete: this.watched.complete };
  }

  /** Ends the server: shutdown + exit (bounded), then SIGTERM/SIGKILL to its process group. */
  dispose(): Promise<void> {
    // A second caller waits for the same shutdown (the supervisor's dispose must not return
    // while a server, in its own process group, is still stopping).
    this.disposing ??= this.shutdown();
    return this.disposing;
  }

  private async shutdown(): Promise<void> {
    this.stopping = true;
    this.watched.close();
    this.outside.close();
    // Requests and waits in flight end now, not after the shutdown below.
    this.events.emit("stop");
    this.documents.events.emit("change");
    if (this.state === "running") {
      await this.request("shutdown", null, 1500).catch(() => undefined);
      // Bounded: behind a write stuck in a full pipe (a server that stopped reading), the exit
      // notification would never go out, and the kill below never come.
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        // Thrown at once, not rejected, on a connection already closed (the server just exited).
        Promise.resolve()
          .then(() => this.connection.sendNotification("exit"))
          .catch(() => undefined),
        new Promise((resolve) => {
          timer = setTimeout(resolve, 500);
        }),
      ]);
      clearTimeout(timer);
    }
    this.state = "stopped";
    this.documents.events.emit("change");
    this.connection.dispose();
    await this.serverProcess.terminate();
    // Again once its whole group is gone: a child of the server may have written there after
    // the server itself exited.
    this.serverProcess.removeTemporaryFolder();
  }

  /** Kills the process as a crash would (tests and `reload`). */
  kill(): void {
    this.serverProcess.kill();
  }

  private onNotification(method: string, params: unknown): void {
    if (method !== "textDocument/publishDiagnostics") return;
    const published = params as PublishDiagnosticsParams;
    this.documents.onPublish(
      this.spec.text === undefined
        ? published
        : convertPositions(published, published.uri, this.positions.converter("toUser")),
    );
  }

  private onProgress(token: string | number, params: unknown): void {
    const value = params as { kind?: string; title?: string; message?: string } | undefined;
    this.documents.onProgress(token, value);
    if (this.state !== "starting") return;
    const text = [value?.title, value?.message].filter(Boolean).join(": ");
    if (text !== "") this.options.onProgress?.(`${this.spec.command}: ${text}`);
  }

  private markCrashed(reason: string): void {
    if (this.state === "crashed" || this.stopping) return;
    this.watched.close();
    this.outside.close();
    this.crashedAt = Date.now();
    this.uptimeMs = this.state === "running" ? this.crashedAt - this.startedAt : 0;
    this.state = "crashed";
    this.failure = reason;
    // The server's own workers (tsserver under typescript-language-server) outlive it otherwise.
    this.kill();
    this.events.emit("crash");
    this.documents.events.emit("change");
  }

  /**
   * Throws when the server crashed or was stopped (the run ended, a reload): an answer waited
   * for meanwhile is no answer, and must not read as "no diagnostics".
   */
  assertAlive(): void {
    if (this.state === "crashed") throw this.crashedError();
    if (this.state === "stopped" || this.stopping) throw this.stoppedError("it answered");
  }

  /** True once it was stopped (or is stopping): by the run's end or a reload, not a crash. */
  stopped(): boolean {
    return this.stopping;
  }

  private stoppedError(before: string): LspError {
    return new LspError({
      code: "LSP_SERVER_FAILED",
      message: `${this.spec.command} (${this.spec.language}, root ${this.root}) was stopped before ${before} (the run ended, or the server was reloaded); call again`,
    });
  }

  private crashedError(): LspError {
    const tail = this.stderrTail();
    return new LspError({
      code: "LSP_SERVER_FAILED",
      message: `${this.spec.command} (${this.spec.language}, root ${this.root}) ${this.failure ?? "crashed"}${
        tail ? `; its stderr ends with:\n${tail}` : ""
      }\nIt restarts on the next call; use action "status" to see its state.`,
    });
  }
}

/** The document a request is about (`params.textDocument.uri`), if any. */
function documentUri(params: unknown): string | undefined {
  const uri = (params as { textDocument?: { uri?: unknown } } | null | undefined)?.textDocument?.uri;
  return typeof uri === "string" ? uri : undefined;
}
