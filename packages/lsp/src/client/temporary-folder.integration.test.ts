import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createRegistry, createRun, resultText } from "@tools/registry";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLspSupervisor } from "../supervisor/supervisor.js";
import { ci, copyFixture, packageBin } from "../test-support/fixtures.js";
import { lspTool } from "../tools/lsp-tool.js";

const server = existsSync(join(packageBin, "typescript-language-server"));

/**
 * typescript-language-server makes a folder of tsserver cancellation files in the temporary
 * folder at every start and never removes it: each server process gets a TMPDIR of its own,
 * removed when it has ended.
 */
describe.skipIf(!server && !ci)("a server's temporary files", () => {
  let parent: string;
  let saved: string | undefined;
  beforeEach(() => {
    parent = mkdtempSync(join(tmpdir(), "lsp-tmpdir-test-"));
    saved = process.env.TMPDIR;
    process.env.TMPDIR = parent;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = saved;
    rmSync(parent, { recursive: true, force: true });
  });

  it("go in a folder of the server's own, removed when the run ends", async () => {
    expect(server, `typescript-language-server missing in ${packageBin}`).toBe(true);
    const fixture = copyFixture("ts-project");
    const run = createRun({ workingDirectory: fixture.dir });
    createLspSupervisor(run, { binDirectories: [packageBin] });
    const registry = createRegistry({ tools: [lspTool] });
    try {
      const answer = resultText(
        await registry.invoke(run, {
          tool: "lsp",
          args: { action: "definition", file: "src/app.ts", line: 4, symbol: "add" },
        }),
      );
      expect(answer).toContain("src/math.ts:2:17");
      // Everything the server and tsserver made is inside its one folder (beside the fixture's copy).
      const made = readdirSync(parent).filter((name) => !fixture.dir.endsWith(`/${name}`));
      expect(made).toEqual([expect.stringMatching(/^lsp-tmp-/)]);
    } finally {
      await run.dispose();
      fixture.remove();
    }
    expect(readdirSync(parent)).toEqual([]);
  });
});
