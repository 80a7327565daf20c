import { describe, expect, it } from "vitest";
import { shellWords } from "./shell-quote.js";

describe("shellWords", () => {
  it("quotes an argument only when a shell would split or expand it", () => {
    expect(shellWords(["app.py", "a b", "--x=1", ""])).toBe("app.py 'a b' --x=1 ''");
    expect(shellWords(["it's", "$HOME", "*.py", "a\nb"])).toBe("'it'\\''s' '$HOME' '*.py' 'a\nb'");
    expect(shellWords(["-v", "path/to/file_1.txt", "k=v,w:z@h%+"])).toBe("-v path/to/file_1.txt k=v,w:z@h%+");
  });
});
