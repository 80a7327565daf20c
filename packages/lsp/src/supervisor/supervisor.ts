import { isFolder } from "../files/is-folder.js";
import { extname, join, sep } from "node:path";
import type { ChildProcess } from "node:child_process";
import { resourceKey, terminateProcess, type Run } from "@tools/registry";
import type { Diagnostic } from "vscode-languageserver-protocol";
import { LanguageClient } from "../client/language-client.js";
import { LspError } from "../errors/lsp-error.js";
import { findBinary, type BinaryLookup } from "../servers/find-binary.js";
import { foldersUp, markerAbove } from "../servers/find-root.js";
import { defaultRootSearch, findProjectRoots, type RootSearch } from "../servers/project-folders.js";
import { RootCache } from "../servers/root-cache.js";
import {
  defaultServers,
  languageIdFor,
  serverForExtension,
  type ServerSpec,
} from "../servers/server-table.js";
import { settleDiskEvents } from "../files/disk-events.js";
import { FileTexts, type FileText } from "../files/file-texts.js";
import { isMissing, missingFileError } from "../files/missing-file.js";
import { PathNames } from "./path-names.js";
import { checkBackoff, countCrash, resetCrashes, type ServerRecord } from "./server-record.js";
import { serverSetup } from "./server-setup.js";
import { catchUpClients, resyncOpen } from "./document-resync.js";
import { EnvironmentRefresh } from "./environment-refresh.js";
import { diagnosticsOf, type FileDiagnostics } from "./file-diagnostics.js";
import { sentSinceSnapshot, takeSentSnapshot, type SentSnapshot } from "./sent-snapshot.js";
import { reloadServers } from "./server-reload.js";
import { startServer } from "./start-server.js";
import { explainMissing, statusReport, type Detection } from "./status-report.js";

export type { Detection } from "./status-report.js";
export type { FileDiagnostics } from "./file-diagnostics.js";
export type { SentSnapshot } from "./sent-snapshot.js";

/** Options of {@link createLspSupervisor}. */
export interface LspSupervisorOptions {
  /** Server table; entries replace the built-in ones of the same language. */
  servers?: readonly ServerSpec[];
  /** Folders searched for binaries after the project's node_modules/.bin, .venv/bin and venv/bin, before PATH. */
  binDirectories?: readonly string[];
  /** PATH used for the lookup and given to servers; default process.env.PATH. */
  path?: string;
  /** Bound of every request, in milliseconds; default 15 000. */
  requestTimeoutMs?: number;
  /** Bound of a wait for fresh diagnostics, in milliseconds; default 5 000. */
  diagnosticsTimeoutMs?: number;
}

/**
 * Starts and owns the language servers of one run: one process per (language, root), started on
 * first use (marker AND binary, or no start), restarted after a crash on the next use with
 * back-off, all ended by {@link LspSupervisor.dispose} (wired into the run).
 */
export class LspSupervisor {
  readonly workingDirectory: string;
  readonly servers: readonly ServerSpec[];
  readonly requestTimeoutMs: number;
  readonly diagnosticsTimeoutMs: number;
  /** Texts of files read for navigation and location lines, reused while unchanged on disk. */
  readonly texts = new FileTexts();

  private readonly options: LspSupervisorOptions;
  private readonly records = new Map<string, ServerRecord>();
  private readonly names: PathNames;
  private readonly specsByExtension = new Map<string, ServerSpec | undefined>();
  /** Root markers per folder, checked by one `stat` per folder. */
  private readonly roots = new RootCache();
  private disposed = false;
  /** Hands a Python server an environment made or changed since it started (see `EnvironmentRefresh`). */
  private readonly environment = new EnvironmentRefresh((root) => this.placeOf(root));
  /** Project checkers (tsc, go vet, cargo, compilers) still running. */
  private readonly checkerProcesses = new Set<ChildProcess>();

  constructor(workingDirectory: string, options: LspSupervisorOptions = {}) {
    this.workingDirectory = workingDirectory;
    this.names = new PathNames(workingDirectory);
    this.options = options;
    const overrides = options.servers ?? [];
    this.servers = [
      ...overrides,
      ...defaultServers.filter((spec) => !overrides.some((o) => o.language === spec.language)),
    ];
    this.requestTimeoutMs = options.requestTimeoutMs ?? 15_000;
    this.diagnosticsTimeoutMs = options.diagnosticsTimeoutMs ?? 5_000;
  }

  /** A path as shown: relative to the working directory, or absolute outside it (see {@link PathNames}). */
  display(path: string): string {
    return this.names.display(path);
  }

  /** A root as shown, and the working directory, for {@link serverSetup}. */
  private placeOf(root: string): { display: string; workingDirectory: string } {
    return { display: this.display(root), workingDirectory: this.workingDirectory };
  }

  /** The server spec for a file, or undefined when no server handles its extension. */
  specFor(file: string): ServerSpec | undefined {
    const extension = extname(file);
    if (this.specsByExtension.has(extension)) return this.specsByExtension.get(extension);
    const spec = serverForExtension(this.servers, extension);
    this.specsByExtension.set(extension, spec);
    return spec;
  }

  /** Root and binary detection for `file` (or, with `language`, for a root folder). */
  detect(spec: ServerSpec, file: string): Detection {
    const found = this.roots.find(file, spec, this.workingDirectory);
    const localRoots = found ? foldersUp(found.root, this.workingDirectory) : [this.workingDirectory];
    const binary = findBinary(spec.command, localRoots, this.options.binDirectories ?? [], this.options.path);
    const above = found ? undefined : markerAbove(spec, this.workingDirectory);
    return {
      spec,
      root: found?.root,
      marker: found?.marker,
      binary,
      ...(above ? { markerAbove: above } : {}),
    };
  }

  /**
   * The running client for `file`, started (or restarted after a crash) if needed. Throws
   * `LSP_NO_SERVER` saying whether the marker or the binary is missing.
   */
  async clientFor(file: string, progress?: (message: string) => void): Promise<LanguageClient> {
    return this.runningClientFor(file) ?? this.startClientFor(file, progress);
  }

  /** The root `spec`'s server would have for `file` (the nearest folder holding a marker), if any. */
  rootFor(spec: ServerSpec, file: string): string | undefined {
    return this.roots.find(file, spec, this.workingDirectory)?.root;
  }

  /**
   * What every running server has now (the text of each open document, its count of changes on
   * disk told), for {@link sentSince}: taken as a write tool begins, whatever files it changes.
   */
  sentSnapshot(): SentSnapshot {
    return takeSentSnapshot([...this.records.values()].map((record) => record.client));
  }

  /**
   * The running server of `file` when it may have the file's current text from after `snapshot`
   * (see {@link sentSnapshot}): its copy of the document changed (a sync with other text, a close
   * or an open), or, not open, a change on disk to it was told; a server started or restarted
   * since read it afresh. Undefined otherwise, for a file of no server's language, and when that
   * cannot be told (the record of changes on disk is bounded).
   */
  sentSince(snapshot: SentSnapshot, file: string): LanguageClient | undefined {
    if (!this.specFor(file)) return undefined;
    const client = this.runningClientFor(file);
    if (!client) return undefined;
    return sentSinceSnapshot(snapshot, client, file, (path) => this.uriOf(path));
  }

  /** The running client for `file` when its server is up (no await, no binary lookup); none is started. */
  runningClientFor(file: string): LanguageClient | undefined {
    if (this.disposed) return undefined;
    const spec = this.specFor(file);
    if (!spec) return undefined;
    const root = this.roots.find(file, spec, this.workingDirectory)?.root;
    const running = root ? this.records.get(`${spec.language}\u0000${root}`) : undefined;
    return running?.client?.state === "running" && !running.starting ? running.client : undefined;
  }

  private async startClientFor(file: string, progress?: (message: string) => void): Promise<LanguageClient> {
    if (this.disposed) throw new LspError({ code: "LSP_SERVER_FAILED", message: "the run has ended" });
    const spec = this.specFor(file);
    if (!spec && isFolder(file)) {
      throw new LspError({
        code: "LSP_BAD_ARGUMENTS",
        message: `${this.display(file)} is a folder; give a file in it: lsp answers about the code of one file`,
      });
    }
    if (!spec) {
      throw new LspError({
        code: "LSP_NO_SERVER",
        message: `no language server handles '${extname(file) || this.display(file)}' files; supported: ${this.servers
          .map((s) => `${s.language} (${s.extensions.join(" ")})`)
          .join(", ")}`,
      });
    }
    const detection = this.detect(spec, file);
    if (!detection.root || !detection.binary.found) {
      throw new LspError({ code: "LSP_NO_SERVER", message: explainMissing(detection, this.display(file)) });
    }
    const root = detection.root;
    const setup = serverSetup(spec, root, detection.binary.path, this.placeOf(root));
    if (!setup.ok) throw new LspError({ code: "LSP_NO_SERVER", message: setup.reason });
    const key = `${spec.language}\u0000${root}`;
    let record = this.records.get(key);
    if (!record) {
      record = { key, spec, root, crashes: 0, lastCrashAt: 0 };
      this.records.set(key, record);
    }
    if (record.starting) return record.starting;
    const current = record.client;
    if (current && current.state === "running") return current;
    if (current && current.state === "crashed") countCrash(record, current);
    checkBackoff(record, this.display(record.root));
    // The crashed client's connection and streams go with it (its process group is already gone).
    if (current && current.state === "crashed") void current.dispose();
    return this.track(record, this.start(record, detection.binary.path, progress));
  }

  /** Starts the server of `record` with `binary` (its setup checked again). */
  private start(
    record: ServerRecord,
    binary: string,
    progress?: (message: string) => void,
  ): Promise<LanguageClient> {
    const display = this.display(record.root);
    return startServer(
      record,
      binary,
      serverSetup(record.spec, record.root, binary, this.placeOf(record.root)),
      {
        display,
        path: this.options.path,
        requestTimeoutMs: this.requestTimeoutMs,
        progress,
        disposed: () => this.disposed,
      },
    );
  }

  /** Marks `record` as starting until `starting` settles (concurrent callers share it). */
  private async track(record: ServerRecord, starting: Promise<LanguageClient>): Promise<LanguageClient> {
    record.starting = starting;
    try {
      return await starting;
    } finally {
      if (record.starting === starting) record.starting = undefined;
    }
  }

  /**
   * Stops the server of `record` and starts it again on the same root (crash count and back-off
   * cleared); the new client, or the start's error. Callers meanwhile wait for the new one.
   */
  private restart(record: ServerRecord, progress?: (message: string) => void): Promise<LanguageClient> {
    const restarting = (async () => {
      await record.starting?.catch(() => undefined);
      await record.client?.dispose();
      record.client = undefined;
      resetCrashes(record);
      // The run ended while the old server stopped: no new one outlives it.
      if (this.disposed) throw new LspError({ code: "LSP_SERVER_FAILED", message: "the run has ended" });
      const detection = this.detect(record.spec, join(record.root, "_"));
      if (detection.root !== record.root || !detection.binary.found) {
        const markerGone = detection.root !== record.root;
        throw new LspError({
          code: "LSP_NO_SERVER",
          message: `${record.spec.command} for ${this.display(record.root)} cannot start again: ${
            markerGone ? `none of its root markers (${record.spec.markers.join(", ")}) is there any more` : ""
          }${markerGone && !detection.binary.found ? "; and " : ""}${
            detection.binary.found ? "" : `the binary is missing: ${detection.binary.reason}`
          }`,
        });
      }
      return this.start(record, detection.binary.path, progress);
    })();
    return this.track(record, restarting);
  }

  /**
   * Restarts the servers of the root of `file` (starting one that never ran), or, without a
   * file, every server that is running; one line per server saying what was done (see
   * `reloadServers` in server-reload.ts).
   */
  reload(file?: string): Promise<string[]> {
    return reloadServers(
      {
        records: this.records,
        specFor: (path) => this.specFor(path),
        detect: (spec, path) => this.detect(spec, path),
        display: (path) => this.display(path),
        clientFor: (path) => this.clientFor(path),
        restart: (record) => this.restart(record),
      },
      file,
    );
  }

  /**
   * Syncs a file from disk to its server (didOpen/didChange, and didSave when `save`), then waits
   * for its fresh diagnostics by the server's rule.
   */
  async diagnostics(
    file: string,
    options: {
      save?: boolean;
      timeoutMs?: number;
      progress?: (m: string) => void;
      /** False: a document open for a search (parked) stays so, not open for its own sake. */
      keep?: boolean;
      /** False: the other documents are not brought up to date first (see {@link catchUp}). */
      resync?: boolean;
      /**
       * Files whose changes that bringing up to date leaves unsent (the files of other writes
       * being made or checked: theirs to send); read when it runs.
       */
      holdBack?: () => readonly string[];
    } = {},
  ): Promise<FileDiagnostics> {
    const timeoutMs = options.timeoutMs ?? this.diagnosticsTimeoutMs;
    const deadline = Date.now() + timeoutMs;
    const asked: { client?: LanguageClient } = {};
    try {
      return await diagnosticsOf(this, file, options, timeoutMs, asked);
    } catch (error) {
      // Reloaded while asked (not the run's end): the restarted server answers, once.
      if (this.disposed || !asked.client?.stopped() || Date.now() >= deadline) throw error;
      return diagnosticsOf(this, file, options, deadline - Date.now(), {});
    }
  }

  /**
   * Opens (or re-syncs) a file on its server; returns the client, the uri and the text. With
   * `save` (a write to check) the file is read afresh; otherwise through {@link texts}. With
   * `forSearch`, the document may be closed again when the search that opened it ends
   * (`SearchHolds`); otherwise it stays open.
   */
  async open(
    file: string,
    save = false,
    progress?: (m: string) => void,
    forSearch = false,
  ): Promise<{ client: LanguageClient; uri: string; text: string; lines: () => readonly string[] }> {
    // A running server is used without an await (each costs an event-loop microtask per call).
    const client = this.runningClientFor(file) ?? (await this.startClientFor(file, progress));
    if (client.spec.language === "python") await this.environment.refresh(client);
    const uri = this.uriOf(file);
    // A rename's check holds edited text there: the disk's text is read once it is set back.
    const probe = client.probes.settled(uri);
    if (probe) await probe;
    let current: FileText;
    try {
      current = save ? this.texts.reread(file) : this.texts.read(file);
    } catch (error) {
      // Deleted since the action began.
      if (isMissing(error)) throw missingFileError(file, (path) => this.display(path), error);
      throw new LspError({
        code: "LSP_BAD_ARGUMENTS",
        message: `cannot read ${this.display(file)}: ${(error as Error).message}`,
        cause: error,
      });
    }
    const { text } = current;
    if (save || !client.isSynced(uri, text)) {
      await client.sync(uri, languageIdFor(client.spec, extname(file)), text, save);
    }
    // Asked about for its own sake: no search that opened it closes it now.
    if (!forSearch) client.searchHolds.keep(uri);
    return { client, uri, text, lines: current.lines };
  }

  /**
   * Brings every other document open on `client` but `except` up to date with the disk, the
   * files in `held` left as the server has them; returns the documents sent again (see
   * `resyncOpen` in document-resync.ts).
   */
  resyncOpen(client: LanguageClient, except?: string, held: readonly string[] = []): Promise<string[]> {
    return resyncOpen(this, client, except, held);
  }

  /**
   * Before a write of `files` is checked: brings their running servers up to date with
   * everything changed on disk but `holdBack` (`files`, and those of other writes being checked;
   * {@link resyncOpen} holding back their changes), so that what the other files have then is
   * what they had before the write. Returns the servers told anything (their earlier answers
   * about other files may no longer hold).
   */
  async catchUp(
    files: readonly string[],
    holdBack: () => readonly string[] = () => files,
  ): Promise<Set<LanguageClient>> {
    await settleDiskEvents();
    // Read after the settle: a write that landed meanwhile is held back too.
    const held = holdBack();
    return catchUpClients(this, held, () => this.runningClientsOf(files));
  }

  /**
   * The documents open on the running servers of `files`, other than `files` themselves: the
   * files a change to them can break or mend. Only those inside the working directory and not
   * under node_modules; most recently opened last.
   */
  openAlongside(files: readonly string[]): string[] {
    const own = new Set(files.map((file) => this.uriOf(file)));
    return [...this.runningClientsOf(files)].flatMap((client) =>
      client
        .openUris()
        .filter((uri) => !own.has(uri))
        .map((uri) => this.pathOf(uri))
        .filter((path) => this.isProjectFile(path)),
    );
  }

  /**
   * For each running server of `files` that publishes the diagnostics of files not open
   * (`spec.publishesWorkspace`: gopls): its publish mark now (undefined until its first check of
   * the whole workspace ended), and the latest publish (with its mark) of each such file inside
   * the working directory and not under node_modules; `complete` is false when publishes for
   * files not open were dropped past the server's bound (a file not listed may have diagnostics).
   */
  unopenedPublishes(files: readonly string[]): {
    server: string;
    mark: number | undefined;
    complete: boolean;
    files: { file: string; diagnostics: readonly Diagnostic[]; mark: number }[];
  }[] {
    return [...this.runningClientsOf(files)]
      .filter((client) => client.spec.publishesWorkspace)
      .map((client) => ({
        server: serverKey(client),
        mark: client.publishMark(),
        complete: client.unopenedComplete(),
        files: client.unopenedPublishes().flatMap(({ uri, diagnostics, mark }) => {
          if (!uri.startsWith("file:")) return [];
          const file = this.pathOf(uri);
          return this.isProjectFile(file) ? [{ file, diagnostics, mark }] : [];
        }),
      }));
  }

  /**
   * Waits until the running servers of `files` that report their diagnostics work (gopls) have
   * ended it for every edit sent: their publishes for the other files have come then. Returns
   * the servers whose work had not ended when `deadline` (Date.now()) passed, keyed as in
   * {@link unopenedPublishes}, with their command; empty when all ended.
   */
  async awaitDiagnosticsWork(
    files: readonly string[],
    deadline: number,
  ): Promise<{ server: string; command: string }[]> {
    const clients = [...this.runningClientsOf(files)];
    const done = await Promise.all(clients.map((client) => client.awaitWorkDone(deadline)));
    return clients.flatMap((client, i) =>
      done[i] ? [] : [{ server: serverKey(client), command: client.spec.command }],
    );
  }

  private runningClientsOf(files: readonly string[]): Set<LanguageClient> {
    const clients = new Set<LanguageClient>();
    for (const file of files) {
      const client = this.runningClientFor(file);
      if (client) clients.add(client);
    }
    return clients;
  }

  /** Inside the working directory and not under node_modules. */
  private isProjectFile(path: string): boolean {
    return path.startsWith(`${this.workingDirectory}${sep}`) && !path.includes(`${sep}node_modules${sep}`);
  }

  /**
   * An open file's diagnostics as its running server had them before `before` (performance.now()),
   * nothing synced first (see
   * `LanguageClient.currentDiagnostics`); undefined when it is not open or there is no answer.
   */
  async currentDiagnostics(
    file: string,
    timeoutMs: number,
    before: number,
    publishedOnly = false,
  ): Promise<readonly Diagnostic[] | undefined> {
    const client = this.runningClientFor(file);
    return client?.currentDiagnostics(this.uriOf(file), timeoutMs, before, publishedOnly);
  }

  /** The changes mark of a file's running server (see `LanguageClient.changesMark`). */
  changesMark(file: string): number | undefined {
    return this.runningClientFor(file)?.changesMark();
  }

  /**
   * Tells a deleted file's running server that it is gone (a write tool removed it): closed if
   * open there, and the deletion on disk, held back while the state before the write was read
   * (see {@link catchUp}), sent now (with the other changes held back, but `holdBack`'s).
   */
  async closeDeleted(file: string, holdBack: readonly string[] = []): Promise<void> {
    const client = this.runningClientFor(file);
    if (!client) return;
    const uri = this.uriOf(file);
    if (client.isOpen(uri)) await client.close(uri);
    // Other writes being checked keep theirs held back.
    await client.flushFileChanges(new Set(holdBack.filter((other) => other !== file)));
  }

  /** The `file://` URI of a path (memoised). */
  uriOf(file: string): string {
    return this.names.uriOf(file);
  }

  /** The path of a `file://` URI (memoised; throws as `fileURLToPath`). */
  pathOf(uri: string): string {
    return this.names.pathOf(uri);
  }

  /** Roots of the servers started for `spec`'s language, running or not (in start order). */
  startedRoots(spec: ServerSpec): string[] {
    return [...this.records.values()]
      .filter((record) => record.spec.language === spec.language)
      .map((record) => record.root);
  }

  /** Running clients (for workspace symbol search without a file). */
  runningClients(): LanguageClient[] {
    return [...this.records.values()]
      .map((record) => record.client)
      .filter((client): client is LanguageClient => client?.state === "running");
  }

  /** Folders searched for binaries before PATH (from the options). */
  get binDirectories(): readonly string[] {
    return this.options.binDirectories ?? [];
  }

  /** The PATH used for lookups and given to servers and checkers (the option, else ours). */
  get searchPath(): string | undefined {
    return this.options.path ?? process.env.PATH;
  }

  /** A tool (a project checker, a compiler) as a server binary is found: project-local first, then PATH. */
  findTool(command: string, root: string): BinaryLookup {
    return findBinary(command, foldersUp(root, this.workingDirectory), this.binDirectories, this.searchPath);
  }

  /** Roots found below the working directory, bounded (see `findProjectRoots`). */
  rootSearch(): RootSearch {
    return findProjectRoots(this.workingDirectory, this.servers, defaultRootSearch);
  }

  /**
   * Roots of started servers plus the roots found by {@link rootSearch}, with that search (it
   * says how far it looked). A root inside a workspace (a module of a go.work) names it: the
   * server of `workspace` serves it.
   */
  projectRoots(): {
    roots: { spec: ServerSpec; root: string; workspace?: string }[];
    search: RootSearch;
  } {
    const found = new Map<string, { spec: ServerSpec; root: string; workspace?: string }>();
    for (const record of this.records.values())
      found.set(record.key, { spec: record.spec, root: record.root });
    const search = this.rootSearch();
    for (const { spec, root, workspace } of search.roots)
      found.set(`${spec.language}\u0000${root}`, { spec, root, ...(workspace ? { workspace } : {}) });
    return { roots: [...found.values()], search };
  }

  /** The started servers with their process ids (status, tests, benchmarks). */
  processes(): { language: string; root: string; pid: number | undefined; state: string }[] {
    return [...this.records.values()].map((record) => ({
      language: record.spec.language,
      root: record.root,
      pid: record.client?.pid ?? record.lastPid,
      state: record.client?.state ?? (record.lastFailure ? "crashed" : "not started"),
    }));
  }

  /** One line per language and root: marker, binary, state and reason. */
  status(file?: string): string {
    return statusReport(
      {
        workingDirectory: this.workingDirectory,
        records: [...this.records.values()],
        servers: this.servers,
        detect: (spec, probe) => this.detect(spec, probe),
        display: (path) => this.display(path),
        specFor: (path) => this.specFor(path),
        rootSearch: () => this.rootSearch(),
        setupProblem: (spec, root, binary) => {
          const setup = serverSetup(spec, root, binary, this.placeOf(root));
          return setup.ok ? undefined : setup.reason;
        },
      },
      file,
    );
  }

  /**
   * Keeps a project checker's process (spawned in a group of its own) until it ends: the run's
   * end kills the group of every one still running. Returns the function that lets it go.
   */
  ownProcess(child: ChildProcess): () => void {
    if (this.disposed) {
      void terminateProcess(child, { group: true, graceMs: 1_000 });
      return () => undefined;
    }
    this.checkerProcesses.add(child);
    return () => this.checkerProcesses.delete(child);
  }

  /** Ends every server (shutdown, exit, then the process group) and checker. Idempotent. */
  async dispose(): Promise<void> {
    this.disposed = true;
    const checkers = [...this.checkerProcesses];
    this.checkerProcesses.clear();
    await Promise.all(checkers.map((child) => terminateProcess(child, { group: true, graceMs: 1_000 })));
    const clients = [...this.records.values()].flatMap((record) => {
      const pending = record.starting?.catch(() => undefined);
      return [record.client, pending];
    });
    await Promise.all(
      clients.map(async (entry) => {
        const client = entry instanceof LanguageClient ? entry : await entry;
        await client?.dispose();
      }),
    );
  }
}

/** The supervisor resource of a run; the lsp tools are registered only when it is wired. */
export const lspSupervisorKey = resourceKey<LspSupervisor>("LSP supervisor");

/**
 * Creates the run's LSP supervisor and wires it under {@link lspSupervisorKey}: the run owns it,
 * and `run.dispose()` ends every server it started (shutdown, then the whole process group).
 */
export function createLspSupervisor(run: Run, options: LspSupervisorOptions = {}): LspSupervisor {
  const supervisor = new LspSupervisor(run.workingDirectory, options);
  run.wire(lspSupervisorKey, supervisor);
  return supervisor;
}

/**
 * A running server's key, as {@link LspSupervisor.unopenedPublishes} and
 * {@link LspSupervisor.awaitDiagnosticsWork} name it: its language and root.
 */
export function serverKey(client: Pick<LanguageClient, "spec" | "root">): string {
  return `${client.spec.language}\u0000${client.root}`;
}
