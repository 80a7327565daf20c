import { existsSync } from "node:fs";
import { join } from "node:path";
import { createRegistry, createRun, defineTool, resultText, textResult } from "@tools/registry";
import { writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { diagnosticsOnWrite } from "../diagnostics/diagnostics-on-write.js";
import { createLspSupervisor } from "../supervisor/supervisor.js";
import { ci, groupGoneWithin, packageBin, tempTree } from "../test-support/fixtures.js";
import { lspTool } from "./lsp-tool.js";

const found = existsSync(join(packageBin, "typescript-language-server"));

const files = {
  "package.json": '{ "name": "reload-in-flight", "private": true }\n',
  "tsconfig.json": '{ "compilerOptions": { "strict": true, "noEmit": true } }\n',
  "a.ts": "export const a: number = 1;\n",
};

/**
 * A server stopped while a call waits on it: by a reload, the call gets its answer from the
 * restarted server (never the stopped one's clearing publish, which read as "clean"). Real
 * typescript-language-server.
 */
describe.skipIf(!found && !ci)("calls in flight when their server stops (typescript-language-server)", () => {
  it("a write whose server is reloaded while its diagnostics are awaited reports them from the restarted server", async () => {
    expect(found, `typescript-language-server missing in ${packageBin}`).toBe(true);
    const tree = tempTree("reload-in-flight", files);
    const run = createRun({ workingDirectory: tree.dir });
    const supervisor = createLspSupervisor(run, {
      binDirectories: [packageBin],
      diagnosticsTimeoutMs: 30_000,
    });
    let reload: Promise<string> | undefined;
    // Writes, then asks for a reload of the file's server without awaiting it: the wrapper's
    // diagnostics wait begins while the server is being stopped.
    const writeThenReload = defineTool({
      name: "write_then_reload",
      tier: "write",
      parallelSafe: true,
      description: "Writes a file, then starts a reload of its language server (test stand-in).",
      input: z.object({ file: z.string(), content: z.string() }),
      paths: (input) => [input.file],
      execute(input, ctx) {
        const absolute = ctx.resolvePath(input.file);
        writeFileSync(absolute, input.content);
        reload = registry
          .invoke(run, { tool: "lsp", args: { action: "reload", file: input.file } })
          .then(resultText);
        return textResult(`wrote ${input.file}`, { changedFiles: [absolute] });
      },
    });
    const registry = createRegistry({
      tools: [lspTool, writeThenReload],
      resultWrappers: [diagnosticsOnWrite({ boundMs: 30_000 })],
      approval: "auto",
    });
    try {
      const hover = resultText(
        await registry.invoke(run, {
          tool: "lsp",
          args: { action: "hover", file: "a.ts", line: 1, symbol: "a" },
        }),
      );
      expect(hover).toContain("const a: number");
      const first = supervisor.processes()[0]!.pid!;
      const written = resultText(
        await registry.invoke(run, {
          tool: "write_then_reload",
          args: { file: "a.ts", content: "export const a: string = 1;\n" },
        }),
      );
      expect(await reload).toMatch(/^typescript for \.: restarted \(pid \d+ → \d+\)/);
      expect(written).toMatch(
        /^a\.ts:1:14 error \[TS2322\] Type 'number' is not assignable to type 'string'\./m,
      );
      expect(written).not.toContain("clean");
      expect(await groupGoneWithin(first)).toBe(true);
    } finally {
      await run.dispose();
      tree.remove();
    }
  });
});
