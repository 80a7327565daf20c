import { describe, expect, it } from "vitest";
import { otherLanguage, sourceLanguage } from "./source-language.js";

describe("sourceLanguage", () => {
  it("names a source file's language and the adapters that take it", () => {
    expect(sourceLanguage("/p/go/main.go")).toEqual({ name: "Go", adapters: ["delve"] });
    expect(sourceLanguage("/p/app.py")).toEqual({ name: "Python", adapters: ["debugpy"] });
    expect(sourceLanguage("/p/src/lib.rs")).toEqual({ name: "Rust", adapters: ["lldb"] });
    // cgo: delve stops in a package's C files too.
    expect(sourceLanguage("/p/prog.c")?.adapters).toEqual(["lldb", "delve"]);
    expect(sourceLanguage("/p/template.jinja")).toBeUndefined();
    expect(sourceLanguage("/p/Makefile")).toBeUndefined();
    expect(otherLanguage("/p/go/main.go", "lldb")).toEqual({
      why: "a Go file, not for this lldb session",
      target: "delve",
    });
    expect(otherLanguage("/p/x.mm", "debugpy")?.why).toBe(
      "an Objective-C++ file, not for this debugpy session",
    );
    expect(otherLanguage("/p/prog.c", "delve")).toBeUndefined();
    expect(otherLanguage("/p/x.pyx", "lldb")).toBeUndefined();
  });
});
