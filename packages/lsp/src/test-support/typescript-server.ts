import { existsSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect } from "vitest";
import type { LanguageClient } from "../client/language-client.js";
import { lspTool } from "../tools/lsp-tool.js";
import { ci, packageBin } from "./fixtures.js";
import { useServerFixture, type ServerFixture } from "./server-suite.js";

/** Whether the workspace's typescript-language-server is installed. */
export const typescriptFound = existsSync(join(packageBin, "typescript-language-server"));

/** `describe` for suites against it: skipped when it is not installed, but on CI (which then fails). */
export function describeTypescript(name: string, suite: () => void): void {
  describe.skipIf(!typescriptFound && !ci)(name, suite);
}

/**
 * {@link useServerFixture} for the `lsp` tool against the workspace's typescript-language-server:
 * the folder `fixture` of src/__fixtures__ copied, or `files` written in a temp folder so named.
 * Its `beforeAll` fails first when the server is missing; its `afterAll` checks a server ran and
 * its process group is gone.
 */
export function useTypescriptServer(
  fixture: string,
  files?: Readonly<Record<string, string>>,
): ServerFixture {
  beforeAll(() => {
    expect(typescriptFound, `typescript-language-server missing in ${packageBin}; run pnpm install`).toBe(
      true,
    );
  });
  return useServerFixture({
    fixture,
    ...(files ? { files } : {}),
    server: "typescript-language-server",
    tools: [lspTool],
    binDirectories: [packageBin],
    diagnosticsTimeoutMs: 15_000,
    expectProcesses: true,
  });
}

/** One request a client sent: its method, and for a tsserver command its name and file. */
export interface SentRequest {
  method: string;
  /** `workspace/executeCommand`'s tsserver command (`reload`, `projectInfo`). */
  command?: string;
  file?: string;
}

/** The requests a client sends from {@link recordRequests} on, until `stop`. */
export interface RequestLog {
  readonly sent: SentRequest[];
  /** The files of the `reload` commands sent. */
  reloaded(): string[];
  /** How many of the tsserver command `command` were sent. */
  count(command: string): number;
  /** Forgets what was sent so far. */
  clear(): void;
  /** The client's own `request`, not recorded. */
  readonly request: <R>(method: string, params: unknown) => Promise<R>;
  /** Puts the client's own `request` back. */
  stop(): void;
}

/** Records every request `client` sends (a pass-through: each is sent as it was) until `stop`. */
export function recordRequests(client: LanguageClient): RequestLog {
  const sent: SentRequest[] = [];
  const request = client.request.bind(client);
  client.request = (<R>(method: string, params: unknown, timeoutMs?: number, signal?: AbortSignal) => {
    const args = (params as { arguments?: unknown[] } | undefined)?.arguments;
    const command =
      method === "workspace/executeCommand" && typeof args?.[0] === "string" ? args[0] : undefined;
    const file = command === undefined ? undefined : (args?.[1] as { file?: unknown } | undefined)?.file;
    sent.push({
      method,
      ...(command === undefined ? {} : { command }),
      ...(typeof file === "string" ? { file } : {}),
    });
    return request<R>(method, params, timeoutMs, signal);
  }) as typeof client.request;
  return {
    sent,
    reloaded: () => sent.flatMap((each) => (each.command === "reload" && each.file ? [each.file] : [])),
    count: (command) => sent.filter((each) => each.command === command).length,
    clear: () => {
      sent.length = 0;
    },
    request: <R>(method: string, params: unknown) => request<R>(method, params),
    stop: () => {
      client.request = request;
    },
  };
}
