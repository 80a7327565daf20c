import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { expect, it } from "vitest";
import { tsserverWorkspaceSymbols } from "../client/tsserver-navto.js";
import {
  describeTypescript,
  recordRequests,
  useTypescriptServer,
} from "../test-support/typescript-server.js";

/** Symbols as compared: name, kind and place, in one order. */
const byPlace = (symbols: unknown): string[] =>
  (symbols as { name: string; kind: number; location: { uri: string; range: unknown } }[])
    .map((each) => JSON.stringify([each.name, each.kind, each.location.uri, each.location.range]))
    .sort();

// Workspace symbols went through the pass-through (`navto` without a file), which takes no
// cancellation token: a cancelled search kept tsserver busy. With one project, the server's own
// `workspace/symbol` (whose cancel reaches tsserver) searches the same project.
describeTypescript("workspace symbols on tsserver holding one project", () => {
  const server = useTypescriptServer("ts-project");

  it("asks workspace/symbol, whose answers are those of navto without a file", async () => {
    await server.text({ action: "hover", file: "src/app.ts", line: 3, symbol: "add" });
    const client = server.supervisor.runningClientFor(join(server.dir, "src/app.ts"))!;
    const log = recordRequests(client);
    /** Each request sent since the last clear: its method, or its tsserver command. */
    const methods = () => log.sent.map((each) => each.command ?? each.method);
    try {
      const compared: string[] = [];
      for (const query of ["add", "a", "Square", "area", "total", "nothingNamedSo"]) {
        log.clear();
        const asked = await client.workspaceSymbols(query);
        expect(methods()).toContain("workspace/symbol");
        expect(methods()).not.toContain("navto");
        const navto = await tsserverWorkspaceSymbols(log.request, query);
        expect(byPlace(asked)).toEqual(byPlace(navto));
        compared.push(`${query}: ${byPlace(asked).length}`);
      }
      // Something was compared: each query but the last finds symbols.
      expect(compared.filter((line) => !line.endsWith(": 0"))).toHaveLength(5);
      expect(await server.text({ action: "symbols", query: "Square", file: "src/app.ts" })).toContain(
        "class Square  src/math.ts:",
      );
    } finally {
      log.stop();
    }
  });

  // The tsconfig was read for `"references"` by a pattern on its text: one in a comment (the
  // tsconfig is JSON with comments, as tsserver reads it) counted as naming other projects, and
  // the search went through the pass-through, which cannot be cancelled inside tsserver.
  it("reads the tsconfig as tsserver does: a commented references names no other project", async () => {
    const config = join(server.dir, "tsconfig.json");
    const original = readFileSync(config, "utf8");
    await server.text({ action: "hover", file: "src/app.ts", line: 3, symbol: "add" });
    const client = server.supervisor.runningClientFor(join(server.dir, "src/app.ts"))!;
    const log = recordRequests(client);
    const asked = async () => {
      log.clear();
      await client.workspaceSymbols("add");
      return log.sent.map((each) => each.command ?? each.method);
    };
    try {
      const include = `"include": ["src"]`;
      expect(original).toContain(include);
      writeFileSync(
        config,
        original.replace(
          include,
          `// "references": [{ "path": "../other" }],\n  /* "references": [{ "path": "../more" }], */\n  ${include},\n`,
        ),
      );
      expect(await asked()).toContain("workspace/symbol");
      // Saved with a byte order mark (UTF-8 with BOM), which tsserver drops: no references either.
      writeFileSync(config, `\uFEFF${original}`);
      expect(await asked()).toContain("workspace/symbol");
      // Named outside a comment: the pass-through, whose navto loads the projects named.
      writeFileSync(config, original.replace(include, `"references": [{ "path": "../other" }], ${include}`));
      expect(await asked()).not.toContain("workspace/symbol");
    } finally {
      log.stop();
      writeFileSync(config, original);
    }
  });
});
