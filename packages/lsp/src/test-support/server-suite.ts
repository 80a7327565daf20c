import {
  createRegistry,
  createRun,
  resultText,
  type Registry,
  type ResultWrapper,
  type Run,
  type Tool,
  type ToolResult,
} from "@tools/registry";
import { afterAll, beforeAll, expect } from "vitest";
import { createLspSupervisor, type LspSupervisor } from "../supervisor/supervisor.js";
import { copyFixture, groupGoneWithin, tempTree } from "./fixtures.js";

/** Options of {@link useServerFixture}. */
export interface ServerFixtureOptions {
  /** Folder under src/__fixtures__ copied for the suite; with {@link files}, the temp folder's name. */
  fixture: string;
  /** The suite's files (relative path → content), written in place of a copied fixture. */
  files?: Readonly<Record<string, string>>;
  /** Names the server in failure messages. */
  server: string;
  tools: Tool[];
  binDirectories?: string[];
  diagnosticsTimeoutMs: number;
  /** The supervisor's bound on each request; {@link suiteRequestTimeoutMs} unless given. */
  requestTimeoutMs?: number;
  resultWrappers?: ResultWrapper[];
  /** Assert that the suite started at least one server process. */
  expectProcesses?: boolean;
}

/**
 * Requests' bound in these suites: the product's 15 s is what a quiet machine needs many times
 * over, but the suites share two cores with the other packages' (and CI's) servers, and a cold
 * server's first answers can then take several times their quiet time. A server that does not
 * answer still fails the test, within its own 60 s timeout.
 */
export const suiteRequestTimeoutMs = 45_000;

/** What a suite reads once `beforeAll` has run. */
export interface ServerFixture {
  readonly dir: string;
  readonly run: Run;
  readonly supervisor: LspSupervisor;
  readonly registry: Registry;
  readonly invoke: (tool: string, args: Record<string, unknown>) => Promise<ToolResult>;
  /** The text of an `lsp` call. */
  readonly text: (args: Record<string, unknown>) => Promise<string>;
}

/**
 * Registers the suite's `beforeAll` (copy the fixture or write its files, create the run, supervisor and registry)
 * and `afterAll` (dispose the run and check every server's process group is gone).
 */
export function useServerFixture(options: ServerFixtureOptions): ServerFixture {
  let fixture: { dir: string; remove: () => void } | undefined;
  let run: Run | undefined;
  let supervisor: LspSupervisor | undefined;
  let registry: Registry | undefined;
  const ready = <T>(value: T | undefined): T => {
    if (value === undefined) throw new Error("the server fixture is used before its beforeAll ran");
    return value;
  };

  beforeAll(() => {
    fixture = options.files ? tempTree(options.fixture, options.files) : copyFixture(options.fixture);
    run = createRun({ workingDirectory: fixture.dir });
    supervisor = createLspSupervisor(run, {
      ...(options.binDirectories ? { binDirectories: options.binDirectories } : {}),
      diagnosticsTimeoutMs: options.diagnosticsTimeoutMs,
      requestTimeoutMs: options.requestTimeoutMs ?? suiteRequestTimeoutMs,
    });
    registry = createRegistry({
      tools: options.tools,
      resultWrappers: options.resultWrappers ?? [],
      approval: "auto",
    });
  });

  afterAll(async () => {
    const pids = supervisor?.processes().flatMap((p) => (p.pid ? [p.pid] : [])) ?? [];
    await run?.dispose();
    fixture?.remove();
    if (options.expectProcesses) expect(pids.length).toBeGreaterThan(0);
    for (const pid of pids) {
      expect(await groupGoneWithin(pid), `${options.server} group ${pid} still alive after dispose`).toBe(
        true,
      );
    }
  });

  const invoke = (tool: string, args: Record<string, unknown>) =>
    ready(registry).invoke(ready(run), { tool, args });
  return {
    get dir() {
      return ready(fixture).dir;
    },
    get run() {
      return ready(run);
    },
    get supervisor() {
      return ready(supervisor);
    },
    get registry() {
      return ready(registry);
    },
    invoke,
    text: async (args) => resultText(await invoke("lsp", args)),
  };
}
