import { describe, expect, it } from "vitest";
import { splitCommand, syntaxOnlyCommand } from "./compile-commands.js";

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
