import { existsSync } from "node:fs";
import { join } from "node:path";
import { createRegistry, createRun, resultText } from "@tools/registry";
import { describe, expect, it } from "vitest";
import { diagnosticsOnWrite } from "../diagnostics/diagnostics-on-write.js";
import { createLspSupervisor } from "../supervisor/supervisor.js";
import { ci, packageBin, tempTree } from "../test-support/fixtures.js";
import { writeTool } from "../test-support/write-tool.js";
import { lspTool } from "./lsp-tool.js";

const found = existsSync(join(packageBin, "pyright-langserver"));

/** Four errors a file had long before any write of the run. */
const oldErrors = "a: str = 1\nb: str = 2\nc: str = 3\nd: str = 4\n";

/**
 * A file importing a written one, checked for the first time (its server read the written file
 * from disk: what it had before is not known), is not listed whole as the write's: only what
 * names something the write changed (a few), the rest counted, with where to list them.
 */
describe.skipIf(!found && !ci)("diagnostics on write in a file checked for the first time (pyright)", () => {
  it(
    "counts its old errors after a comment-only edit, and lists only what names a renamed class",
    {
      timeout: 400_000,
    },
    async () => {
      expect(found, `pyright-langserver missing in ${packageBin}; run pnpm install`).toBe(true);
      const tree = tempTree("first-look", {
        "pyproject.toml": '[project]\nname = "first-look"\nversion = "0"\n',
        "starter.py": "starter = 1\n",
        "loop.py": "class Loop:\n    def run(self) -> int:\n        return 1\n",
        "old.py": `from loop import Loop\n\n${oldErrors}print(Loop().run())\n`,
        "widgets.py": "class Widget:\n    size = 1\n",
        "users.py": `from widgets import Widget\n\n${oldErrors}print(Widget.size)\n`,
      });
      const run = createRun({ workingDirectory: tree.dir });
      const supervisor = createLspSupervisor(run, {
        binDirectories: [packageBin],
        diagnosticsTimeoutMs: 30_000,
      });
      const registry = createRegistry({
        tools: [lspTool, writeTool],
        resultWrappers: [diagnosticsOnWrite({ boundMs: 120_000 })],
        approval: "auto",
      });
      const write = async (file: string, content: string) =>
        resultText(await registry.invoke(run, { tool: "write", args: { file, content } }));
      try {
        // Starts pyright without opening the files written below.
        // Started (and its first analysis awaited, generously: a loaded machine) without opening
        // the files written below; asked directly, the run's ledger is left as it is.
        const started = await supervisor.diagnostics(join(tree.dir, "starter.py"), { timeoutMs: 120_000 });
        expect(started.fresh).toBe(true);

        const comment = await write(
          "loop.py",
          "# the loop\nclass Loop:\n    def run(self) -> int:\n        return 1\n",
        );
        expect(comment).toContain(
          "old.py, which this write did not change, has 4 errors or warnings not known to be caused by it (checked for the first time: what it had before is not known); lsp diagnostics on old.py lists them",
        );
        expect(comment).not.toMatch(/^old\.py:\d+:\d+ /m);

        const renamed = await write("widgets.py", "class Gadget:\n    size = 1\n");
        expect(renamed).toMatch(
          /\d of the \d+ diagnostics in users\.py, which this write did not change, names? what it changed \(checked for the first time: not known to be caused by this write; the other \d+ are not listed, lsp diagnostics on users\.py lists them\):/,
        );
        expect(renamed).toMatch(/^users\.py:1:\d+ error .*"Widget" is unknown import symbol/m);
        expect(renamed).not.toMatch(/^users\.py:[3-6]:\d+ /m);

        // Told of, not listed as new by a later write of the file itself.
        const own = await write(
          "users.py",
          `from widgets import Gadget as Widget\n\n${oldErrors}print(Widget.size)\n`,
        );
        expect(own).toContain("no new diagnostics in users.py");
        expect(own).not.toMatch(/^users\.py:\d+:\d+ /m);
      } finally {
        await run.dispose();
        tree.remove();
      }
    },
  );
});
