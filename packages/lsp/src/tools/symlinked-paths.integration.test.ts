import { existsSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRegistry, createRun, resultText } from "@tools/registry";
import { describe, expect, it } from "vitest";
import { diagnosticsOnWrite } from "../diagnostics/diagnostics-on-write.js";
import { createLspSupervisor } from "../supervisor/supervisor.js";
import { ci, packageBin, tempTree } from "../test-support/fixtures.js";
import { writeTool } from "../test-support/write-tool.js";
import { lspRenameTool } from "./lsp-rename-tool.js";
import { lspTool } from "./lsp-tool.js";

const lib = "export function answer(): number {\n  return 42;\n}\n";

/**
 * A project reached through a symlinked folder (`proj` → `real`), or a file through a symlinked
 * file: one file under two paths. Its server, the importer scan and the diagnostics ledger know
 * it by its real path; the answers show it as it was reached.
 */
function symlinkedRun() {
  const tree = tempTree("symlinked", {
    "package.json": '{ "name": "symlinked", "private": true }\n',
    "tsconfig.json": '{ "compilerOptions": { "strict": true, "noEmit": true } }\n',
    "real/lib.ts": lib,
    "real/use.ts": 'import { answer } from "./lib";\nexport const u: number = answer();\n',
    "real/gone.ts": 'import { answer } from "./lib";\nexport const g: number = answer();\n',
  });
  symlinkSync(join(tree.dir, "real"), join(tree.dir, "proj"));
  const run = createRun({ workingDirectory: tree.dir });
  createLspSupervisor(run, { binDirectories: [packageBin], diagnosticsTimeoutMs: 20_000 });
  const registry = createRegistry({
    tools: [lspTool, writeTool, lspRenameTool],
    resultWrappers: [diagnosticsOnWrite({ boundMs: 30_000 })],
    approval: "auto",
  });
  const call = async (tool: string, args: Record<string, unknown>) => {
    const result = await registry.invoke(run, { tool, args });
    const text = resultText(result);
    expect(result.error, text).toBeUndefined();
    return text;
  };
  return {
    dir: tree.dir,
    call,
    end: async () => {
      await run.dispose();
      tree.remove();
    },
  };
}

const breaking = "export function answer(seed: number): number {\n  return seed;\n}\n";
const broken = (file: string) => [
  `1 new diagnostic in ${file}, which this write did not change:`,
  `${file}:2:26 error [TS2554] Expected 1 arguments, but got 0. (typescript)`,
];

describe.skipIf(!existsSync(join(packageBin, "typescript-language-server")) && !ci)(
  "a project reached through a symlinked folder (typescript-language-server)",
  () => {
    it("checks the importers of a file written through the link, shown through it", async () => {
      const { call, end } = symlinkedRun();
      try {
        await call("lsp", { action: "hover", file: "proj/lib.ts", line: 1, symbol: "answer" });
        const written = (await call("write", { file: "proj/lib.ts", content: breaking })).split("\n");
        expect(written).toEqual(
          expect.arrayContaining([...broken("proj/gone.ts"), ...broken("proj/use.ts")]),
        );
        expect(written).toContain("proj/lib.ts: clean (no errors or warnings)");
      } finally {
        await end();
      }
    });

    it("checks the importers of the file a symlinked file points to", async () => {
      const { dir, call, end } = symlinkedRun();
      try {
        symlinkSync(join(dir, "real", "lib.ts"), join(dir, "real", "alias.ts"));
        await call("lsp", { action: "hover", file: "real/alias.ts", line: 1, symbol: "answer" });
        const written = (await call("write", { file: "real/alias.ts", content: breaking })).split("\n");
        // Its server reads the file pointed to from disk (it has the link open, not that file):
        // what the importers had before cannot be told apart, and the answer says so.
        const firstLook = (file: string) => [
          `1 diagnostic in ${file}, which this write did not change (checked for the first time: not known to be caused by this write):`,
          `${file}:2:26 error [TS2554] Expected 1 arguments, but got 0. (typescript)`,
        ];
        expect(written).toEqual(
          expect.arrayContaining([...firstLook("real/gone.ts"), ...firstLook("real/use.ts")]),
        );
      } finally {
        await end();
      }
    });

    it("checks the files importing a written file by the name of a symlink to it", async () => {
      const { dir, call, end } = symlinkedRun();
      try {
        symlinkSync(join(dir, "real", "lib.ts"), join(dir, "real", "alias.ts"));
        writeFileSync(
          join(dir, "real", "via.ts"),
          'import { answer } from "./alias";\nexport const v: number = answer();\n',
        );
        await call("lsp", { action: "hover", file: "real/lib.ts", line: 1, symbol: "answer" });
        const written = (await call("write", { file: "real/lib.ts", content: breaking })).split("\n");
        // Its server reads the link from disk (it has the file open, not the link): what the
        // importer had before cannot be told apart, and the answer says so.
        expect(written).toEqual(
          expect.arrayContaining([
            "1 diagnostic in real/via.ts, which this write did not change (checked for the first time: not known to be caused by this write):",
            "real/via.ts:2:26 error [TS2554] Expected 1 arguments, but got 0. (typescript)",
          ]),
        );
      } finally {
        await end();
      }
    });

    it("reports a diagnostic once, whichever path the file was reached by", async () => {
      const { dir, call, end } = symlinkedRun();
      try {
        const wrong = 'export function answer(): number {\n  return "x";\n}\n';
        writeFileSync(join(dir, "real", "lib.ts"), wrong);
        expect(await call("lsp", { action: "diagnostics", file: "proj/lib.ts" })).toContain(
          "proj/lib.ts:2:3 error [TS2322] Type 'string' is not assignable to type 'number'.",
        );
        // The same file written by its real path: what was shown through the link is not new.
        expect(await call("write", { file: "real/lib.ts", content: `${wrong}\n` })).toContain(
          "no new diagnostics in real/lib.ts (1 reported earlier still present)",
        );
      } finally {
        await end();
      }
    });

    it("renames through the link in every file of the project, as its server knows them", async () => {
      const { dir, call, end } = symlinkedRun();
      try {
        const renamed = await call("lsp_rename", {
          file: "proj/lib.ts",
          line: 1,
          symbol: "answer",
          new_name: "reply",
        });
        expect(renamed).toContain("renamed 'answer' to 'reply': 5 edits in 3 files");
        expect(renamed).toContain("3 files clean");
        for (const file of ["lib", "use", "gone"]) {
          const text = readFileSync(join(dir, "real", `${file}.ts`), "utf8");
          expect(text).toContain("reply");
          expect(text).not.toContain("answer");
        }
      } finally {
        await end();
      }
    });
  },
);
