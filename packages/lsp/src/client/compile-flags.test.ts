import { mkdirSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readTextFile } from "../files/file-texts.js";
import { compileDatabaseBytes } from "../checkers/compile-commands.js";
import { pastRacyMargin, tempTree } from "../test-support/fixtures.js";
import { compileFlagFacts } from "./compile-flags.js";

/** `compileFlagFacts` of `files` laid out in a temporary folder, with `root` under it. */
function factsOf(files: Record<string, string>, root = "app") {
  const { dir, remove } = tempTree("compile-flags", files);
  try {
    const watched = Object.keys(files)
      .filter((file) => file.startsWith(`${root}/`))
      .map((file) => join(dir, file));
    const facts = compileFlagFacts(join(dir, root), watched);
    return { ...facts, includeDirs: facts.includeDirs.map((folder) => folder.replace(dir, "<dir>")) };
  } finally {
    remove();
  }
}

describe("compileFlagFacts", () => {
  it("lists the include folders of compile_flags.txt, a compilation database and a .clangd", () => {
    expect(factsOf({ "app/compile_flags.txt": "-std=c11\n-I../lib\n-isystem\n/opt/x\n" })).toEqual({
      forcesIncludes: false,
      includeDirs: ["<dir>/lib", "/opt/x"],
      movesSystemFolders: false,
    });
    const database = [{ directory: "/w/build", file: "a.c", command: 'cc -I../inc -iquote "q d" -c a.c' }];
    expect(factsOf({ "app/compile_commands.json": JSON.stringify(database) }).includeDirs).toEqual([
      "/w/inc",
      "/w/build/q d",
    ]);
    expect(factsOf({ "app/.clangd": "CompileFlags:\n  Add: [-I/opt/y]\n" }).includeDirs).toEqual(["/opt/y"]);
  });

  it("tells a flag moving the compiler's own include folders (a sysroot, a toolchain, frameworks)", () => {
    for (const flags of [
      "--sysroot=sysroot\n",
      "--sysroot\nsysroot\n",
      "-isysroot\n/sdk\n",
      "--gcc-toolchain=/opt/gcc\n",
      "-iwithsysroot\n/inc\n",
      "-isystem-after\n/inc\n",
      "-F/Library/Frameworks\n",
      "-iframework\n/f\n",
    ])
      expect(factsOf({ "app/compile_flags.txt": `-std=c11\n${flags}` }).movesSystemFolders, flags).toBe(true);
    const database = [
      { directory: "/w", file: "a.c", arguments: ["cc", "--sysroot=/w/sysroot", "-c", "a.c"] },
    ];
    expect(factsOf({ "app/compile_commands.json": JSON.stringify(database) }).movesSystemFolders).toBe(true);
    expect(factsOf({ "app/.clangd": "CompileFlags:\n  Add: [--sysroot=/s]\n" }).movesSystemFolders).toBe(
      true,
    );
    expect(factsOf({ "app/compile_flags.txt": "-std=c11\n-Iinc\n-isystem\n/opt/x\n-fno-rtti\n" })).toEqual({
      forcesIncludes: false,
      includeDirs: ["<dir>/app/inc", "/opt/x"],
      movesSystemFolders: false,
    });
  });

  it("counts -include, --imacros and a response file as forcing an include", () => {
    expect(factsOf({ "app/compile_flags.txt": "-include\nforced.h\n" }).forcesIncludes).toBe(true);
    expect(factsOf({ "app/compile_flags.txt": "--imacros\nmacros.h\n" }).forcesIncludes).toBe(true);
    const database = [{ directory: "/w", file: "a.c", arguments: ["cc", "@flags.rsp", "a.c"] }];
    expect(factsOf({ "app/compile_commands.json": JSON.stringify(database) }).forcesIncludes).toBe(true);
  });

  it("reads the compilation database of an ancestor, and the one a .clangd names", () => {
    // The root is found by its .clangd; clangd takes the parent's database.
    expect(
      factsOf({ "app/.clangd": "Diagnostics:\n  Suppress: x\n", "compile_flags.txt": "-include\nforced.h\n" })
        .forcesIncludes,
    ).toBe(true);
    expect(
      factsOf({
        "app/.clangd": "CompileFlags:\n  CompilationDatabase: out\n",
        "app/out/compile_commands.json": JSON.stringify([
          { directory: "/w", file: "a.c", command: "cc -include forced.h -c a.c" },
        ]),
      }).forcesIncludes,
    ).toBe(true);
  });

  it("reads an unchanged compilation database once, and again each time it changes on disk", () => {
    const { dir, remove } = tempTree("compile-flags-cache", {});
    try {
      const database = join(dir, "compile_commands.json");
      const flags = join(dir, "sub", "compile_flags.txt");
      const reads: string[] = [];
      const read = (path: string): string => {
        reads.push(path.slice(dir.length + 1));
        return readTextFile(path);
      };
      /** Writes `text` to `path` dated a minute ago (older than the racy margin: its facts can be kept). */
      const write = (path: string, text: string, agoMs = 60_000): void => {
        writeFileSync(path, text);
        const at = new Date(Date.now() - agoMs);
        utimesSync(path, at, at);
        if (agoMs > 0) pastRacyMargin();
      };
      const entry = (include: string) =>
        JSON.stringify([{ directory: dir, file: "a.c", arguments: ["cc", `-I${include}`, "-c", "a.c"] }]);
      write(database, entry("one"));
      expect(compileFlagFacts(dir, [], read).includeDirs).toEqual([join(dir, "one")]);
      expect(compileFlagFacts(dir, [], read).includeDirs).toEqual([join(dir, "one")]);
      expect(compileFlagFacts(dir, [], read).includeDirs).toEqual([join(dir, "one")]);
      expect(reads).toEqual(["compile_commands.json"]);
      // Changed (another size): read again, its new folder reported.
      write(database, entry("three"));
      expect(compileFlagFacts(dir, [], read).includeDirs).toEqual([join(dir, "three")]);
      expect(compileFlagFacts(dir, [], read).includeDirs).toEqual([join(dir, "three")]);
      expect(reads).toEqual(["compile_commands.json", "compile_commands.json"]);
      // Changed to a text of the same size: read again too.
      write(database, entry("four"));
      write(database, entry("five"), 30_000);
      expect(compileFlagFacts(dir, [], read).includeDirs).toEqual([join(dir, "five")]);
      expect(reads).toHaveLength(3);
      // Written just now: read again at each call until older than a timestamp tick.
      write(database, entry("six"), 0);
      expect(compileFlagFacts(dir, [], read).includeDirs).toEqual([join(dir, "six")]);
      expect(compileFlagFacts(dir, [], read).includeDirs).toEqual([join(dir, "six")]);
      expect(reads).toHaveLength(5);
      // Replaced by a file now forcing an include: reported.
      write(database, JSON.stringify([{ directory: dir, file: "a.c", command: "cc -include f.h -c a.c" }]));
      expect(compileFlagFacts(dir, [], read).forcesIncludes).toBe(true);
      expect(compileFlagFacts(dir, [], read).forcesIncludes).toBe(true);
      expect(reads).toHaveLength(6);
      // compile_flags.txt is kept the same way.
      reads.length = 0;
      const sub = join(dir, "sub");
      mkdirSync(sub);
      write(flags, "-Iinc\n");
      expect(compileFlagFacts(sub, [], read).includeDirs).toEqual([join(sub, "inc")]);
      expect(compileFlagFacts(sub, [], read).includeDirs).toEqual([join(sub, "inc")]);
      expect(reads).toEqual(["sub/compile_flags.txt"]);
      write(flags, "-Iother\n");
      expect(compileFlagFacts(sub, [], read).includeDirs).toEqual([join(sub, "other")]);
      expect(reads).toEqual(["sub/compile_flags.txt", "sub/compile_flags.txt"]);
    } finally {
      remove();
    }
  });

  it("does not parse a compilation database over the bound the project check reads (too large to tell)", () => {
    const { dir, remove } = tempTree("compile-flags-large", {});
    try {
      const entry = JSON.stringify({ directory: dir, file: "a.c", arguments: ["cc", "-Ione", "-c", "a.c"] });
      const padding = " ".repeat(compileDatabaseBytes);
      writeFileSync(join(dir, "compile_commands.json"), `[${entry}${padding}]`);
      expect(compileFlagFacts(dir, []).forcesIncludes).toBe(true);
    } finally {
      remove();
    }
  });
});
