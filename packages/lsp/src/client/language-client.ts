import { spawn, type ChildProcess } from "node:child_process";
import { EventEmitter } from "node:events";
import { pathToFileURL } from "node:url";
import { ToolsError, terminateProcess } from "@tools/registry";
import {
  CancellationTokenSource,
  createMessageConnection,
  ResponseError,
  StreamMessageReader,
  StreamMessageWriter,
  type MessageConnection,
} from "vscode-jsonrpc/node";
import type {
  Diagnostic,
  InitializeResult,
  PublishDiagnosticsParams,
  ServerCapabilities,
} from "vscode-languageserver-protocol";
import { LspError } from "../errors/lsp-error.js";
import type { ServerSpec } from "../servers/server-table.js";
import { clientCapabilities } from "./client-capabilities.js";
import { answerServerRequest, type ServerRequestState } from "./server-requests.js";

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

/** What the client holds for one open document. */
interface OpenDocument {
  readonly uri: string;
  readonly languageId: string;
  text: string;
  version: number;
  /** Publish sequence number at the moment this version was sent. */
  sentAtSeq: number;
  /** The last publish received for this document. */
  lastPublish?: { seq: number; version: number | undefined; diagnostics: Diagnostic[]; at: number };
}

const stderrLines = 20;

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
  capabilities: ServerCapabilities = {};
  readonly pid: number | undefined;

  private readonly options: LanguageClientOptions;
  private readonly child: ChildProcess;
  private readonly connection: MessageConnection;
  private readonly stderr: string[] = [];
  private readonly events = new EventEmitter();
  private readonly documents = new Map<string, OpenDocument>();
  private readonly requestState: ServerRequestState = { pullIdentifiers: new Set() };
  private publishSeq = 0;
  private stopping = false;

  constructor(options: LanguageClientOptions) {
    this.options = options;
    this.spec = options.spec;
    this.root = options.root;
    this.events.setMaxListeners(0);
    this.child = spawn(options.binary, [...options.spec.args], {
      cwd: options.root,
      stdio: ["pipe", "pipe", "pipe"],
      detached: true,
      env: options.env ?? process.env,
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
      if (!this.stopping) this.markCrashed(`exited ${signal ? `on ${signal}` : `with code ${code}`}`);
    });
    // A write to a dead server's stdin must not become an unhandled error.
    this.child.stdin?.on("error", () => undefined);
    this.connection = createMessageConnection(
      new StreamMessageReader(this.child.stdout!),
      new StreamMessageWriter(this.child.stdin!),
    );
    this.connection.onRequest((method, params) =>
      answerServerRequest(method, params, {
        settings: options.settings,
        root: options.root,
        state: this.requestState,
      }),
    );
    this.connection.onNotification((method, params) => this.onNotification(method, params));
    this.connection.onError(() => undefined);
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
    await this.connection.sendNotification("initialized", {});
    await this.connection.sendNotification("workspace/didChangeConfiguration", {
      settings: this.options.settings,
    });
    if (this.state === "starting") this.state = "running";
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
    signal?.throwIfAborted();
    const source = new CancellationTokenSource();
    let onAbort: (() => void) | undefined;
    const aborted = new Promise<never>((_, reject) => {
      onAbort = () => {
        source.cancel();
        reject(new ToolsError({ code: "CANCELLED", message: `${method} was cancelled` }));
      };
      signal?.addEventListener("abort", onAbort, { once: true });
    });
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        source.cancel();
        reject(
          new LspError({
            code: "LSP_TIMEOUT",
            message: `${this.spec.command} did not answer ${method} within ${timeoutMs} ms; try again, or use action "reload" to restart it`,
          }),
        );
      }, timeoutMs);
    });
    let onCrash: (() => void) | undefined;
    const crashed = new Promise<never>((_, reject) => {
      onCrash = () => reject(this.crashedError());
      this.events.once("crash", onCrash);
    });
    try {
      return await Promise.race([
        this.connection.sendRequest<R>(method, params, source.token),
        timeout,
        crashed,
        aborted,
      ]);
    } catch (error) {
      if (error instanceof ResponseError) {
        throw new LspError({
          code: "LSP_REQUEST_FAILED",
          message: `${this.spec.command} answered ${method} with an error: ${error.message}`,
          cause: error,
        });
      }
      throw error;
    } finally {
      clearTimeout(timer);
      if (onCrash) this.events.off("crash", onCrash);
      if (onAbort) signal?.removeEventListener("abort", onAbort);
      source.dispose();
    }
  }

  /** Sends a notification (silently dropped once the server is gone). */
  async notify(method: string, params: unknown): Promise<void> {
    if (this.state === "crashed" || this.state === "stopped") return;
    await this.connection.sendNotification(method, params);
  }

  /** True when the document is open on this server. */
  isOpen(uri: string): boolean {
    return this.documents.has(uri);
  }

  /**
   * Makes the server's copy of `uri` equal `text`: didOpen the first time, didChange (full text)
   * with the next version when it differs; didSave when `save` is set. Returns whether anything
   * was sent.
   */
  async sync(uri: string, languageId: string, text: string, save: boolean): Promise<boolean> {
    const existing = this.documents.get(uri);
    let sent = false;
    if (!existing) {
      const document: OpenDocument = { uri, languageId, text, version: 1, sentAtSeq: this.publishSeq };
      this.documents.set(uri, document);
      await this.notify("textDocument/didOpen", { textDocument: { uri, languageId, version: 1, text } });
      sent = true;
    } else if (existing.text !== text && this.spec.freshness === "reopen") {
      // This server publishes no version and stays silent when a clean file stays clean, so a
      // change could go unanswered: close and reopen, which always yields a publish. The ping
      // (answered in order, after didClose) fences off the empty publish the close may cause.
      await this.notify("textDocument/didClose", { textDocument: { uri } });
      await this.request("$/tools/fence", null, 5_000).catch(() => undefined);
      existing.text = text;
      existing.version += 1;
      existing.sentAtSeq = this.publishSeq;
      existing.lastPublish = undefined;
      await this.notify("textDocument/didOpen", {
        textDocument: { uri, languageId, version: existing.version, text },
      });
      sent = true;
    } else if (existing.text !== text) {
      existing.text = text;
      existing.version += 1;
      existing.sentAtSeq = this.publishSeq;
      await this.notify("textDocument/didChange", {
        textDocument: { uri, version: existing.version },
        contentChanges: [{ text }],
      });
      sent = true;
    }
    if (sent && save) await this.notify("textDocument/didSave", { textDocument: { uri }, text });
    return sent;
  }

  /** Closes a document (after a rename moved or deleted it). */
  async close(uri: string): Promise<void> {
    if (!this.documents.delete(uri)) return;
    await this.notify("textDocument/didClose", { textDocument: { uri } });
  }

  /** When (performance.now()) the latest publish for a document arrived; for benchmarks. */
  lastPublishAt(uri: string): number | undefined {
    return this.documents.get(uri)?.lastPublish?.at;
  }

  /** The synced version of an open document. */
  versionOf(uri: string): number | undefined {
    return this.documents.get(uri)?.version;
  }

  /**
   * Diagnostics for the document's current version, by the freshness rule for this server:
   * pull (`textDocument/diagnostic`) where the server offers it; otherwise the first push whose
   * version matches the one we sent, or — for servers that send no version — the first push
   * after our edit, then a short settle for follow-up pushes. An empty publish is an answer.
   * When `timeoutMs` passes first, `fresh` is false and the diagnostics are whatever arrived.
   */
  async freshDiagnostics(
    uri: string,
    timeoutMs: number,
  ): Promise<{ diagnostics: Diagnostic[]; fresh: boolean }> {
    const document = this.documents.get(uri);
    if (!document) throw new Error(`document ${uri} is not open`);
    if (this.pullAvailable()) {
      const pulled = await this.pull(uri, timeoutMs).catch(() => undefined);
      if (pulled) return { diagnostics: pulled, fresh: true };
    }
    const deadline = Date.now() + timeoutMs;
    const isFresh = (): boolean => {
      const last = document.lastPublish;
      if (!last) return false;
      if (last.version !== undefined) return last.version === document.version;
      return last.seq > document.sentAtSeq;
    };
    const arrived = await this.waitFor(isFresh, deadline);
    if (!arrived) return { diagnostics: document.lastPublish?.diagnostics ?? [], fresh: false };
    // Servers publish in phases (tsserver: syntax, semantics, suggestions; gopls: analyses).
    const settleMs = this.spec.settleMs ?? (document.lastPublish?.version === undefined ? 300 : 150);
    while (settleMs > 0) {
      const seq = document.lastPublish?.seq ?? 0;
      const more = await this.waitFor(
        () => (document.lastPublish?.seq ?? 0) > seq,
        Math.min(deadline, Date.now() + settleMs),
      );
      if (!more) break;
    }
    return { diagnostics: document.lastPublish?.diagnostics ?? [], fresh: true };
  }

  /** Ends the server: shutdown + exit (bounded), then SIGTERM/SIGKILL to its process group. */
  async dispose(): Promise<void> {
    if (this.stopping) return;
    this.stopping = true;
    if (this.state === "running") {
      await this.request("shutdown", null, 1500).catch(() => undefined);
      await this.connection.sendNotification("exit").catch(() => undefined);
    }
    this.state = "stopped";
    this.events.emit("change");
    this.connection.dispose();
    await terminateProcess(this.child, { group: true, graceMs: 1000 });
  }

  /** Kills the process as a crash would (tests and `reload`). */
  kill(): void {
    try {
      if (this.child.pid !== undefined) process.kill(-this.child.pid, "SIGKILL");
    } catch {
      // already gone
    }
  }

  private pullAvailable(): boolean {
    return this.capabilities.diagnosticProvider !== undefined || this.requestState.pullIdentifiers.size > 0;
  }

  private async pull(uri: string, timeoutMs: number): Promise<Diagnostic[]> {
    const identifiers = new Set<string | undefined>(this.requestState.pullIdentifiers);
    const provider = this.capabilities.diagnosticProvider;
    if (provider !== undefined) identifiers.add(provider.identifier);
    if (identifiers.size === 0) identifiers.add(undefined);
    const reports = await Promise.all(
      [...identifiers].map((identifier) =>
        this.request<{ kind: string; items?: Diagnostic[] }>(
          "textDocument/diagnostic",
          { textDocument: { uri }, ...(identifier ? { identifier } : {}) },
          timeoutMs,
        ),
      ),
    );
    return reports.flatMap((report) => (report.kind === "full" ? (report.items ?? []) : []));
  }

  private waitFor(condition: () => boolean, deadline: number): Promise<boolean> {
    if (condition()) return Promise.resolve(true);
    return new Promise((resolve) => {
      const check = (): void => {
        if (condition()) finish(true);
        else if (this.state === "crashed" || this.state === "stopped") finish(false);
      };
      const finish = (value: boolean): void => {
        clearTimeout(timer);
        this.events.off("change", check);
        resolve(value);
      };
      const timer = setTimeout(() => finish(condition()), Math.max(0, deadline - Date.now()));
      this.events.on("change", check);
    });
  }

  private onNotification(method: string, params: unknown): void {
    if (method === "textDocument/publishDiagnostics") {
      const published = params as PublishDiagnosticsParams;
      const document = this.documents.get(published.uri);
      this.publishSeq += 1;
      if (document) {
        document.lastPublish = {
          seq: this.publishSeq,
          version: published.version ?? undefined,
          diagnostics: published.diagnostics,
          at: performance.now(),
        };
      }
      this.events.emit("change");
      return;
    }
    if (method === "$/progress" && this.state === "starting") {
      const value = (params as { value?: { kind?: string; title?: string; message?: string } }).value;
      const text = [value?.title, value?.message].filter(Boolean).join(": ");
      if (text !== "") this.options.onProgress?.(`${this.spec.command}: ${text}`);
    }
  }

  private markCrashed(reason: string): void {
    if (this.state === "crashed" || this.stopping) return;
    this.state = "crashed";
    this.failure = reason;
    this.events.emit("crash");
    this.events.emit("change");
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
