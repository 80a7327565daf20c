import { describe, expect, it } from "vitest";
import { plainOutput } from "./plain-output.js";

describe("plainOutput", () => {
  it("keeps every line of Windows-style output, also lines ending in \\r\\r\\n", () => {
    expect(plainOutput("line one\r\nline two\r\n")).toBe("line one\nline two\n");
    // What a text-mode writer on Windows makes of "\r\n": the content stays.
    expect(plainOutput("line one\r\r\nline two\r\r\n")).toBe("line one\nline two\n");
  });

  it("keeps what a progress bar showed last", () => {
    expect(plainOutput("dl 10%\rdl 50%\rdl 100%\r\ndone\n")).toBe("dl 100%\ndone\n");
    expect(plainOutput("spin\r\u001b[Kresult\n")).toBe("result\n");
  });

  it("removes a hyperlink's escapes and keeps its text", () => {
    expect(plainOutput("see \u001b]8;;https://x.example\u001b\\the docs\u001b]8;;\u001b\\ now")).toBe(
      "see the docs now",
    );
    expect(plainOutput("\u001b]0;title\u0007answer")).toBe("answer");
  });

  it("an escape left unterminated never takes the lines after it", () => {
    expect(plainOutput("a\u001b]0;title\nimportant line\nmore")).toBe("a\nimportant line\nmore");
  });

  it("leaves no escape character: charset and cursor escapes, a lone ESC", () => {
    // tput sgr0 on xterm writes ESC ( B before ESC [ m; ESC 7 / ESC 8 save and restore the cursor.
    expect(plainOutput("\u001b(Bplain\u001b[m text")).toBe("plain text");
    expect(plainOutput("\u001b7hello\u001b8")).toBe("hello");
    expect(plainOutput("a\u001b\nb\u001b")).toBe("a\nb");
  });
});
