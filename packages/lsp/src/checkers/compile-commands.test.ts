import { mkdtempSync, realpathSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readTextFile } from "../files/file-texts.js";
import { pastRacyMargin } from "../test-support/fixtures.js";
import { relativeDirectoriesOf, splitCommand, syntaxOnlyCommand } from "./compile-commands.js";

describe("compile commands", () => {
  it("splits a shell-quoted command line", () => {
    expect(splitCommand(`/usr/bin/cc -DNAME="a b" -I'inc dir' -DX=\\"q\\" -c  src/main.c`)).toEqual([
      "/usr/bin/cc",
      "-DNAME=a b",
      "-Iinc dir",
      '-DX="q"',
      "-c",
      "src/main.c",
    ]);
    expect(splitCommand(`cc "" -c x.c`)).toEqual(["cc", "", "-c", "x.c"]);
  });

  it("turns a build command into a syntax check that writes nothing", () => {
    const entry = (args: string[]) => ({ directory: "/p", file: "/p/main.c", arguments: args });
    expect(
      syntaxOnlyCommand(
        entry([
          "ccache",
          "/usr/bin/gcc-12",
          "-Wall",
          "-MD",
          "-MT",
          "main.o",
          "-MFmain.d",
          "-o",
          "main.o",
          "-c",
          "main.c",
        ]),
      ),
    ).toEqual({
      compiler: "/usr/bin/gcc-12",
      args: ["-Wall", "-c", "main.c", "-fsyntax-only", "-fdiagnostics-color=never"],
    });
    expect(syntaxOnlyCommand(entry(["x86_64-linux-gnu-g++", "-c", "main.c"]))?.compiler).toBe(
      "x86_64-linux-gnu-g++",
    );
    expect(syntaxOnlyCommand(entry(["clang++-17", "-c", "main.c"]))?.compiler).toBe("clang++-17");
    // Not gcc or clang: their flags would not be understood.
    expect(syntaxOnlyCommand(entry(["cl.exe", "/c", "main.c"]))).toBeUndefined();
    expect(syntaxOnlyCommand(entry(["nvcc", "-c", "main.c"]))).toBeUndefined();
  });
});

describe("relativeDirectoriesOf", () => {
  it("reads an unchanged database once, and again when it changes on disk", () => {
    const dir = realpathSync(mkdtempSync(join(tmpdir(), "lsp-relative-dirs-")));
    try {
      const path = join(dir, "compile_commands.json");
      const reads: string[] = [];
      const read = (file: string, maxBytes: number): string => {
        reads.push(file);
        return readTextFile(file, maxBytes);
      };
      /** Writes entries with these directories, dated a minute ago (its facts can be kept). */
      const write = (...directories: string[]): void => {
        writeFileSync(
          path,
          JSON.stringify(directories.map((directory) => ({ directory, file: "a.c", command: "cc -c a.c" }))),
        );
        const past = new Date(Date.now() - 60_000);
        utimesSync(path, past, past);
        pastRacyMargin();
      };
      write("out", dir);
      for (let i = 0; i < 3; i++) expect(relativeDirectoriesOf(dir, read)).toEqual({ path, count: 1 });
      expect(reads).toEqual([path]);
      write("out", "rel");
      expect(relativeDirectoriesOf(dir, read)).toEqual({ path, count: 2 });
      expect(relativeDirectoriesOf(dir, read)).toEqual({ path, count: 2 });
      expect(reads).toEqual([path, path]);
      writeFileSync(path, "{ not a database");
      expect(relativeDirectoriesOf(dir, read)).toEqual({ path, count: 0 });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
