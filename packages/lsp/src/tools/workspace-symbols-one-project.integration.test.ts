import { existsSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { tsserverWorkspaceSymbols } from "../client/tsserver-navto.js";
import { ci, packageBin } from "../test-support/fixtures.js";
import { useServerFixture } from "../test-support/server-suite.js";
import { lspTool } from "./lsp-tool.js";

const found = existsSync(join(packageBin, "typescript-language-server"));

/** Symbols as compared: name, kind and place, in one order. */
const byPlace = (symbols: unknown): string[] =>
  (symbols as { name: string; kind: number; location: { uri: string; range: unknown } }[])
    .map((each) => JSON.stringify([each.name, each.kind, each.location.uri, each.location.range]))
    .sort();

// Workspace symbols went through the pass-through (`navto` without a file), which takes no
// cancellation token: a cancelled search kept tsserver busy. With one project, the server's own
// `workspace/symbol` (whose cancel reaches tsserver) searches the same project.
describe.skipIf(!found && !ci)("workspace symbols on tsserver holding one project", () => {
  beforeAll(() => {
    expect(found, `typescript-language-server missing in ${packageBin}; run pnpm install`).toBe(true);
  });
  const server = useServerFixture({
    fixture: "ts-project",
    server: "typescript-language-server",
    tools: [lspTool],
    binDirectories: [packageBin],
    diagnosticsTimeoutMs: 15_000,
    expectProcesses: true,
  });

  it("asks workspace/symbol, whose answers are those of navto without a file", async () => {
    await server.text({ action: "hover", file: "src/app.ts", line: 3, symbol: "add" });
    const client = server.supervisor.runningClientFor(join(server.dir, "src/app.ts"))!;
    const methods: string[] = [];
    const request = client.request.bind(client);
    client.request = (<R>(method: string, params: unknown, timeoutMs?: number, signal?: AbortSignal) => {
      const args = (params as { arguments?: unknown[] } | undefined)?.arguments;
      methods.push(method === "workspace/executeCommand" ? String(args?.[0]) : method);
      return request<R>(method, params, timeoutMs, signal);
    }) as typeof client.request;
    try {
      const compared: string[] = [];
      for (const query of ["add", "a", "Square", "area", "total", "nothingNamedSo"]) {
        methods.length = 0;
        const asked = await client.workspaceSymbols(query);
        expect(methods).toContain("workspace/symbol");
        expect(methods).not.toContain("navto");
        const navto = await tsserverWorkspaceSymbols(
          <R>(method: string, params: unknown) => request<R>(method, params),
          query,
        );
        expect(byPlace(asked)).toEqual(byPlace(navto));
        compared.push(`${query}: ${byPlace(asked).length}`);
      }
      // Something was compared: each query but the last finds symbols.
      expect(compared.filter((line) => !line.endsWith(": 0"))).toHaveLength(5);
      expect(await server.text({ action: "symbols", query: "Square", file: "src/app.ts" })).toContain(
        "class Square  src/math.ts:",
      );
    } finally {
      client.request = request;
    }
  });
});
