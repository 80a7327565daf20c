import { spawn, type ChildProcess } from "node:child_process";
import { EventEmitter } from "node:events";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { extname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createProcessMark, signalGroup, terminateProcess } from "@tools/registry";
import { createMessageConnection, StreamMessageReader, type MessageConnection } from "vscode-jsonrpc/node";
import {
  FileChangeType,
  type Diagnostic,
  type InitializeResult,
  type PublishDiagnosticsParams,
  type ServerCapabilities,
} from "vscode-languageserver-protocol";
import { LspError } from "../errors/lsp-error.js";
import { settleDiskEvents } from "../files/disk-events.js";
import { FileTexts, type FileText } from "../files/file-texts.js";
import { convertPositions, type PositionConverter } from "../positions/convert-positions.js";
import { textView, type TextPosition, type TextView } from "../positions/text-view.js";
import { OpenViews } from "./open-views.js";
import type { ServerSpec } from "../servers/server-table.js";
import { clientCapabilities } from "./client-capabilities.js";
import { boundedRequest } from "./bounded-request.js";
import { DocumentSync, printOf, samePrint, type TextPrint } from "./document-sync.js";
import { pullAvailable, pullDiagnostics } from "./pull-diagnostics.js";
import { tsserverPullAvailable, tsserverPullDiagnostics } from "./tsserver-diagnostics.js";
import { SingleWriteMessageWriter } from "./single-write-writer.js";
import {
  answerServerRequest,
  newServerRequestState,
  watchedBy,
  type ServerRequestState,
} from "./server-requests.js";
import { ProbedDocuments } from "./probed-documents.js";
import { SearchHolds } from "./search-holds.js";
import { heldWith, mergeFileEvents } from "./merge-file-events.js";
import { WatchedFolders, type FileEvent } from "./watched-folders.js";

/** Where a server is in its life. */
export type ClientState = "starting" | "running" | "crashed" | "stopped";

/** Diagnostics of one document version (see {@link LanguageClient.freshDiagnostics}). */
export interface FreshDiagnostics {
  readonly diagnostics: Diagnostic[];
  /** False when the wait hit its bound: the list may be stale. */
  readonly fresh: boolean;
  /** What the list lacks, when known (a checker run that did not finish): then fresh or not. */
  readonly incomplete?: string;
}

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

const stderrLines = 20;

/** Files past this size (bytes) are not scanned by name. */
const largestScanned = 1_000_000;

/** Most changes on disk remembered (see `LanguageClient.diskChangesSince`). */
const diskChangesKept = 1_000;

/** The longest a settings change waits for the server to read them (see `changeSettings`). */
const settingsReadMs = 2_000;

/** Most created files remembered per server (see `LanguageClient.createdFiles`). */
const createdKept = 5_000;

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
  private readonly child: ChildProcess;
  private readonly connection: MessageConnection;
  private readonly stderr: string[] = [];
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
  private readonly created = new Set<string>();
  /** Per text read from disk: whether it differs from its file's text at its last close. */
  private readonly closedChecks = new WeakMap<FileText, { print: TextPrint; changed: boolean }>();
  /**
   * Texts of the root's files for scans by name: a repeated scan reads only the files whose
   * identity changed (one `stat` each: the folder watch can lose events when the kernel's queue
   * overflows, so it is not trusted for this). Small files only, 64 M characters in all.
   */
  private readonly rootTexts = new FileTexts({
    capacity: 20_000,
    largestKept: 256 * 1024,
    totalKept: 64 * 1024 * 1024,
  });
  /**
   * Texts of the files not open here whose positions the server answers with (a definition in a
   * library's declarations), for {@link viewOf}: read again only when the file changed.
   */
  private readonly viewTexts = new FileTexts({ capacity: 512, totalKept: 64 * 1024 * 1024 });
  /** Per text read from disk: how the server's positions in it map to the user's (see {@link viewOf}). */
  private readonly diskViews = new WeakMap<FileText, TextView | null>();
  /** The view of each open document's synced text, computed on first use, dropped at its close. */
  private readonly openViews = new OpenViews<TextView | undefined>();
  private stopping = false;
  /** The shutdown under way or done (see {@link dispose}). */
  private disposing: Promise<void> | undefined;
  /** See {@link currentSettings}. */
  private settings: Record<string, unknown>;
  /** Changes on disk to files of this server's languages (see {@link diskChangesSince}). */
  private diskChangeCount = 0;
  private readonly diskChanges: { count: number; path: string }[] = [];
  /** Changes on disk held back by {@link flushFileChanges} until its next call. */
  private readonly heldBack: FileEvent[] = [];
  /** See {@link hasAnswered}. */
  private answeredOnce = false;
  /** Set once the connection closed (the process ended): nothing more can be sent. */
  private connectionClosed = false;
  /** When the process was spawned (`Date.now()` ms), for {@link uptimeMs}. */
  private readonly startedAt = Date.now();
  /**
   * The process's own temporary folder (its TMPDIR), removed once it has ended: servers leave
   * files there (typescript-language-server a folder of tsserver cancellation files per start).
   */
  private readonly temporaryFolder: string | undefined;
  /** The process mark the server and whatever it starts carry. */
  private readonly mark: string;

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
    const env = options.env ?? process.env;
    this.temporaryFolder = makeTemporaryFolder(env.TMPDIR || tmpdir());
    // What the server starts (tsserver, a gopls daemon) carries its mark and ends with it.
    const mark = createProcessMark();
    this.mark = mark.value;
    this.child = spawn(options.binary, [...options.spec.args], {
      cwd: options.root,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
      env: {
        ...env,
        ...(this.temporaryFolder === undefined ? {} : { TMPDIR: this.temporaryFolder }),
        ...mark.env,
      },
    });
    this.pid = this.child.pid;
    this.child.stderr?.setEncoding("utf8");
    this.child.stderr?.on("data", (chunk: string) => {
      this.stderr.push(...chunk.split("\n").filter((line) => line.trim() !== ""));
      if (this.stderr.length > stderrLines) this.stderr.splice(0, this.stderr.length - stderrLines);
    });
    this.child.on("error", (error) =>
      this.markCrashed(`could not start ${options.binary}: ${error.message}`),
    );
    this.child.on("exit", (code, signal) => {
      if (!this.stopping) {
        this.markCrashed(`exited ${signal ? `on ${signal}` : `with code ${code}`}`);
        // What a crashed server left running serves nothing: it ends too.
        void terminateProcess(this.child, { group: true, mark: this.mark, graceMs: 1000 });
      }
      this.removeTemporaryFolder();
    });
    // A write to a dead server's stdin must not become an unhandled error.
    this.child.stdin?.on("error", () => undefined);
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
  async changeSettings(settings: Record<string, unknown>): Promise<void> {
    this.settings = settings;
    // Until it asked for them (after our answer went out), a question could still be answered
    // with the old ones. Bounded: a server that reads no configuration never asks.
    let onAsked: () => void = () => undefined;
    let timer: NodeJS.Timeout | undefined;
    const asked = new Promise<void>((resolve) => {
      onAsked = resolve;
      timer = setTimeout(resolve, settingsReadMs);
      this.events.once("configuration", onAsked).once("crash", onAsked).once("stop", onAsked);
    });
    try {
      await this.notify("workspace/didChangeConfiguration", { settings });
      await asked;
    } finally {
      clearTimeout(timer);
      this.events.off("configuration", onAsked).off("crash", onAsked).off("stop", onAsked);
    }
  }

  /** The last lines the server wrote to stderr. */
  stderrTail(): string {
    return this.stderr.join("\n");
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
      const sent = convertPositions(params, uri, this.converter("toServer"));
      const answer = await this.send<R>(method, sent, timeoutMs, signal);
      return convertPositions(answer, uri, this.converter("toUser"));
    }
    return this.send<R>(method, params, timeoutMs, signal);
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
    let timer: NodeJS.Timeout | undefined;
    let onCrash: () => void = () => undefined;
    const outcome = await Promise.race([
      this.connection.sendNotification(method, params).then(() => "sent" as const),
      new Promise<"stalled">((resolve) => {
        timer = setTimeout(() => resolve("stalled"), timeoutMs);
      }),
      new Promise<"ended">((resolve) => {
        onCrash = () => resolve("ended");
        this.events.once("crash", onCrash).once("stop", onCrash);
      }),
    ]).finally(() => {
      clearTimeout(timer);
      this.events.off("crash", onCrash).off("stop", onCrash);
    });
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
    if (this.created.size > 0 && !this.documents.isOpen(uri)) this.created.delete(fileURLToPath(uri));
    return this.documents.sync(uri, languageId, text, save);
  }

  /**
   * Files of this server's languages created on disk since it started and not opened on it since
   * (most recent last, at most {@link createdKept}): see `spec.createdFiles`.
   */
  createdFiles(): string[] {
    return [...this.created];
  }

  private noteCreated(path: string, created: boolean): void {
    this.created.delete(path);
    if (!created) return;
    this.created.add(path);
    if (this.created.size > createdKept) this.created.delete(this.created.values().next().value!);
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

  /** See {@link DocumentSync.changesMark}. */
  changesMark(): number {
    return this.documents.changesMark();
  }

  /** See {@link DocumentSync.unopenedComplete}. */
  unopenedComplete(): boolean {
    return this.documents.unopenedComplete();
  }

  /** See {@link DocumentSync.refreshIncluders}. */
  refreshIncluders(): Promise<string[]> {
    return this.documents.refreshIncluders();
  }

  /** Closes a document (after a rename moved or deleted it). */
  close(uri: string): Promise<void> {
    this.searchHolds.forget(uri);
    // Its text and view are not kept past the close (one per document converted while open).
    this.openViews.forget(uri);
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

  /**
   * Diagnostics for the document's current version, by the freshness rule for this server:
   * pull (`textDocument/diagnostic`) where the server offers it, or tsserver's own diagnostics
   * requests through typescript-language-server (`spec.pull`); otherwise, or when a pull fails,
   * the push rule of {@link DocumentSync.awaitPublish} — which a pull registration arriving
   * meanwhile interrupts, for a pull. All of it shares one deadline, `timeoutMs`
   * from the call: a pull that fails late leaves the push wait only what remains. When the
   * deadline passes first, `fresh` is false and the diagnostics are whatever arrived.
   *
   * `withCheck`, on a server that runs a checker after saves (`spec.checkOnSave`: cargo check
   * in rust-analyzer), also waits, within the same deadline, for the run after the document's
   * last save and adds its pushed diagnostics; when it had not finished or did not start,
   * `incomplete` says so (the pulled diagnostics stay fresh: they are the server's own).
   */
  async freshDiagnostics(
    uri: string,
    timeoutMs: number,
    options: { withCheck?: boolean } = {},
  ): Promise<FreshDiagnostics> {
    if (!this.documents.isOpen(uri)) throw new Error(`document ${uri} is not open`);
    const deadline = Date.now() + timeoutMs;
    const own = await this.ownDiagnostics(uri, deadline);
    const check = this.spec.checkOnSave;
    // Its publishes carry the checker's diagnostics alone while it serves pulls: after a failed
    // pull they are not the server's own answer.
    if (check && own.pullFailed) {
      return {
        diagnostics: own.diagnostics,
        fresh: false,
        incomplete: `the pull of ${this.spec.command}'s own diagnostics failed; only ${check.name}'s may be listed`,
      };
    }
    if (!options.withCheck || !check || !own.fresh) return own;
    const run = await this.documents.awaitCheck(uri, deadline);
    // In pull mode the publishes carry the checker's diagnostics alone; otherwise they are the
    // whole set, the server's own included.
    if (run.state === "checked") {
      return {
        diagnostics: own.pulled ? [...own.diagnostics, ...run.diagnostics] : run.diagnostics,
        fresh: true,
      };
    }
    const why = {
      pending: `${check.name} had not finished within ${timeoutMs} ms`,
      "not-started": `${check.name} did not start after the save (off, or the workspace still loading)`,
      stopped: `the server stopped, or the file was closed, before ${check.name} finished`,
    }[run.state];
    // Pulled, the server's own diagnostics are fresh and complete for what they cover; pushed,
    // they came with an earlier run's results.
    return own.pulled
      ? { diagnostics: own.diagnostics, fresh: true, incomplete: `${why}; its diagnostics are not included` }
      : {
          diagnostics: own.diagnostics,
          fresh: false,
          incomplete: `${why}; its diagnostics may be from an earlier run`,
        };
  }

  /**
   * The open document's diagnostics as the server had them before `before` (performance.now()),
   * nothing sent first: its publish for the document's current version when one came by then;
   * else pulled, where the server offers a pull; else the publish answering the version sent,
   * awaited. A server running a checker after saves adds the checker's last published ones to a
   * pull. Undefined when there is no answer within `timeoutMs`. What a file had before a write
   * is read so: tsserver reads a file that is not open from disk, and a pull after the write has
   * it already, while its publishes for other files come only after an edit sent to it.
   * `publishedOnly`: only that publish, nothing asked or awaited — for a write of a file not open
   * here, which the server may have read from disk already.
   */
  async currentDiagnostics(
    uri: string,
    timeoutMs: number,
    before: number,
    publishedOnly = false,
  ): Promise<Diagnostic[] | undefined> {
    if (!this.documents.isOpen(uri)) return undefined;
    if (publishedOnly) return this.documents.answeredBefore(uri, before);
    const request = <R>(method: string, params: unknown, bound: number): Promise<R> =>
      this.request<R>(method, params, bound);
    const pullMode = pullAvailable(this.capabilities, this.requestState);
    if (this.spec.checkOnSave && pullMode) {
      const pulled = await pullDiagnostics(
        request,
        this.capabilities,
        this.requestState,
        uri,
        timeoutMs,
      ).catch(() => undefined);
      // In pull mode its publishes carry the checker's diagnostics alone.
      return pulled ? [...pulled, ...(this.documents.lastDiagnostics(uri) ?? [])] : undefined;
    }
    const published = this.documents.answeredBefore(uri, before);
    if (published) return published;
    if (this.spec.pull === "tsserver" && tsserverPullAvailable(this.capabilities)) {
      return tsserverPullDiagnostics(request, uri, timeoutMs)
        .then((pulled) => this.fromServer(uri, pulled))
        .catch(() => undefined);
    }
    if (pullMode) {
      return pullDiagnostics(request, this.capabilities, this.requestState, uri, timeoutMs).catch(
        () => undefined,
      );
    }
    const answer = await this.documents.awaitPublish(uri, Date.now() + timeoutMs);
    return answer.fresh ? answer.diagnostics : undefined;
  }

  /** The server's own diagnostics for the document's current version (see {@link freshDiagnostics}). */
  private async ownDiagnostics(
    uri: string,
    deadline: number,
  ): Promise<{ diagnostics: Diagnostic[]; fresh: boolean; pulled: boolean; pullFailed?: boolean }> {
    const remaining = (): number => deadline - Date.now();
    const request = <R>(method: string, params: unknown, bound: number): Promise<R> =>
      this.request<R>(method, params, bound);
    if (this.spec.pull === "tsserver" && tsserverPullAvailable(this.capabilities) && remaining() > 0) {
      const pulled = await tsserverPullDiagnostics(request, uri, remaining())
        .then((answer) => this.fromServer(uri, answer))
        .catch(() => undefined);
      if (pulled) return { diagnostics: pulled, fresh: true, pulled: true };
    }
    let pullFailed = false;
    for (;;) {
      if (!pullFailed && pullAvailable(this.capabilities, this.requestState) && remaining() > 0) {
        const pulled = await pullDiagnostics(
          request,
          this.capabilities,
          this.requestState,
          uri,
          remaining(),
        ).catch(() => undefined);
        if (pulled) return { diagnostics: pulled, fresh: true, pulled: true };
        pullFailed = true;
      }
      // A server that registers pull diagnostics dynamically (pyright, just after initialize)
      // publishes nothing once it has: a registration during the wait ends it, and we pull.
      const awaitRegistration = !pullFailed && !pullAvailable(this.capabilities, this.requestState);
      const pushed = await this.documents.awaitPublish(
        uri,
        deadline,
        awaitRegistration ? () => pullAvailable(this.capabilities, this.requestState) : undefined,
      );
      if (!pushed.interrupted) {
        return { diagnostics: pushed.diagnostics, fresh: pushed.fresh, pulled: false, pullFailed };
      }
    }
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
    if ((!this.watched.pending && this.heldBack.length === 0) || this.state !== "running") return false;
    // Held back last time and changed again since: one event per path.
    const taken = mergeFileEvents([...this.heldBack.splice(0), ...this.watched.take()]);
    const held = except && heldWith(except, this.watched.links);
    const events = held ? taken.filter((event) => !held(event.path)) : taken;
    if (held) this.heldBack.push(...taken.filter((event) => held(event.path)));
    let relevant = false;
    let included = false;
    const changes: { uri: string; type: number }[] = [];
    for (const event of events) {
      const watched = watchedBy(this.requestState, this.root, event.path, event.type);
      const ofLanguage = this.spec.extensions.includes(extname(event.path).toLowerCase());
      if (!watched && !ofLanguage) continue;
      relevant = true;
      if (ofLanguage) this.noteDiskChange(event.path);
      const uri = pathToFileURL(event.path).href;
      const open = this.documents.isOpen(uri);
      // An open one's new text counts once it is sent.
      included ||= !open && this.documents.isIncluded(uri);
      if (this.spec.createdFiles && ofLanguage)
        this.noteCreated(event.path, event.type === FileChangeType.Created && !open);
      if (watched && !open) changes.push({ uri, type: event.type });
    }
    if (!relevant) return false;
    this.documents.noteChanges(included);
    if (changes.length > 0) await this.documents.changedOnDisk({ changes });
    return true;
  }

  /** Counts the changes on disk to files of this server's languages (see {@link diskChangesSince}). */
  diskChangeMark(): number {
    return this.diskChangeCount;
  }

  /**
   * The files of this server's languages that changed on disk after `mark` (see
   * {@link diskChangeMark}), each once, as the folder watch told; undefined when that is no
   * longer known (the record is bounded) or the watch does not cover the root.
   */
  diskChangesSince(mark: number): string[] | undefined {
    if (!this.watched.complete) return undefined;
    if (this.diskChangeCount === mark) return [];
    const oldest = this.diskChanges[0];
    if (!oldest || oldest.count > mark + 1) return undefined;
    const paths = new Set<string>();
    for (const change of this.diskChanges) if (change.count > mark) paths.add(change.path);
    return [...paths];
  }

  private noteDiskChange(path: string): void {
    this.diskChangeCount += 1;
    this.diskChanges.push({ count: this.diskChangeCount, path });
    if (this.diskChanges.length > diskChangesKept) this.diskChanges.shift();
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
    return this.rootTexts.tryRead(path, largestScanned)?.text;
  }

  /**
   * True when the file under the root was open here, is closed now, and its text on disk is not
   * the one it was closed with: a server that keeps a closed file's symbols (clangd) still
   * answers from the old text until it is opened again. Hashes each text read once.
   */
  changedSinceClosed(path: string, uri = pathToFileURL(path).href): boolean {
    const print = this.documents.closedPrint(uri);
    if (!print) return false;
    const entry = this.rootTexts.tryRead(path, largestScanned);
    if (!entry) return false;
    const known = this.closedChecks.get(entry);
    if (known?.print === print) return known.changed;
    const now = printOf(entry.text);
    const changed = !samePrint(now, print);
    this.closedChecks.set(entry, { print, changed });
    return changed;
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
    await terminateProcess(this.child, { group: true, mark: this.mark, graceMs: 1000 });
    // Again once its whole group is gone: a child of the server may have written there after
    // the server itself exited.
    this.removeTemporaryFolder();
  }

  private removeTemporaryFolder(): void {
    if (this.temporaryFolder !== undefined) rmSync(this.temporaryFolder, { recursive: true, force: true });
  }

  /** Kills the process as a crash would (tests and `reload`). */
  kill(): void {
    signalGroup(this.child, "SIGKILL");
  }

  private onNotification(method: string, params: unknown): void {
    if (method !== "textDocument/publishDiagnostics") return;
    const published = params as PublishDiagnosticsParams;
    this.documents.onPublish(
      this.spec.text === undefined
        ? published
        : convertPositions(published, published.uri, this.converter("toUser")),
    );
  }

  /**
   * How the server's positions in the document `uri` map to the user's (see `TextRule`), for
   * the text the server has of it: the text last sent when open here, else the file on disk.
   * Undefined when they are the same (the common case: one quick scan per text) or unreadable.
   */
  private viewOf(uri: string): TextView | undefined {
    const rule = this.spec.text;
    if (rule === undefined) return undefined;
    const synced = this.documents.syncedText(uri);
    if (synced !== undefined) return this.openViews.get(uri, synced, (text) => textView(text, rule));
    this.openViews.forget(uri);
    let path: string;
    try {
      path = fileURLToPath(uri);
    } catch {
      return undefined;
    }
    const entry = this.viewTexts.tryRead(path);
    if (entry === undefined) return undefined;
    let view = this.diskViews.get(entry);
    if (view === undefined) {
      view = textView(entry.text, rule) ?? null;
      this.diskViews.set(entry, view);
    }
    return view ?? undefined;
  }

  /** `value`, holding positions of the server's in the document `uri`, with the user's. */
  private fromServer<T>(uri: string, value: T): T {
    return convertPositions(value, uri, this.converter("toUser"));
  }

  /** Converts positions one way, each document's view looked up once (one `stat` per file). */
  private converter(direction: "toServer" | "toUser"): PositionConverter {
    const views = new Map<string, TextView | undefined>();
    return (uri: string, position: TextPosition): TextPosition => {
      let view = views.get(uri);
      if (view === undefined && !views.has(uri)) {
        view = this.viewOf(uri);
        views.set(uri, view);
      }
      return view ? view[direction](position) : position;
    };
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

/** A new folder for one server process's temporary files, or undefined when it cannot be made (the server then uses `parent`). */
function makeTemporaryFolder(parent: string): string | undefined {
  try {
    return mkdtempSync(join(parent, "lsp-tmp-"));
  } catch {
    return undefined;
  }
}
