import { extname, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { resourceKey, type Run } from "@tools/registry";
import type { Diagnostic } from "vscode-languageserver-protocol";
import { LanguageClient } from "../client/language-client.js";
import { LspError } from "../errors/lsp-error.js";
import { findBinary } from "../servers/find-binary.js";
import { RootCache } from "../servers/root-cache.js";
import {
  defaultServers,
  languageIdFor,
  serverForExtension,
  type ServerSpec,
} from "../servers/server-table.js";
import { FileTexts, type FileText } from "./file-texts.js";
import { checkBackoff, countCrash, type ServerRecord } from "./server-record.js";
import { startServer } from "./start-server.js";
import { explainMissing, markerProbes, statusReport, type Detection } from "./status-report.js";

export type { Detection } from "./status-report.js";

/** Options of {@link createLspSupervisor}. */
export interface LspSupervisorOptions {
  /** Server table; entries replace the built-in ones of the same language. */
  servers?: readonly ServerSpec[];
  /** Folders searched for binaries after the project's node_modules/.bin and .venv/bin, before PATH. */
  binDirectories?: readonly string[];
  /** PATH used for the lookup and given to servers; default process.env.PATH. */
  path?: string;
  /** Bound of every request, in milliseconds; default 15 000. */
  requestTimeoutMs?: number;
  /** Bound of a wait for fresh diagnostics, in milliseconds; default 5 000. */
  diagnosticsTimeoutMs?: number;
}

/** Fresh (or, at the bound, possibly incomplete) diagnostics of one file. */
export interface FileDiagnostics {
  readonly file: string;
  readonly diagnostics: readonly Diagnostic[];
  /** False when the wait hit its bound: the list may be incomplete or stale. */
  readonly fresh: boolean;
  /** The file's text as synced, for quoting lines. */
  readonly text: string;
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
  private readonly uris = new Map<string, string>();
  private readonly paths = new Map<string, string>();
  private readonly displays = new Map<string, string>();
  private readonly specsByExtension = new Map<string, ServerSpec | undefined>();
  /** Root markers per folder, checked by one `stat` per folder. */
  private readonly roots = new RootCache();
  private disposed = false;

  constructor(workingDirectory: string, options: LspSupervisorOptions = {}) {
    this.workingDirectory = workingDirectory;
    this.options = options;
    const overrides = options.servers ?? [];
    this.servers = [
      ...overrides,
      ...defaultServers.filter((spec) => !overrides.some((o) => o.language === spec.language)),
    ];
    this.requestTimeoutMs = options.requestTimeoutMs ?? 15_000;
    this.diagnosticsTimeoutMs = options.diagnosticsTimeoutMs ?? 5_000;
  }

  /** A path relative to the working directory, for output (memoised: asked for per location). */
  display(path: string): string {
    let shown = this.displays.get(path);
    if (shown === undefined) {
      shown = relative(this.workingDirectory, path) || ".";
      if (this.displays.size >= 4096) this.displays.clear();
      this.displays.set(path, shown);
    }
    return shown;
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
    const found = this.roots.find(file, spec.markers, this.workingDirectory);
    const localRoots = [...new Set([found?.root, this.workingDirectory].filter((r): r is string => !!r))];
    const binary = findBinary(spec.command, localRoots, this.options.binDirectories ?? [], this.options.path);
    return { spec, root: found?.root, marker: found?.marker, binary };
  }

  /**
   * The running client for `file`, started (or restarted after a crash) if needed. Throws
   * `LSP_NO_SERVER` saying whether the marker or the binary is missing.
   */
  async clientFor(file: string, progress?: (message: string) => void): Promise<LanguageClient> {
    return this.runningClientFor(file) ?? this.startClientFor(file, progress);
  }

  /** The running client for `file` when its server is up (no await, no binary lookup). */
  private runningClientFor(file: string): LanguageClient | undefined {
    if (this.disposed) return undefined;
    const spec = this.specFor(file);
    if (!spec) return undefined;
    const root = this.roots.find(file, spec.markers, this.workingDirectory)?.root;
    const running = root ? this.records.get(`${spec.language}\u0000${root}`) : undefined;
    return running?.client?.state === "running" && !running.starting ? running.client : undefined;
  }

  private async startClientFor(file: string, progress?: (message: string) => void): Promise<LanguageClient> {
    if (this.disposed) throw new LspError({ code: "LSP_SERVER_FAILED", message: "the run has ended" });
    const spec = this.specFor(file);
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
    const key = `${spec.language}\u0000${detection.root}`;
    let record = this.records.get(key);
    if (!record) {
      record = { key, spec, root: detection.root, crashes: 0, lastCrashAt: 0 };
      this.records.set(key, record);
    }
    if (record.starting) return record.starting;
    const current = record.client;
    if (current && current.state === "running") return current;
    if (current && current.state === "crashed") countCrash(record, current);
    checkBackoff(record, this.display(record.root));
    const binary = detection.binary.path;
    const starting = startServer(record, binary, {
      display: this.display(record.root),
      path: this.options.path,
      requestTimeoutMs: this.requestTimeoutMs,
      progress,
      disposed: () => this.disposed,
    });
    record.starting = starting;
    try {
      return await starting;
    } finally {
      record.starting = undefined;
    }
  }

  /** Restarts the servers of the root of `file`, or every started server without a file. */
  async reload(file?: string): Promise<string[]> {
    const targets: ServerRecord[] = [];
    if (file) {
      const spec = this.specFor(file);
      const detection = spec ? this.detect(spec, file) : undefined;
      if (!spec || !detection?.root) {
        throw new LspError({
          code: "LSP_NO_SERVER",
          message: spec
            ? explainMissing(detection!, this.display(file))
            : `no language server handles ${this.display(file)}`,
        });
      }
      const record = this.records.get(`${spec.language}\u0000${detection.root}`);
      if (record) targets.push(record);
      else {
        await this.clientFor(file);
        return [`${spec.language} for ${this.display(detection.root)}: started`];
      }
    } else targets.push(...this.records.values());
    const done: string[] = [];
    for (const record of targets) {
      await record.client?.dispose();
      record.client = undefined;
      record.crashes = 0;
      record.lastFailure = undefined;
      record.countedCrashOf = undefined;
      done.push(`${record.spec.language} for ${this.display(record.root)}: restarted`);
    }
    if (file) await this.clientFor(file);
    return done;
  }

  /**
   * Syncs a file from disk to its server (didOpen/didChange, and didSave when `save`), then waits
   * for its fresh diagnostics by the server's rule.
   */
  async diagnostics(
    file: string,
    options: { save?: boolean; timeoutMs?: number; progress?: (m: string) => void } = {},
  ): Promise<FileDiagnostics> {
    const { client, uri, text } = await this.open(file, options.save ?? true, options.progress);
    const { diagnostics, fresh } = await client.freshDiagnostics(
      uri,
      options.timeoutMs ?? this.diagnosticsTimeoutMs,
    );
    return { file, diagnostics, fresh, text };
  }

  /**
   * Opens (or re-syncs) a file on its server; returns the client, the uri and the text. With
   * `save` (a write to check) the file is read afresh; otherwise through {@link texts}.
   */
  async open(
    file: string,
    save = false,
    progress?: (m: string) => void,
  ): Promise<{ client: LanguageClient; uri: string; text: string; lines: () => readonly string[] }> {
    // A running server is used without an await (each costs an event-loop microtask per call).
    const client = this.runningClientFor(file) ?? (await this.startClientFor(file, progress));
    let current: FileText;
    try {
      current = save ? this.texts.reread(file) : this.texts.read(file);
    } catch (error) {
      throw new LspError({
        code: "LSP_BAD_ARGUMENTS",
        message: `cannot read ${this.display(file)}: ${(error as Error).message}`,
        cause: error,
      });
    }
    const uri = this.uriOf(file);
    const { text } = current;
    if (save || !client.isSynced(uri, text)) {
      await client.sync(uri, languageIdFor(client.spec, extname(file)), text, save);
    }
    return { client, uri, text, lines: current.lines };
  }

  /** The `file://` URI of a path (memoised: it is asked for on every call). */
  uriOf(file: string): string {
    let uri = this.uris.get(file);
    if (uri === undefined) {
      uri = pathToFileURL(file).href;
      if (this.uris.size >= 1024) this.uris.clear();
      this.uris.set(file, uri);
    }
    return uri;
  }

  /** The path of a `file://` URI (memoised: asked for per location of every answer; throws as `fileURLToPath`). */
  pathOf(uri: string): string {
    let path = this.paths.get(uri);
    if (path === undefined) {
      path = fileURLToPath(uri);
      if (this.paths.size >= 4096) this.paths.clear();
      this.paths.set(uri, path);
    }
    return path;
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

  /** Roots of started servers plus roots found in the working directory and its direct subfolders. */
  projectRoots(): { spec: ServerSpec; root: string }[] {
    const found = new Map<string, { spec: ServerSpec; root: string }>();
    for (const record of this.records.values())
      found.set(record.key, { spec: record.spec, root: record.root });
    for (const spec of this.servers) {
      for (const probe of markerProbes(this.workingDirectory)) {
        const root = this.roots.find(probe, spec.markers, this.workingDirectory)?.root;
        if (root) found.set(`${spec.language}\u0000${root}`, { spec, root });
      }
    }
    return [...found.values()];
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
        markerProbes: () => markerProbes(this.workingDirectory),
      },
      file,
    );
  }

  /** Ends every server (shutdown, exit, then the process group). Idempotent. */
  async dispose(): Promise<void> {
    this.disposed = true;
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
