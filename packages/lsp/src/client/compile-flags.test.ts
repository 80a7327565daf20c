import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { tempTree } from "../test-support/fixtures.js";
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
    });
    const database = [{ directory: "/w/build", file: "a.c", command: 'cc -I../inc -iquote "q d" -c a.c' }];
    expect(factsOf({ "app/compile_commands.json": JSON.stringify(database) }).includeDirs).toEqual([
      "/w/inc",
      "/w/build/q d",
    ]);
    expect(factsOf({ "app/.clangd": "CompileFlags:\n  Add: [-I/opt/y]\n" }).includeDirs).toEqual(["/opt/y"]);
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
});
