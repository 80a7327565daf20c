import { existsSync, mkdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRegistry, createRun, resultText } from "@tools/registry";
import { describe, expect, it } from "vitest";
import { searchOpenLimit, searchParkLimit } from "../actions/cross-file-search.js";
import { findBinary } from "../servers/find-binary.js";
import { createLspSupervisor, type LspSupervisor } from "../supervisor/supervisor.js";
import { ci, packageBin, tempTree } from "../test-support/fixtures.js";
import { lspRenameTool } from "./lsp-rename-tool.js";
import { lspTool } from "./lsp-tool.js";

/** A run on a temp tree with lsp and lsp_rename; `use` runs the body and disposes everything. */
async function withTree(
  files: Record<string, string>,
  use: (
    call: (tool: string, args: Record<string, unknown>) => Promise<string>,
    dir: string,
    openFiles: () => string[],
    supervisor: LspSupervisor,
  ) => Promise<void>,
  binDirectories: string[] = [],
): Promise<void> {
  const tree = tempTree("search", files);
  const run = createRun({ workingDirectory: tree.dir });
  const supervisor = createLspSupervisor(run, { diagnosticsTimeoutMs: 20_000, binDirectories });
  const registry = createRegistry({ tools: [lspTool, lspRenameTool], approval: "auto" });
  try {
    const openFiles = () =>
      supervisor
        .runningClients()
        .flatMap((client) => client.openUris())
        .map((uri) => supervisor.display(supervisor.pathOf(uri)))
        .sort();
    await use(
      async (tool, args) => resultText(await registry.invoke(run, { tool, args })),
      tree.dir,
      openFiles,
      supervisor,
    );
  } finally {
    await run.dispose();
    tree.remove();
  }
}

const compileCommands = (dir: string, files: string[]) =>
  JSON.stringify(files.map((file) => ({ directory: dir, file: join(dir, file), command: `cc -c ${file}` })));

/** A compilation database for the C files of `tree` (as a real project has one). */
function writeDatabase(dir: string, tree: Record<string, string>): void {
  const files = Object.keys(tree).filter((file) => file.endsWith(".c"));
  writeFileSync(join(dir, "compile_commands.json"), compileCommands(dir, files));
}

/** The name of the i-th file {@link withFooUsers} adds. */
const user = (i: number) => `use${String(i).padStart(2, "0")}.c`;

/** Adds one search's worth of files calling foo to `tree` (use00.c …): a search for foo parks them all. */
function withFooUsers(tree: Record<string, string>): void {
  for (let i = 0; i < searchParkLimit; i++)
    tree[user(i)] = `#include "util.h"\nint use${i}(void) { return foo(${i}); }\n`;
}

describe.skipIf(!findBinary("clangd", [], []).found && !ci)(
  "clangd searches across files it never opened",
  () => {
    // clangd runs without a background index: before, references from a.c listed a.c only, and a
    // rename edited a.c alone while b.c kept calling the old name (a broken build, reported clean).
    const files = {
      "util.h": "int foo(int x);\n",
      "a.c": '#include "util.h"\nint foo(int x) { return x + 1; }\n',
      "b.c": '#include "util.h"\nint main(void) { return foo(2); }\n',
      "c.c": "/* nothing about it */\nint other(void) { return 0; }\n",
    };

    /** b.c after a shell command added a second use of foo, and the references then. */
    const withTwoUsesInB = {
      text: '#include "util.h"\nint main(void) { return foo(2) + foo(3); }\n',
      references: [
        "4 references of 'foo':",
        "a.c:2:5  int foo(int x) { return x + 1; }",
        "b.c:2:25  int main(void) { return foo(2) + foo(3); }",
        "b.c:2:34  int main(void) { return foo(2) + foo(3); }",
        "util.h:1:5  int foo(int x);",
      ].join("\n"),
    };

    it("answers a change back to the text clangd built last (a rename's check, then its write)", async () => {
      await withTree(
        { ...files, "compile_flags.txt": "-std=c11\n" },
        async (call, dir, _openFiles, supervisor) => {
          expect(await call("lsp", { action: "diagnostics", file: "a.c" })).toBe("no diagnostics in a.c");
          const [client] = supervisor.runningClients();
          const uri = supervisor.uriOf(join(dir, "a.c"));
          const before = files["a.c"];
          const edited = before.replace("int foo", "int fooo");
          // The check's edit in memory, analysed.
          await client!.sync(uri, "c", edited, false);
          expect((await client!.freshDiagnostics(uri, 15_000)).fresh).toBe(true);
          // The text before, then at once the write's: clangd skips the first (another change
          // follows) and, without forceRebuild, would see input it built already and publish nothing.
          await client!.sync(uri, "c", before, false);
          await client!.sync(uri, "c", edited, true);
          const answer = await client!.freshDiagnostics(uri, 15_000);
          expect(answer.fresh).toBe(true);
        },
      );
    });

    it("answers a file opened again while its close still waits for clangd's publish (clangd has it open)", async () => {
      await withTree(
        { ...files, "compile_flags.txt": "-std=c11\n" },
        async (call, dir, _openFiles, supervisor) => {
          expect(await call("lsp", { action: "diagnostics", file: "c.c" })).toBe("no diagnostics in c.c");
          const [client] = supervisor.runningClients();
          const uri = supervisor.uriOf(join(dir, "c.c"));
          const broken = "int other(void) { return missing; }\n";
          // A change, and the close at once: clangd has not published the change yet, so it is
          // closed here and its didClose waits (clangd 14 can hang on a close sent earlier).
          await client!.sync(uri, "c", broken, false);
          await client!.close(uri);
          expect(client!.isOpen(uri)).toBe(false);
          // Opened again with the same text: clangd still has it open with that text, and must
          // build it anew to answer.
          await client!.sync(uri, "c", broken, true);
          const answer = await client!.freshDiagnostics(uri, 15_000);
          expect(answer.fresh).toBe(true);
          expect(answer.diagnostics.map((diagnostic) => diagnostic.message)).toEqual([
            "Use of undeclared identifier 'missing'",
          ]);
        },
      );
    });

    it("references and rename reach every file that uses the name", async () => {
      await withTree({ ...files, "compile_flags.txt": "-std=c11\n" }, async (call, dir, openFiles) => {
        expect(await call("lsp", { action: "references", file: "a.c", line: 2, symbol: "foo" })).toBe(
          [
            "3 references of 'foo':",
            "a.c:2:5  int foo(int x) { return x + 1; }",
            "b.c:2:25  int main(void) { return foo(2); }",
            "util.h:1:5  int foo(int x);",
          ].join("\n"),
        );
        // Files opened only for the search stay open (parked) for the next search.
        expect(openFiles()).toEqual(["a.c", "b.c", "util.h"]);
        // A file a search opens and another call asks about meanwhile stays open for that call.
        const [references, diagnostics] = await Promise.all([
          call("lsp", { action: "references", file: "a.c", line: 2, symbol: "foo" }),
          call("lsp", { action: "diagnostics", file: "b.c" }),
        ]);
        expect(references).toMatch(/^3 references of 'foo':/);
        expect(diagnostics).toBe("no diagnostics in b.c");
        expect(openFiles()).toEqual(["a.c", "b.c", "util.h"]);
        // A use added by a shell command to a file the scan had read before is found.
        writeFileSync(join(dir, "c.c"), '#include "util.h"\nint other(void) { return foo(0); }\n');
        expect(await call("lsp", { action: "references", file: "a.c", line: 2, symbol: "foo" })).toBe(
          [
            "4 references of 'foo':",
            "a.c:2:5  int foo(int x) { return x + 1; }",
            "b.c:2:25  int main(void) { return foo(2); }",
            "c.c:2:26  int other(void) { return foo(0); }",
            "util.h:1:5  int foo(int x);",
          ].join("\n"),
        );
        expect(await call("lsp_rename", { file: "a.c", line: 2, symbol: "foo", new_name: "bar" })).toBe(
          [
            "renamed 'foo' to 'bar': 4 edits in 4 files",
            "a.c: 1 edit",
            "b.c: 1 edit",
            "c.c: 1 edit",
            "util.h: 1 edit",
          ].join("\n"),
        );
        expect(readFileSync(join(dir, "b.c"), "utf8")).toBe(
          '#include "util.h"\nint main(void) { return bar(2); }\n',
        );
        expect(await call("lsp", { action: "diagnostics", file: "b.c" })).toBe("no diagnostics in b.c");
      });
    });

    it("a search right after a rename waits for clangd to analyse the files the rename wrote", async () => {
      await withTree({ ...files, "compile_flags.txt": "-std=c11\n" }, async (call) => {
        expect(await call("lsp", { action: "references", file: "a.c", line: 2, symbol: "foo" })).toMatch(
          /^3 references of 'foo':/,
        );
        expect(await call("lsp_rename", { file: "util.h", line: 1, symbol: "foo", new_name: "bar" })).toMatch(
          /^renamed 'foo' to 'bar': 3 edits in 3 files/,
        );
        expect(await call("lsp", { action: "references", file: "util.h", line: 1, symbol: "bar" })).toBe(
          [
            "3 references of 'bar':",
            "a.c:2:5  int bar(int x) { return x + 1; }",
            "b.c:2:25  int main(void) { return bar(2); }",
            "util.h:1:5  int bar(int x);",
          ].join("\n"),
        );
      });
    });

    it("finds the uses in a root deleted and made again (a checkout anew): its folders are watched again", async () => {
      const tree = { ...files, "compile_flags.txt": "-std=c11\n" };
      await withTree(tree, async (call, dir) => {
        expect(await call("lsp", { action: "references", file: "a.c", line: 2, symbol: "foo" })).toMatch(
          /^3 references of 'foo':/,
        );
        rmSync(dir, { recursive: true });
        mkdirSync(dir);
        for (const [name, text] of Object.entries(tree)) writeFileSync(join(dir, name), text);
        writeFileSync(join(dir, "d.c"), '#include "util.h"\nint more(void) { return foo(4); }\n');
        expect(await call("lsp", { action: "references", file: "a.c", line: 2, symbol: "foo" })).toBe(
          [
            "4 references of 'foo':",
            "a.c:2:5  int foo(int x) { return x + 1; }",
            "b.c:2:25  int main(void) { return foo(2); }",
            "d.c:2:25  int more(void) { return foo(4); }",
            "util.h:1:5  int foo(int x);",
          ].join("\n"),
        );
      });
    });

    it("a second search finds the files the first opened still open; one changed on disk is read again", async () => {
      await withTree(
        { ...files, "compile_flags.txt": "-std=c11\n" },
        async (call, dir, openFiles, supervisor) => {
          const first = await call("lsp", { action: "references", file: "a.c", line: 2, symbol: "foo" });
          expect(first).toMatch(/^3 references of 'foo':/);
          const [client] = supervisor.runningClients();
          const opens: string[] = [];
          const sync = client!.sync.bind(client);
          client!.sync = async (uri, languageId, text, save) => {
            const sent = await sync(uri, languageId, text, save);
            if (sent) opens.push(supervisor.display(supervisor.pathOf(uri)));
            return sent;
          };
          expect(await call("lsp", { action: "references", file: "a.c", line: 2, symbol: "foo" })).toBe(
            first,
          );
          expect(opens).toEqual([]); // nothing opened or sent again
          // A shell command adds a second use to b.c, parked: the next call finds it changed on disk.
          writeFileSync(join(dir, "b.c"), withTwoUsesInB.text);
          expect(await call("lsp", { action: "references", file: "a.c", line: 2, symbol: "foo" })).toBe(
            withTwoUsesInB.references,
          );
          expect(opens).toEqual(["b.c"]);
          // Another search sees b.c's new text as well (its use moved a line down).
          writeFileSync(join(dir, "b.c"), '#include "util.h"\n\nint main(void) { return foo(2); }\n');
          expect(
            await call("lsp", { action: "references", file: "util.h", line: 1, symbol: "foo" }),
          ).toContain("b.c:3:25  int main(void) { return foo(2); }");
          expect(openFiles()).toEqual(["a.c", "b.c", "util.h"]);
        },
      );
    });

    it("a file a search left open and a write changed just before the next call is not answered from its old text", async () => {
      const defines = {
        "util.h": "int foo(int x);\nint bar(void);\n",
        "a.c": '#include "util.h"\nint foo(int x) { return x + bar(); }\n',
        "b.c": '#include "util.h"\nint bar(void) { return 1; }\nint main(void) { return foo(2); }\n',
        "compile_flags.txt": "-std=c11\n",
      };
      await withTree(defines, async (call, dir, openFiles) => {
        await call("lsp", { action: "references", file: "a.c", line: 2, symbol: "foo" });
        expect(openFiles()).toEqual(["a.c", "b.c", "util.h"]);
        expect(await call("lsp", { action: "definition", file: "a.c", line: 2, symbol: "bar" })).toContain(
          "b.c:2:5  int bar(void) { return 1; }",
        );
        // Written in the same turn of the event loop as the call: its events are not read yet.
        writeFileSync(join(dir, "b.c"), '#include "util.h"\n\n\nint bar(void) { return 1; }\n');
        const answer = await call("lsp", { action: "definition", file: "a.c", line: 2, symbol: "bar" });
        expect(answer).toBe("1 definition of 'bar':\nb.c:4:5  int bar(void) { return 1; }");
        expect(openFiles()).toEqual(["a.c", "b.c", "util.h"]);
      });
    });

    it("leaves out locations in files deleted since the server indexed them", async () => {
      await withTree({ ...files, "compile_flags.txt": "-std=c11\n" }, async (call, dir, openFiles) => {
        expect(await call("lsp", { action: "references", file: "a.c", line: 2, symbol: "foo" })).toMatch(
          /^3 references of 'foo':/,
        );
        rmSync(join(dir, "b.c"));
        const answer = await call("lsp", { action: "references", file: "a.c", line: 2, symbol: "foo" });
        // clangd still lists b.c's use (it keeps a deleted file's symbols): left out, and said.
        expect(answer).toBe(
          [
            "1 reference in files that no longer exist left out (clangd's index is older than the disk)",
            "2 references of 'foo':",
            "a.c:2:5  int foo(int x) { return x + 1; }",
            "util.h:1:5  int foo(int x);",
          ].join("\n"),
        );
        expect(openFiles()).toEqual(["a.c", "util.h"]);
      });
    });

    it("finds the uses a shell command just added to a file open for its own sake", async () => {
      await withTree({ ...files, "compile_flags.txt": "-std=c11\n" }, async (call, dir) => {
        expect(await call("lsp", { action: "diagnostics", file: "b.c" })).toBe("no diagnostics in b.c");
        writeFileSync(join(dir, "b.c"), withTwoUsesInB.text);
        // b.c is sent again by this call; clangd's index has its new uses once it analysed it.
        expect(await call("lsp", { action: "references", file: "a.c", line: 2, symbol: "foo" })).toBe(
          withTwoUsesInB.references,
        );
      });
    });

    it("opens again a file closed over the bound and changed since: clangd would still list its old uses", async () => {
      const tree: Record<string, string> = { "util.h": "int foo(int x);\nint bar(void);\n" };
      withFooUsers(tree);
      for (const other of ["x1.c", "x2.c"])
        tree[other] = `#include "util.h"\nint ${other[1]}(void) { return bar(); }\n`;
      await withTree(tree, async (call, dir, openFiles) => {
        writeDatabase(dir, tree);
        const fooUses = async () =>
          (await call("lsp", { action: "references", file: "util.h", line: 1, symbol: "foo" })).split("\n");
        expect((await fooUses())[0]).toBe(`${searchParkLimit + 1} references of 'foo':`);
        // A search for bar parks two more files: the two least recently searched are closed.
        await call("lsp", { action: "references", file: "util.h", line: 2, symbol: "bar" });
        expect(openFiles()).not.toContain(user(0));
        // A shell command removes use00.c's call; the file no longer mentions foo.
        writeFileSync(join(dir, user(0)), "int use0(void) { return 0; }\n");
        const after = await fooUses();
        expect(after[0]).toBe(`${searchParkLimit} references of 'foo':`);
        expect(after.filter((row) => row.startsWith(user(0)))).toEqual([]);
      });
    });

    /**
     * def.c, with bar's doc comment, closed here (pushed out by a search that parks 40 files)
     * and then rewritten by a shell command: a new comment, two lines further down.
     */
    async function withDefClosedAndChanged(
      use: (
        call: (tool: string, args: Record<string, unknown>) => Promise<string>,
        dir: string,
      ) => Promise<void>,
    ): Promise<void> {
      const tree: Record<string, string> = {
        "util.h": "int foo(int x);\nint bar(void);\n",
        "def.c": '#include "util.h"\n/** Returns one. */\nint bar(void) { return 1; }\n',
        "main.c": '#include "util.h"\nint main(void) { return bar(); }\n',
      };
      withFooUsers(tree);
      await withTree(tree, async (call, dir, openFiles) => {
        writeDatabase(dir, tree);
        await call("lsp", { action: "references", file: "util.h", line: 2, symbol: "bar" });
        await call("lsp", { action: "references", file: "util.h", line: 1, symbol: "foo" });
        expect(openFiles()).not.toContain("def.c");
        writeFileSync(
          join(dir, "def.c"),
          '#include "util.h"\n\n\n/** Returns two. */\nint bar(void) { return 2; }\n',
        );
        await use(call, dir);
      });
    }

    it("asks again after opening a file a definition lands in that was closed here and changed since", async () => {
      await withDefClosedAndChanged(async (call) => {
        expect(await call("lsp", { action: "definition", file: "main.c", line: 2, symbol: "bar" })).toBe(
          "1 definition of 'bar':\ndef.c:5:5  int bar(void) { return 2; }",
        );
      });
    });

    it("hover opens again a file closed here and changed since: clangd's index kept its old doc comment", async () => {
      await withDefClosedAndChanged(async (call) => {
        const hover = await call("lsp", { action: "hover", file: "main.c", line: 2, symbol: "bar" });
        expect(hover).toContain("Returns two.");
        expect(hover).not.toContain("Returns one.");
      });
    });

    it("hover waits for clangd to analyse an open file a shell command changed: its index had the old doc comment", async () => {
      const tree: Record<string, string> = {
        "util.h": "int bar(void);\n",
        "def.c": '#include "util.h"\n/** Returns one. */\nint bar(void) { return 1; }\n',
        "main.c": '#include "util.h"\nint main(void) { return bar(); }\n',
      };
      await withTree(tree, async (call, dir) => {
        writeDatabase(dir, tree);
        // def.c open for its own sake, and its doc comment in clangd's index.
        await call("lsp", { action: "hover", file: "def.c", line: 3, symbol: "bar" });
        expect(await call("lsp", { action: "hover", file: "main.c", line: 2, symbol: "bar" })).toContain(
          "Returns one.",
        );
        writeFileSync(
          join(dir, "def.c"),
          '#include "util.h"\n/** Returns two. */\nint bar(void) { return 2; }\n',
        );
        const hover = await call("lsp", { action: "hover", file: "main.c", line: 2, symbol: "bar" });
        expect(hover).toContain("Returns two.");
        expect(hover).not.toContain("Returns one.");
      });
    });

    it("workspace symbols open again a file closed here and changed since: clangd's index kept its old lines", async () => {
      await withDefClosedAndChanged(async (call) => {
        const symbols = await call("lsp", { action: "symbols", query: "bar", file: "main.c" });
        expect(symbols).toContain("def.c:5:5  int bar(void) { return 2; }");
        expect(symbols).not.toContain("def.c:3:");
      });
    });

    it("workspace symbols find a symbol in a file never opened: clangd is given the files holding the query", async () => {
      const tree: Record<string, string> = {
        "main.c": "int main(void) { return 0; }\n",
        "util.c": "int helper_only_here(void) { return 1; }\n",
        "other.c": "int unrelated(void) { return 2; }\n",
      };
      await withTree(tree, async (call, dir, openFiles) => {
        writeDatabase(dir, tree);
        const symbols = await call("lsp", { action: "symbols", query: "Helper_Only", file: "main.c" });
        expect(symbols).toContain("util.c:1:5  int helper_only_here(void) { return 1; }");
        // Only the file holding the query was given to clangd (parked open for the next search).
        expect(openFiles()).toEqual(["main.c", "util.c"]);
      });
    });

    it("workspace symbols leave out symbols clangd still keeps for a file deleted since it was closed", async () => {
      await withDefClosedAndChanged(async (call, dir) => {
        rmSync(join(dir, "def.c"));
        const symbols = await call("lsp", { action: "symbols", query: "bar", file: "main.c" });
        expect(symbols).not.toContain("def.c");
        expect(symbols).toContain("1 in files that no longer exist left out");
      });
    });

    it("says when the scan for the name could not cover the root", async () => {
      // A symlinked folder is not followed: files there are neither scanned nor watched (the
      // folder it points to is, as any other).
      await withTree(
        { ...files, "compile_flags.txt": "-std=c11\n", "real/x.c": "int x(void) { return 0; }\n" },
        async (call, dir) => {
          symlinkSync(join(dir, "real"), join(dir, "linked"));
          const answer = await call("lsp", { action: "references", file: "a.c", line: 2, symbol: "foo" });
          expect(answer.split("\n").slice(0, 2)).toEqual([
            "clangd sees only the files open on it: 4 files of . were searched for 'foo', not all; uses in the others may be missing",
            "3 references of 'foo':",
          ]);
        },
      );
    });

    it("checks another file against a header a search left open and a shell command then changed", async () => {
      await withTree({ ...files, "compile_flags.txt": "-std=c11\n" }, async (call, dir, openFiles) => {
        await call("lsp", { action: "references", file: "a.c", line: 2, symbol: "foo" });
        expect(openFiles()).toEqual(["a.c", "b.c", "util.h"]);
        writeFileSync(join(dir, "util.h"), "int foo(int x, int y);\n");
        expect(await call("lsp", { action: "diagnostics", file: "b.c" })).toMatch(
          /^1 diagnostic in b\.c:\nb\.c:2:\d+ error .*(few arguments|expected 2)/,
        );
      });
    });

    it("a file a search opened and closed again gets its own diagnostics afterwards, not the close's empty ones", async () => {
      // clangd clears a closed file with an empty, versionless publish; arriving after the next
      // open, it passed for that open's answer ("no diagnostics" for a file with an error).
      const broken = { ...files, "b.c": '#include "util.h"\nint main(void) { return foo(2) + missing; }\n' };
      await withTree({ ...broken, "compile_flags.txt": "-std=c11\n" }, async (call) => {
        for (let round = 0; round < 3; round++) {
          expect(await call("lsp", { action: "references", file: "a.c", line: 2, symbol: "foo" })).toMatch(
            /^3 references of 'foo':/,
          );
          expect(await call("lsp", { action: "diagnostics", file: "b.c" })).toMatch(
            /^1 diagnostic in b\.c:\nb\.c:2:\d+ error .*missing/,
          );
        }
      });
    });

    it(`opens at most ${searchOpenLimit} files and says how many mention the name`, async () => {
      const users = searchOpenLimit + 5;
      const many: Record<string, string> = { "util.h": "int foo(int x);\n" };
      for (let i = 0; i < users; i++)
        many[`use${String(i).padStart(2, "0")}.c`] =
          `#include "util.h"\nint use${i}(void) { return foo(${i}); }\n`;
      await withTree(many, async (call, dir) => {
        // A compilation database, as a real project has (compile_flags.txt would do as well).
        writeDatabase(dir, many);
        const answer = await call("lsp", { action: "references", file: "util.h", line: 1, symbol: "foo" });
        const [note, count] = answer.split("\n");
        expect(note).toBe(
          `clangd sees only the files open on it: ${users} files mention 'foo', ${searchOpenLimit} were opened; uses in the others may be missing`,
        );
        // The declaration and one use in each opened file.
        expect(count).toBe(`${searchOpenLimit + 1} references of 'foo':`);
      });
    });
  },
);

const pyright = existsSync(join(packageBin, "pyright-langserver"));

describe.skipIf(!pyright && !ci)("pyright's first references after its start", () => {
  it("lists every use, not only those of the files it had analysed", async () => {
    await withTree(
      {
        "pyproject.toml": '[project]\nname = "search"\n',
        "pkg/__init__.py": "",
        "pkg/a.py": "def foo(x: int) -> int:\n    return x + 1\n",
        "pkg/b.py": "from pkg.a import foo\n\nprint(foo(2))\n",
      },
      async (call) => {
        expect(await call("lsp", { action: "references", file: "pkg/a.py", line: 1, symbol: "foo" })).toBe(
          [
            "3 references of 'foo':",
            "pkg/a.py:1:5  def foo(x: int) -> int:",
            "pkg/b.py:1:19  from pkg.a import foo",
            "pkg/b.py:3:7  print(foo(2))",
          ].join("\n"),
        );
      },
      [packageBin],
    );
  });
});

/**
 * A monorepo: each package is a root of its own, with its own server. A rename in one package
 * is made by that package's server, which does not see the others: the files elsewhere that
 * still name the symbol are listed, not changed.
 */
describe.skipIf(!existsSync(join(packageBin, "typescript-language-server")) && !ci)(
  "lsp_rename in one package of a monorepo",
  () => {
    it("lists the files of other packages that still name the old name", async () => {
      await withTree(
        {
          "package.json": '{ "name": "mono", "private": true }\n',
          "packages/a/package.json": '{ "name": "a" }\n',
          "packages/a/tsconfig.json": '{ "compilerOptions": { "strict": true, "noEmit": true } }\n',
          "packages/a/lib.ts": "export function answer(): number {\n  return 42;\n}\n",
          "packages/a/main.ts": 'import { answer } from "./lib";\nexport const value = answer();\n',
          "packages/b/package.json": '{ "name": "b" }\n',
          "packages/b/use.ts": 'import { answer } from "../a/lib";\nexport const twice = answer() * 2;\n',
        },
        async (call, dir) => {
          const renamed = await call("lsp_rename", {
            file: "packages/a/lib.ts",
            line: 1,
            symbol: "answer",
            new_name: "reply",
          });
          expect(renamed.split("\n")).toEqual([
            "renamed 'answer' to 'reply': 3 edits in 2 files",
            "packages/a/lib.ts: 1 edit",
            "packages/a/main.ts: 2 edits",
            "not changed: 'answer' is still named in 1 file that the server which renamed it (root packages/a) does not search; if they use this symbol, rename it there too (lsp_rename from one of them) or edit them:",
            'packages/b/use.ts:1  import { answer } from "../a/lib";',
            "packages/b/use.ts:2  export const twice = answer() * 2;",
          ]);
          expect(readFileSync(join(dir, "packages", "b", "use.ts"), "utf8")).toContain("answer");
        },
        [packageBin],
      );
    });
  },
);

/**
 * The same monorepo, asked for references: the server of the package asked in does not search
 * the other packages, so what they name is said, not passed off as no use.
 */
describe.skipIf(!existsSync(join(packageBin, "typescript-language-server")) && !ci)(
  "references in one package of a monorepo",
  () => {
    it("names the files of other packages the answering server does not search", async () => {
      await withTree(
        {
          "package.json": '{ "name": "mono", "private": true }\n',
          "packages/a/tsconfig.json": '{ "compilerOptions": { "strict": true, "noEmit": true } }\n',
          "packages/a/src/index.ts":
            'export function greet(name: string): string {\n  return `hello ${name}`;\n}\nexport const hi = greet("a");\n',
          "packages/b/tsconfig.json": '{ "compilerOptions": { "strict": true, "noEmit": true } }\n',
          "packages/b/src/main.ts":
            'import { greet } from "../../a/src/index.js";\nexport const message = greet("b");\n',
        },
        async (call) => {
          const fromA = await call("lsp", {
            action: "references",
            file: "packages/a/src/index.ts",
            line: 1,
            symbol: "greet",
          });
          expect(fromA.split("\n")).toEqual([
            "2 references of 'greet':",
            "packages/a/src/index.ts:1:17  export function greet(name: string): string {",
            'packages/a/src/index.ts:4:19  export const hi = greet("a");',
            "not searched: 'greet' is also named in 1 file that the server which answered (root packages/a) does not search; if they use this symbol, ask from one of them:",
            'packages/b/src/main.ts:1  import { greet } from "../../a/src/index.js";',
            'packages/b/src/main.ts:2  export const message = greet("b");',
          ]);
          // From the importing package, its server sees both: nothing more to say.
          const fromB = await call("lsp", {
            action: "references",
            file: "packages/b/src/main.ts",
            line: 2,
            symbol: "greet",
          });
          expect(fromB).toMatch(/^4 references of 'greet':/);
          expect(fromB).not.toContain("not searched");
        },
        [packageBin],
      );
    });
  },
);

/**
 * The name asked about is on the asked line only in a comment: the server finds nothing there,
 * so the nearby lines are tried, as for a name not on the line, and the line used is said.
 */
describe.skipIf(!existsSync(join(packageBin, "typescript-language-server")) && !ci)(
  "references of a name only in a comment on the asked line",
  () => {
    it("answers for the nearby line where it is code", async () => {
      await withTree(
        {
          "package.json": '{ "name": "comment", "private": true }\n',
          "tsconfig.json": '{ "compilerOptions": { "strict": true, "noEmit": true } }\n',
          "src/a.ts": [
            "export function tally(): number {",
            "  let total = 0;",
            "  for (let i = 0; i < 3; i++) {",
            "    total += i;",
            "  }",
            "  const label = 'x';",
            "  let count = total;",
            "  count += label.length;",
            "  // line 9 comment mentioning count",
            "  return count;",
            "}",
            "",
          ].join("\n"),
        },
        async (call) => {
          const answer = await call("lsp", {
            action: "references",
            file: "src/a.ts",
            line: 9,
            symbol: "count",
          });
          expect(answer.split("\n")).toEqual([
            "'count' is on line 9 only in a comment or string, where the server found no reference; used line 8: count += label.length;",
            "3 references of 'count':",
            "src/a.ts:7:7  let count = total;",
            "src/a.ts:8:3  count += label.length;",
            "src/a.ts:10:10  return count;",
          ]);
        },
        [packageBin],
      );
    });

    it("asks on the line itself when the name is code in a template literal's ${…}", async () => {
      await withTree(
        {
          "package.json": '{ "name": "template", "private": true }\n',
          "tsconfig.json": '{ "compilerOptions": { "strict": true, "noEmit": true } }\n',
          "src/a.ts": [
            "export class Counter {",
            "  n = 0;",
            "}",
            "export function describe(total: number): string {",
            "  const unit = 'items';",
            "  const gap = ' ';",
            "  return `${total}${gap}${unit}`;",
            "}",
            "export const total = new Counter();",
            "",
          ].join("\n"),
        },
        async (call) => {
          const answer = await call("lsp", {
            action: "type_definition",
            file: "src/a.ts",
            line: 7,
            symbol: "total",
          });
          expect(answer).toBe("no type definition found for 'total' at src/a.ts:7:13");
        },
        [packageBin],
      );
    });
  },
);
