import { describe, expect, it, vi } from "vitest";
import type { LanguageClient } from "../client/language-client.js";
import type { LspSupervisor } from "../supervisor/supervisor.js";
import type { DiagnosticsLooks } from "./diagnostics-ledger.js";
import type * as Importers from "./importers.js";

const scans: Array<{ files: readonly string[]; limit: number }> = [];
vi.mock("./importers.js", async (original) => ({
  ...(await original<typeof Importers>()),
  // Ten importers each time: the whole bound of one write.
  dependantsOf: vi.fn(async (_client: unknown, files: readonly string[], limit: number) => {
    scans.push({ files, limit });
    return { files: Array.from({ length: 10 }, (_, index) => `/elsewhere/importer${index}.ts`) };
  }),
}));

const { openImporters } = await import("./files-alongside.js");

describe("openImporters", () => {
  it("scans no second server of a write once the first spent the importer bound", async () => {
    const client = (name: string) =>
      ({ name, spec: { publishesWorkspace: false }, isOpen: () => true }) as unknown as LanguageClient;
    const first = client("first");
    const second = client("second");
    const supervisor = {
      runningClientFor: (path: string) =>
        path === "/p/a.ts" ? first : path === "/p/b.py" ? second : undefined,
      uriOf: (path: string) => `file://${path}`,
    } as unknown as LspSupervisor;
    const cut: Array<{ files: readonly string[]; bound: string }> = [];
    const covered = new Set<LanguageClient>();
    await openImporters(supervisor, ["/p/a.ts", "/p/b.py"], {} as DiagnosticsLooks, { covered, cut });
    expect(scans).toEqual([{ files: ["/p/a.ts"], limit: 10 }]);
    expect(cut).toEqual([]);
    expect(covered.has(second)).toBe(false);
  });
});
