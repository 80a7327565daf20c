import type { ChildProcess } from "node:child_process";
import { setMaxListeners } from "node:events";
import { realpathSync, statSync } from "node:fs";
import { ToolsError, errorMessage } from "../errors/tools-error.js";
import { terminateProcess, type TerminateOptions } from "./owned-process.js";
import type { ResourceKey, StateKey } from "./resource-key.js";

/** Something a run ends when it is disposed. */
export interface Disposable {
  dispose(): void | Promise<void>;
}

/** A resource to wire at creation: its key and its value. */
export type ResourceEntry<T = unknown> = readonly [ResourceKey<T>, T];

/** Options of {@link createRun}. */
export interface RunOptions {
  /** The run's working directory; stored as its real path. Must exist. */
  workingDirectory: string;
  /** The conversation this run serves; debug sessions and serial lanes key on it. */
  conversationId?: string;
  /** A stable id; generated when omitted. */
  id?: string;
  /** Resources wired from the start; more can be wired with {@link Run.wire}. */
  resources?: readonly ResourceEntry[];
  /** Aborting this signal disposes the run. */
  signal?: AbortSignal;
}

/** What {@link Run.dispose} did. */
export interface DisposeReport {
  /** Cleanups that finished in time. */
  readonly completed: number;
  /** Labels of cleanups that failed or were still going at the deadline. */
  readonly failed: readonly string[];
}

interface Cleanup {
  readonly label: string;
  readonly run: () => void | Promise<void>;
}

let runCounter = 0;

/**
 * One agent run: its working directory, conversation, wired resources, per-run state and the
 * processes it started. `dispose()` ends all of them; nothing outlives its run.
 */
export class Run {
  /** Stable id of the run. */
  readonly id: string;
  /** Real path of the working directory (symlinks resolved). */
  readonly workingDirectory: string;
  /** The conversation this run serves. */
  readonly conversationId: string;

  private readonly controller = new AbortController();
  private readonly resources = new Map<symbol, unknown>();
  private readonly states = new Map<symbol, unknown>();
  private readonly cleanups: Cleanup[] = [];
  private disposing: Promise<DisposeReport> | undefined;

  constructor(options: RunOptions) {
    this.workingDirectory = realWorkingDirectory((options as RunOptions | undefined)?.workingDirectory);
    this.conversationId = options.conversationId ?? "default";
    this.id = options.id ?? `run_${process.pid}_${++runCounter}`;
    // Every call in flight ties its own signal to the run's: any number may listen at once.
    setMaxListeners(0, this.controller.signal);
    for (const [key, value] of options.resources ?? []) this.wire(key, value);
    if (options.signal) {
      const external = options.signal;
      if (external.aborted) void this.dispose();
      else external.addEventListener("abort", () => void this.dispose(), { once: true });
    }
  }

  /** Aborted when the run is disposed: long waits listen to it. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  /** True once `dispose()` has been called. */
  get disposed(): boolean {
    return this.disposing !== undefined;
  }

  /**
   * Wires a resource. A value with a `dispose()` method is owned by the run and disposed with it
   * (after everything wired later, in reverse order).
   */
  wire<T>(key: ResourceKey<T>, value: T): this {
    this.assertLive();
    if (typeof (key as Partial<ResourceKey<T>> | null)?.id !== "symbol") {
      throw new ToolsError({
        code: "INVALID_DEFINITION",
        message: `a resource is wired under ${key === null ? "null" : typeof key === "object" ? "an object that is not a key" : `${typeof key} ${JSON.stringify(key)}`}, not a key: make its key with resourceKey(name)`,
      });
    }
    this.resources.set(key.id, value);
    if (hasDispose(value)) this.own(value, key.name);
    return this;
  }

  /** True when the resource is wired. */
  has(key: ResourceKey<unknown>): boolean {
    return this.resources.has(key.id);
  }

  /** The wired resource, or undefined. */
  get<T>(key: ResourceKey<T>): T | undefined {
    return this.resources.get(key.id) as T | undefined;
  }

  /** The wired resource; throws `NOT_WIRED` when it is missing. */
  require<T>(key: ResourceKey<T>): T {
    if (!this.resources.has(key.id)) {
      throw new ToolsError({ code: "NOT_WIRED", message: `no ${key.name} is wired for this run` });
    }
    return this.resources.get(key.id) as T;
  }

  /** The run's slot for `key`, created on first use. */
  state<T>(key: StateKey<T>): T {
    if (!this.states.has(key.id)) this.states.set(key.id, key.init());
    return this.states.get(key.id) as T;
  }

  /**
   * Registers something to end with the run. Later registrations end first. Returns a function
   * that takes it back (for something that ended on its own), so a long run does not pile up
   * cleanups.
   */
  own(resource: Disposable | (() => void | Promise<void>), label = "resource"): () => void {
    const run = typeof resource === "function" ? resource : () => resource.dispose();
    if (this.disposed) {
      // Too late to own it: end it now rather than let it outlive the run.
      void Promise.resolve()
        .then(run)
        .catch(() => undefined);
      return () => undefined;
    }
    const cleanup: Cleanup = { label, run };
    this.cleanups.push(cleanup);
    return () => {
      const index = this.cleanups.indexOf(cleanup);
      if (index >= 0) this.cleanups.splice(index, 1);
    };
  }

  /**
   * Makes a child process belong to the run: on dispose it gets SIGTERM, then SIGKILL after the
   * grace period. Spawn with `detached: true` and pass `group: true` to end its whole group, and
   * with a `createProcessMark()` mark in its environment (passed as `mark`) to end also what
   * left the group, even after the child exited.
   * Returns a function that disowns it; call it once the process (and its group) is known to be
   * gone, so a reused pid is never signalled.
   */
  ownProcess(child: ChildProcess, options: TerminateOptions & { label?: string } = {}): () => void {
    return this.own(() => terminateProcess(child, options), options.label ?? `process ${child.pid ?? "?"}`);
  }

  /**
   * Ends everything the run owns, newest first, within `timeoutMs` overall (default 10 s).
   * Idempotent: later calls return the first call's report.
   */
  dispose(options: { timeoutMs?: number } = {}): Promise<DisposeReport> {
    if (this.disposing) return this.disposing;
    this.controller.abort(new ToolsError({ code: "RUN_DISPOSED", message: "the run has ended" }));
    this.disposing = this.runCleanups(options.timeoutMs ?? 10_000);
    return this.disposing;
  }

  private async runCleanups(timeoutMs: number): Promise<DisposeReport> {
    const deadline = Date.now() + timeoutMs;
    const failed: string[] = [];
    let completed = 0;
    const pending = this.cleanups.splice(0).reverse();
    for (const cleanup of pending) {
      const remaining = Math.max(0, deadline - Date.now());
      const outcome = await boundedCall(cleanup.run, remaining);
      if (outcome === "ok") completed++;
      else failed.push(`${cleanup.label}: ${outcome}`);
    }
    this.resources.clear();
    this.states.clear();
    return { completed, failed };
  }

  private assertLive(): void {
    if (this.disposed) {
      throw new ToolsError({ code: "RUN_DISPOSED", message: `run ${this.id} has ended; start a new run` });
    }
  }
}

/** Creates a run. Throws `INVALID_WORKING_DIRECTORY` when the directory does not exist. */
export function createRun(options: RunOptions): Run {
  return new Run(options);
}

async function boundedCall(fn: () => void | Promise<void>, ms: number): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  try {
    const timeout = new Promise<string>((resolve) => {
      timer = setTimeout(() => resolve(`still running after the dispose deadline`), ms);
    });
    const work = Promise.resolve()
      .then(fn)
      .then(
        () => "ok",
        (error: unknown) => `failed: ${errorMessage(error)}`,
      );
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

function hasDispose(value: unknown): value is Disposable {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as { dispose?: unknown }).dispose === "function"
  );
}

function realWorkingDirectory(path: string | undefined): string {
  if (typeof path !== "string" || path === "") {
    throw new ToolsError({
      code: "INVALID_WORKING_DIRECTORY",
      message: `createRun needs { workingDirectory }: the folder the run works in, as a path (got ${path === "" ? "an empty string" : typeof path})`,
    });
  }
  try {
    const real = realpathSync(path);
    if (!statSync(real).isDirectory()) throw new Error("not a directory");
    return real;
  } catch (error) {
    throw new ToolsError({
      code: "INVALID_WORKING_DIRECTORY",
      message: `working directory '${path}' is not an existing directory (${errorMessage(error)})`,
      cause: error,
    });
  }
}
