import { describe, expect, it } from "vitest";
import { findLanguage, languageForPath, languageIds } from "./languages.js";

describe("findLanguage", () => {
  it("takes every shipped id", () => {
    for (const id of languageIds()) expect(findLanguage(id)?.id).toBe(id);
  });

  it("takes the names users type for a language: aliases and file extensions, with or without the dot", () => {
    for (const [typed, id] of [
      ["jsx", "javascript"],
      [".jsx", "javascript"],
      ["js", "javascript"],
      ["mjs", "javascript"],
      ["ts", "typescript"],
      ["TS", "typescript"],
      ["tsx", "tsx"],
      ["py", "python"],
      ["python3", "python"],
      ["golang", "go"],
      ["rs", "rust"],
      ["c++", "cpp"],
      ["cpp", "cpp"],
      ["hpp", "cpp"],
      ["c#", "csharp"],
      ["cs", "csharp"],
      ["sh", "bash"],
      ["rb", "ruby"],
      ["sol", "solidity"],
    ] as const) {
      expect({ typed, id: findLanguage(typed)?.id }).toEqual({ typed, id });
    }
  });

  it("names the same language for an extension as a file of it", () => {
    for (const typed of ["jsx", "tsx", "py", "rs", "go", "cc", "h"])
      expect(findLanguage(typed)?.id).toBe(languageForPath(`a.${typed}`)?.id);
  });

  it("takes shell files of every extension ast-grep reads as bash", () => {
    for (const name of ["a.sh", "a.bash", "a.zsh", "a.ksh", "a.bats", "a.command", "a.env", "a.tmux"])
      expect(languageForPath(`scripts/${name}`)?.id).toBe("bash");
  });

  it("knows no language by a name that is none", () => {
    expect(findLanguage("cobol")).toBeUndefined();
    expect(findLanguage("")).toBeUndefined();
    expect(findLanguage(".")).toBeUndefined();
  });
});
