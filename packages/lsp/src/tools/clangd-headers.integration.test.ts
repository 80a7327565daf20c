import { readdirSync, symlinkSync, unlinkSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createRegistry, createRun, resultText } from "@tools/registry";
import { describe, expect, it } from "vitest";
import type { LanguageClient } from "../client/language-client.js";
import { settleDiskEvents } from "../files/disk-events.js";
import { findBinary } from "../servers/find-binary.js";
import { createLspSupervisor, type LspSupervisor } from "../supervisor/supervisor.js";
import { ci, tempTree } from "../test-support/fixtures.js";
import { lspTool } from "./lsp-tool.js";

/**
 * A project where only some files include the header: a.c directly, b.c through mid.h; the
 * others include nothing of the project.
 */
const files: Record<string, string> = {
  "compile_flags.txt": "-std=c11\n",
  "twice.h": "#pragma once\nint twice(int v);\n",
  "mid.h": '#pragma once\n#include "twice.h"\n',
  "a.c": '#include "twice.h"\nint a(void) { return twice(1); }\n',
  "b.c": '#include "mid.h"\nint b(void) { return twice(2); }\n',
  "c.c": "#include <stdio.h>\nint c(void) { return 3; }\n",
  "d.c": "int d(void) { return 4; }\n",
  "e.c": "int e(void) { return 5; }\n",
};

/** A run on the project with `lsp`; `use` gets a call, the folder, the supervisor; all disposed after. */
async function withProject(
  tree: Record<string, string>,
  use: (
    lsp: (args: Record<string, unknown>) => Promise<string>,
    dir: string,
    supervisor: LspSupervisor,
  ) => Promise<void>,
): Promise<void> {
  const { dir, remove } = tempTree("clangd-headers", tree);
  const run = createRun({ workingDirectory: dir });
  const supervisor = createLspSupervisor(run, { diagnosticsTimeoutMs: 20_000 });
  const registry = createRegistry({ tools: [lspTool] });
  try {
    await use(async (args) => resultText(await registry.invoke(run, { tool: "lsp", args })), dir, supervisor);
  } finally {
    await run.dispose();
    remove();
  }
}

/**
 * Sets the times of every file and folder under `dir` a minute back: what the walks of what files
 * include learned of them is then kept between flushes (not within the timestamp granularity).
 */
function settleTree(dir: string): void {
  const past = Date.now() / 1000 - 60;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
    utimesSync(join(entry.parentPath, entry.name), past, past);
  utimesSync(dir, past, past);
}

/** Records the names of the documents `client` sends a didChange (or, with `opens`, a didOpen) for, from now on. */
function recordChanges(client: LanguageClient, opens = false): string[] {
  const changed: string[] = [];
  const notify = client.notify.bind(client);
  client.notify = (method, params) => {
    if (method === "textDocument/didChange" || (opens && method === "textDocument/didOpen")) {
      const uri = (params as { textDocument: { uri: string } }).textDocument.uri;
      changed.push(uri.slice(uri.lastIndexOf("/") + 1));
    }
    return notify(method, params);
  };
  return changed;
}

/**
 * Asks `definition` at `at`, expecting `from` in the answer; writes `write` (path, text) on disk;
 * asks again once the change is seen, expecting `to`: the answer follows the header's new text.
 */
async function definitionMoves(
  lsp: (args: Record<string, unknown>) => Promise<string>,
  dir: string,
  at: { file: string; line: number; symbol: string },
  change: { write: [string, string]; from: string; to: string },
): Promise<void> {
  expect(await lsp({ action: "definition", ...at })).toContain(change.from);
  writeFileSync(join(dir, change.write[0]), change.write[1]);
  await settleDiskEvents();
  expect(await lsp({ action: "definition", ...at })).toContain(change.to);
}

describe.skipIf(!findBinary("clangd", [], []).found && !ci)("clangd after a header changes on disk", () => {
  it("sends again only the open files that include the header, directly or through another", async () => {
    await withProject(files, async (lsp, dir, supervisor) => {
      for (const file of ["a.c", "b.c", "c.c", "d.c", "e.c"])
        expect(await lsp({ action: "diagnostics", file })).toBe(`no diagnostics in ${file}`);
      const [client] = supervisor.runningClients();
      const changed = recordChanges(client!);
      writeFileSync(join(dir, "twice.h"), "#pragma once\n\nint twice(long v);\n");
      await settleDiskEvents();
      expect(await lsp({ action: "definition", file: "e.c", line: 1, symbol: "e" })).toContain("e.c:1:5");
      expect(changed.sort()).toEqual(["a.c", "b.c"]);
    });
  });

  it("an open file including the header through another sees its new text", async () => {
    await withProject(files, async (lsp, dir) => {
      for (const file of ["a.c", "b.c", "c.c"])
        expect(await lsp({ action: "diagnostics", file })).toBe(`no diagnostics in ${file}`);
      await definitionMoves(
        lsp,
        dir,
        { file: "b.c", line: 2, symbol: "twice" },
        {
          write: ["twice.h", "#pragma once\n\nint twice(int v, int w);\n"],
          from: "twice.h:2:5",
          to: "twice.h:3:5",
        },
      );
      expect(await lsp({ action: "diagnostics", file: "a.c" })).toMatch(
        /a\.c:2:\d+ error .*[Tt]oo few arguments/,
      );
      expect(await lsp({ action: "diagnostics", file: "b.c" })).toMatch(
        /b\.c:2:\d+ error .*[Tt]oo few arguments/,
      );
    });
  });

  it("sends every open file again when the compile flags include a file without an #include line", async () => {
    const forced = {
      ...files,
      "compile_flags.txt": "-std=c11\n-include\ntwice.h\n",
      "e.c": "int e(void) { return twice(5); }\n",
    };
    await withProject(forced, async (lsp, dir) => {
      await definitionMoves(
        lsp,
        dir,
        { file: "e.c", line: 1, symbol: "twice" },
        {
          write: ["twice.h", "#pragma once\n\nint twice(int v);\n"],
          from: "twice.h:2:5",
          to: "twice.h:3:5",
        },
      );
    });
  });

  it("an open file starting with a byte order mark, including the header, sees its new text", async () => {
    await withProject({ ...files, "a.c": `\uFEFF${files["a.c"]}` }, async (lsp, dir) => {
      await definitionMoves(
        lsp,
        dir,
        { file: "a.c", line: 2, symbol: "twice" },
        {
          write: ["twice.h", "#pragma once\n\nint twice(int v, int w);\n"],
          from: "twice.h:2:5",
          to: "twice.h:3:5",
        },
      );
    });
  });

  it("an open file including the header by a directive a comment splits sees its new text", async () => {
    await withProject(
      { ...files, "a.c": `# /* the header */ include "twice.h"\nint a(void) { return twice(1); }\n` },
      async (lsp, dir) => {
        await definitionMoves(
          lsp,
          dir,
          { file: "a.c", line: 2, symbol: "twice" },
          {
            write: ["twice.h", "#pragma once\n\nint twice(int v, int w);\n"],
            from: "twice.h:2:5",
            to: "twice.h:3:5",
          },
        );
      },
    );
  });

  it("an open file including the header through a library's header outside the root sees its new text", async () => {
    // lib/kernel.h (outside the root app/, found through -I../lib) includes the root's kconfig.h.
    const tree = {
      "lib/kernel.h": '#pragma once\n#include "kconfig.h"\n',
      "app/compile_flags.txt": "-std=c11\n-I../lib\n-I.\n",
      "app/kconfig.h": "#pragma once\nint cfg(void);\n",
      "app/main.c": "#include <kernel.h>\nint m(void) { return cfg(); }\n",
      "app/other.c": "#include <stdio.h>\nint o(void) { return 0; }\n",
    };
    await withProject(tree, async (lsp, dir, supervisor) => {
      expect(await lsp({ action: "diagnostics", file: "app/other.c" })).toBe("no diagnostics in app/other.c");
      expect(await lsp({ action: "definition", file: "app/main.c", line: 2, symbol: "cfg" })).toContain(
        "kconfig.h:2:5",
      );
      const [client] = supervisor.runningClients();
      const changed = recordChanges(client!);
      writeFileSync(join(dir, "app/kconfig.h"), "#pragma once\n\nint cfg(void);\n");
      await settleDiskEvents();
      expect(await lsp({ action: "definition", file: "app/main.c", line: 2, symbol: "cfg" })).toContain(
        "kconfig.h:3:5",
      );
      expect(changed).toEqual(["main.c"]);
    });
  });

  it("an open file including a header through `..` out of a symlinked folder outside the root sees its new text", async () => {
    // out/sub (found through -I../out) leads to lib/real: sub/../kernel.h is lib/kernel.h, which
    // includes the root's kconfig.h (there is no out/kernel.h).
    const tree = {
      "lib/kernel.h": '#pragma once\n#include "kconfig.h"\n',
      "lib/real/keep": "",
      "out/keep": "",
      "app/compile_flags.txt": "-std=c11\n-I../out\n-I.\n",
      "app/kconfig.h": "#pragma once\nint cfg(void);\n",
      "app/main.c": "#include <sub/../kernel.h>\nint m(void) { return cfg(); }\n",
    };
    await withProject(tree, async (lsp, dir) => {
      symlinkSync(join(dir, "lib/real"), join(dir, "out/sub"));
      await definitionMoves(
        lsp,
        dir,
        { file: "app/main.c", line: 2, symbol: "cfg" },
        {
          write: ["app/kconfig.h", "#pragma once\n\nint cfg(void);\n"],
          from: "kconfig.h:2:5",
          to: "kconfig.h:3:5",
        },
      );
    });
  });

  it("sends every open file again when the compile flags include a file by --imacros", async () => {
    const forced = {
      ...files,
      "compile_flags.txt": "-std=c11\n--imacros\nmacros.h\n",
      "macros.h": "#define FIVE 5\n",
      "e.c": "int e(void) { return FIVE; }\n",
    };
    await withProject(forced, async (lsp, dir) => {
      await definitionMoves(
        lsp,
        dir,
        { file: "e.c", line: 1, symbol: "FIVE" },
        {
          write: ["macros.h", "\n\n#define FIVE 5\n"],
          from: "macros.h:1:9",
          to: "macros.h:3:9",
        },
      );
    });
  });

  it("sends every open file again when the compilation database includes a file through a response file", async () => {
    await withProject(
      {
        ...files,
        "flags.rsp": "-include macros.h\n",
        "macros.h": "#define FIVE 5\n",
        "e.c": "int e(void) { return FIVE; }\n",
      },
      async (lsp, dir) => {
        writeFileSync(
          join(dir, "compile_commands.json"),
          JSON.stringify([
            { directory: dir, file: join(dir, "e.c"), arguments: ["cc", "@flags.rsp", "-c", "e.c"] },
          ]),
        );
        await definitionMoves(
          lsp,
          dir,
          { file: "e.c", line: 1, symbol: "FIVE" },
          {
            write: ["macros.h", "\n\n#define FIVE 5\n"],
            from: "macros.h:1:9",
            to: "macros.h:3:9",
          },
        );
      },
    );
  });
});

describe.skipIf(!findBinary("clangd", [], []).found && !ci)(
  "clangd after a file included by any extension changes on disk",
  () => {
    for (const name of ["table.def", "table.inc", "table.c", "table.txt"]) {
      it(`an open file including ${name} (directly or through a header) sees its new text`, async () => {
        const tree = {
          "compile_flags.txt": "-std=c11\n",
          [name]: "int from_table(void);\n",
          "wrap.h": `#pragma once\n#include "${name}"\n`,
          "a.c": `#include "${name}"\nint a(void) { return from_table(); }\n`,
          "b.c": '#include "wrap.h"\nint b(void) { return from_table(); }\n',
          "e.c": "int e(void) { return 5; }\n",
        };
        await withProject(tree, async (lsp, dir, supervisor) => {
          expect(await lsp({ action: "diagnostics", file: "e.c" })).toBe("no diagnostics in e.c");
          expect(await lsp({ action: "definition", file: "b.c", line: 2, symbol: "from_table" })).toContain(
            `${name}:1:5`,
          );
          await definitionMoves(
            lsp,
            dir,
            { file: "a.c", line: 2, symbol: "from_table" },
            { write: [name, "\n\nint from_table(void);\n"], from: `${name}:1:5`, to: `${name}:3:5` },
          );
          expect(await lsp({ action: "definition", file: "b.c", line: 2, symbol: "from_table" })).toContain(
            `${name}:3:5`,
          );
          // The file including nothing is not sent again.
          const [client] = supervisor.runningClients();
          const changed = recordChanges(client!);
          writeFileSync(join(dir, name), "\n\n\nint from_table(void);\n");
          await settleDiskEvents();
          expect(await lsp({ action: "definition", file: "a.c", line: 2, symbol: "from_table" })).toContain(
            `${name}:4:5`,
          );
          expect(await lsp({ action: "definition", file: "e.c", line: 1, symbol: "e" })).toContain("e.c:1:5");
          expect(changed.sort()).toEqual(["a.c", "b.c"]);
        });
      });
    }

    it("an open file including, through -I, a symlink outside the root to a root file of another name sees its new text", async () => {
      // out/table.def (not under the root app/, found through -I../out) leads to app/data/real.src.
      const tree = {
        "app/compile_flags.txt": "-std=c11\n-I../out\n",
        "app/data/real.src": "int from_table(void);\n",
        "app/a.c": "#include <table.def>\nint a(void) { return from_table(); }\n",
        "out/keep": "",
      };
      await withProject(tree, async (lsp, dir) => {
        symlinkSync(join(dir, "app/data/real.src"), join(dir, "out/table.def"));
        await definitionMoves(
          lsp,
          dir,
          { file: "app/a.c", line: 2, symbol: "from_table" },
          {
            write: ["app/data/real.src", "\n\nint from_table(void);\n"],
            from: "table.def:1:5",
            to: "table.def:3:5",
          },
        );
      });
    });

    it("sends nothing again when a file no open document includes changes, whatever its extension", async () => {
      const tree = {
        "compile_flags.txt": "-std=c11\n",
        "table.def": "int from_table(void);\n",
        "unused.def": "int unused(void);\n",
        "notes.txt": "notes\n",
        "other.c": "int other(void) { return 1; }\n",
        "a.c": '#include "table.def"\nint a(void) { return from_table(); }\n',
      };
      await withProject(tree, async (lsp, dir, supervisor) => {
        expect(await lsp({ action: "diagnostics", file: "a.c" })).toBe("no diagnostics in a.c");
        const [client] = supervisor.runningClients();
        const changed = recordChanges(client!);
        // Nothing of the server's: not even counted as a change (open documents are not checked again).
        const mark = client!.changesMark();
        writeFileSync(join(dir, "unused.def"), "\nint unused(void);\n");
        writeFileSync(join(dir, "notes.txt"), "more notes\n");
        await settleDiskEvents();
        expect(await lsp({ action: "definition", file: "a.c", line: 2, symbol: "from_table" })).toContain(
          "table.def:1:5",
        );
        expect(client!.changesMark()).toBe(mark);
        writeFileSync(join(dir, "other.c"), "\nint other(void) { return 1; }\n");
        await settleDiskEvents();
        expect(await lsp({ action: "definition", file: "a.c", line: 2, symbol: "from_table" })).toContain(
          "table.def:1:5",
        );
        expect(changed).toEqual([]);
      });
    });
  },
);

describe.skipIf(!findBinary("clangd", [], []).found && !ci)(
  "clangd after files no #include names change",
  () => {
    for (const [what, tree] of [
      ["the compile flags force an include", { "compile_flags.txt": "-std=c11\n-include\nconfig.h\n" }],
      ["an open file includes through a macro", { "compile_flags.txt": '-std=c11\n-DCONFIG="config.h"\n' }],
    ] as const) {
      it(`sends nothing again when a build writes 1 000 object files (${what})`, async () => {
        const project = {
          ...tree,
          "config.h": "#pragma once\n#define ANSWER 42\n",
          "a.c": `#include ${what.includes("macro") ? "CONFIG" : '"config.h"'}\nint a(void) { return ANSWER; }\n`,
          "e.c": "int e(void) { return 5; }\n",
          "build/keep": "",
        };
        await withProject(project, async (lsp, dir, supervisor) => {
          expect(await lsp({ action: "diagnostics", file: "a.c" })).toBe("no diagnostics in a.c");
          expect(await lsp({ action: "diagnostics", file: "e.c" })).toBe("no diagnostics in e.c");
          const [client] = supervisor.runningClients();
          const changed = recordChanges(client!);
          for (let i = 0; i < 1_000; i++) writeFileSync(join(dir, "build", `f${i}.o`), "\0object");
          writeFileSync(join(dir, "notes.txt"), "notes\n");
          await settleDiskEvents();
          expect(await lsp({ action: "definition", file: "e.c", line: 1, symbol: "e" })).toContain("e.c:1:5");
          expect(await lsp({ action: "definition", file: "a.c", line: 2, symbol: "a" })).toContain("a.c:2:5");
          expect(changed).toEqual([]);
        });
      });
    }

    it("sends again only the file including a table changed with 1 000 object files at once", async () => {
      const project = {
        "compile_flags.txt": "-std=c11\n",
        "table.def": "int from_table(void);\n",
        "a.c": '#include "table.def"\nint a(void) { return from_table(); }\n',
        "e.c": "int e(void) { return 5; }\n",
        "build/keep": "",
      };
      await withProject(project, async (lsp, dir, supervisor) => {
        expect(await lsp({ action: "diagnostics", file: "e.c" })).toBe("no diagnostics in e.c");
        expect(await lsp({ action: "definition", file: "a.c", line: 2, symbol: "from_table" })).toContain(
          "table.def:1:5",
        );
        const [client] = supervisor.runningClients();
        const changed = recordChanges(client!);
        writeFileSync(join(dir, "table.def"), "\nint from_table(void);\n");
        for (let i = 0; i < 1_000; i++) writeFileSync(join(dir, "build", `f${i}.o`), "\0object");
        await settleDiskEvents();
        expect(await lsp({ action: "definition", file: "a.c", line: 2, symbol: "from_table" })).toContain(
          "table.def:2:5",
        );
        expect(await lsp({ action: "definition", file: "e.c", line: 1, symbol: "e" })).toContain("e.c:1:5");
        expect(changed).toEqual(["a.c"]);
      });
    });
  },
);

describe.skipIf(!findBinary("clangd", [], []).found && !ci)(
  "clangd after included files change between flushes (what the walks keep is checked)",
  () => {
    it("an open file including a header edited to include another, then that one changed, sees its new text", async () => {
      const tree = {
        "compile_flags.txt": "-std=c11\n",
        "twice.h": "#pragma once\nint twice(int v);\n",
        "mid.h": "#pragma once\nint mid(void);\n",
        "other.h": "int other(void);\n",
        "b.c": '#include "mid.h"\nint b(void) { return mid(); }\nint b2(void) { return twice(2); }\n',
        "e.c": "int e(void) { return 5; }\n",
      };
      await withProject(tree, async (lsp, dir) => {
        settleTree(dir);
        expect(await lsp({ action: "diagnostics", file: "e.c" })).toBe("no diagnostics in e.c");
        await lsp({ action: "diagnostics", file: "b.c" });
        // A header no one includes changed: the walk reads mid.h (including nothing yet).
        writeFileSync(join(dir, "other.h"), "\nint other(void);\n");
        await settleDiskEvents();
        expect(await lsp({ action: "definition", file: "e.c", line: 1, symbol: "e" })).toContain("e.c:1:5");
        writeFileSync(join(dir, "mid.h"), '#pragma once\n#include "twice.h"\nint mid(void);\n');
        await settleDiskEvents();
        expect(await lsp({ action: "definition", file: "b.c", line: 3, symbol: "twice" })).toContain(
          "twice.h:2:5",
        );
        // mid.h is read again (its identity changed), now including twice.h.
        await definitionMoves(
          lsp,
          dir,
          { file: "b.c", line: 3, symbol: "twice" },
          {
            write: ["twice.h", "#pragma once\n\n\nint twice(int v);\n"],
            from: "twice.h:2:5",
            to: "twice.h:4:5",
          },
        );
      });
    });

    it("an open file including a header added to an include folder outside the root sees the text it includes", async () => {
      const tree = {
        "app/compile_flags.txt": "-std=c11\n-I../out\n-I.\n",
        "app/table.def": "int from_table(void);\n",
        "app/a.c": "#include <wrap.h>\nint a(void) { return from_table(); }\n",
        "app/e.c": "int e(void) { return 5; }\n",
        "out/keep": "",
      };
      await withProject(tree, async (lsp, dir) => {
        settleTree(dir);
        expect(await lsp({ action: "diagnostics", file: "app/e.c" })).toBe("no diagnostics in app/e.c");
        expect(await lsp({ action: "diagnostics", file: "app/a.c" })).toContain("wrap.h");
        // The walk lists out/ (no wrap.h yet): a.c includes nothing of the root.
        writeFileSync(join(dir, "app/table.def"), "\nint from_table(void);\n");
        await settleDiskEvents();
        expect(await lsp({ action: "definition", file: "app/e.c", line: 1, symbol: "e" })).toContain(
          "e.c:1:5",
        );
        // Not watched (outside the root): seen through out/'s listing, taken again as out/ changed.
        writeFileSync(join(dir, "out/wrap.h"), '#pragma once\n#include "table.def"\n');
        writeFileSync(join(dir, "app/table.def"), "\n\nint from_table(void);\n");
        await settleDiskEvents();
        expect(await lsp({ action: "definition", file: "app/a.c", line: 2, symbol: "from_table" })).toContain(
          "table.def:3:5",
        );
      });
    });

    it("an open file including a header of an include folder removed and made a symlink to a root file sees that file's new text", async () => {
      const tree = {
        "app/compile_flags.txt": "-std=c11\n-I../out\n",
        "app/data/real.src": "int from_table(void);\n",
        "app/a.c": "#include <table.def>\nint a(void) { return from_table(); }\n",
        "app/e.c": "int e(void) { return 5; }\n",
        "out/table.def": "int from_table(void);\n",
      };
      await withProject(tree, async (lsp, dir) => {
        settleTree(dir);
        expect(await lsp({ action: "diagnostics", file: "app/e.c" })).toBe("no diagnostics in app/e.c");
        expect(await lsp({ action: "definition", file: "app/a.c", line: 2, symbol: "from_table" })).toContain(
          "table.def:1:5",
        );
        // The walk lists out/ (table.def a regular file there): real.src is included by no one.
        writeFileSync(join(dir, "app/data/real.src"), "\nint from_table(void);\n");
        await settleDiskEvents();
        expect(await lsp({ action: "definition", file: "app/e.c", line: 1, symbol: "e" })).toContain(
          "e.c:1:5",
        );
        unlinkSync(join(dir, "out/table.def"));
        symlinkSync(join(dir, "app/data/real.src"), join(dir, "out/table.def"));
        writeFileSync(join(dir, "app/data/real.src"), "\n\n\nint from_table(void);\n");
        await settleDiskEvents();
        expect(await lsp({ action: "definition", file: "app/a.c", line: 2, symbol: "from_table" })).toContain(
          "table.def:4:5",
        );
      });
    });
  },
);

describe.skipIf(!findBinary("clangd", [], []).found && !ci)(
  "clangd after a build writes a file named like a system header",
  () => {
    it("an open file including <stdio.h> of a sysroot in the root sees its new text", async () => {
      const tree = {
        "sysroot/usr/include/stdio.h": "int from_sysroot(void);\n",
        "a.c": "#include <stdio.h>\nint a(void) { return from_sysroot(); }\n",
      };
      await withProject(tree, async (lsp, dir) => {
        // clangd searches the sysroot's usr/include, not /usr/include (which holds a stdio.h too).
        writeFileSync(join(dir, "compile_flags.txt"), `-std=c11\n--sysroot=${dir}/sysroot\n`);
        await definitionMoves(
          lsp,
          dir,
          { file: "a.c", line: 2, symbol: "from_sysroot" },
          {
            write: ["sysroot/usr/include/stdio.h", "\n\nint from_sysroot(void);\n"],
            from: "sysroot/usr/include/stdio.h:1:5",
            to: "sysroot/usr/include/stdio.h:3:5",
          },
        );
      });
    });

    it("sends nothing again when an executable named vector, in the root and its build folder, is rewritten", async () => {
      const tree = {
        "compile_flags.txt": "-std=c++17\n",
        "a.cpp": "#include <vector>\nint a() { std::vector<int> v; return int(v.size()); }\n",
        "b.cpp": "#include <vector>\nint b() { std::vector<int> v{1}; return int(v.size()); }\n",
        "e.cpp": "int e() { return 5; }\n",
        vector: "\u007fELF build 1\n",
        "build/vector": "\u007fELF build 1\n",
      };
      await withProject(tree, async (lsp, dir, supervisor) => {
        for (const file of ["a.cpp", "b.cpp", "e.cpp"])
          expect(await lsp({ action: "diagnostics", file })).toBe(`no diagnostics in ${file}`);
        const [client] = supervisor.runningClients();
        const sent = recordChanges(client!, true);
        writeFileSync(join(dir, "vector"), "\u007fELF build 2\n");
        writeFileSync(join(dir, "build/vector"), "\u007fELF build 2\n");
        await settleDiskEvents();
        expect(await lsp({ action: "definition", file: "e.cpp", line: 1, symbol: "e" })).toContain(
          "e.cpp:1:5",
        );
        expect(await lsp({ action: "definition", file: "a.cpp", line: 2, symbol: "a" })).toContain(
          "a.cpp:2:5",
        );
        // Before: a.cpp and b.cpp, built again for a file the compiler does not open.
        expect(sent).toEqual([]);
      });
    });
  },
);
