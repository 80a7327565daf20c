import { describe, expect, it } from "vitest";
import { otherLanguage, sourceLanguage } from "./source-language.js";

describe("sourceLanguage", () => {
  it("names a source file's language and the adapters that can take it, the usual one first", () => {
    expect(sourceLanguage("/p/go/main.go")).toEqual({ name: "Go", adapters: ["delve", "lldb"] });
    expect(sourceLanguage("/p/app.py")).toEqual({ name: "Python", adapters: ["debugpy"] });
    expect(sourceLanguage("/p/src/lib.rs")).toEqual({ name: "Rust", adapters: ["lldb", "delve"] });
    expect(sourceLanguage("/p/prog.c")?.adapters).toEqual(["lldb", "delve"]);
    expect(sourceLanguage("/p/start.S")?.name).toBe("assembly");
    expect(sourceLanguage("/p/template.jinja")).toBeUndefined();
    expect(sourceLanguage("/p/Makefile")).toBeUndefined();
  });
});

describe("otherLanguage", () => {
  it("sends cgo's C, C++, Objective-C and assembly files to delve", () => {
    for (const file of [
      "prog.c",
      "x.h",
      "x.cc",
      "x.cpp",
      "x.cxx",
      "x.hh",
      "x.hpp",
      "x.m",
      "x.mm",
      "x.S",
      "x.s",
    ])
      expect(otherLanguage(`/p/${file}`, "delve"), file).toBeUndefined();
  });

  it("sends a Go file to lldb, which stops in a Go binary built with DWARF", () => {
    expect(otherLanguage("/p/go/main.go", "lldb")).toBeUndefined();
    expect(otherLanguage("/p/src/lib.rs", "delve")).toBeUndefined();
  });

  it("holds back only a file the adapter certainly cannot use, saying which adapter takes it", () => {
    expect(otherLanguage("/p/app.py", "lldb")).toEqual({
      why: "a Python file, not for this lldb session",
      target: "debugpy",
    });
    expect(otherLanguage("/p/app.py", "delve")?.target).toBe("debugpy");
    expect(otherLanguage("/p/go/main.go", "debugpy")).toEqual({
      why: "a Go file, not for this debugpy session",
      target: "delve",
    });
    expect(otherLanguage("/p/x.mm", "debugpy")?.why).toBe(
      "an Objective-C++ file, not for this debugpy session",
    );
    expect(otherLanguage("/p/boot.s", "dart")).toEqual({
      why: "an assembly file, not for this dart session",
      target: "lldb",
    });
    expect(otherLanguage("/p/lib/main.dart", "lldb")?.target).toBe("dart");
    expect(otherLanguage("/p/app.py", "debugpy")).toBeUndefined();
    // Unknown extensions go to every adapter: a `.pyx`, a template, a generated source.
    expect(otherLanguage("/p/x.pyx", "lldb")).toBeUndefined();
    expect(otherLanguage("/p/page.jinja", "delve")).toBeUndefined();
  });
});
