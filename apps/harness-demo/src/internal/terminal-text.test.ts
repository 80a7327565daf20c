import { describe, expect, it } from "vitest";
import { terminalText, withoutBinary } from "./terminal-text.js";

const note = (characters: number) =>
  `(binary data, ${characters} characters: not shown; to look at it, pipe it through \`od -c | head\` or \`xxd | head\`)`;

describe("terminalText", () => {
  it("removes colours, cursor moves, erase-line and hyperlinks, keeping the text and its tabs", () => {
    expect(terminalText("\x1b[1;31merror\x1b[0m:\tbad\n\x1b[2K\x1b[1Gdone")).toBe("error:\tbad\ndone");
    expect(terminalText("see \x1b]8;;https://x.dev\x07the docs\x1b]8;;\x07 now")).toBe("see the docs now");
    expect(terminalText("\x1b]0;title\x1b\\text\x1b(B\x1b=")).toBe("text");
  });

  it("draws a line redrawn after carriage returns as a terminal leaves it, and reads CRLF as LF", () => {
    expect(terminalText("fetch  10%\rfetch  55%\rfetch 100%\r\nnext\r\n")).toBe("fetch 100%\nnext\n");
    // Drawn over, not replaced: the longer drawing's end stays, unless the line is erased.
    expect(terminalText("abcdef\rXY\n")).toBe("XYcdef\n");
    expect(terminalText("Downloading 100 files\r\x1b[KDone\n")).toBe("Done\n");
    expect(terminalText("\x1b[2K\rok")).toBe("ok");
    expect(terminalText("a\r\r\nb")).toBe("a\nb");
  });

  it("moves back one cell per backspace (a spinner, man's overstrike bold), never past a line's start", () => {
    expect(terminalText("working |\b/\b-\b\\\b ok\x07\n\n")).toBe("working  ok\n\n");
    expect(terminalText("N\bNA\bAM\bME\bE\n")).toBe("NAME\n");
    expect(terminalText("ab\b\bc\n\bx")).toBe("cb\nx");
    expect(terminalText("abc\b\n")).toBe("abc\n");
    expect(terminalText("😀\bx 😀")).toBe("x 😀");
  });
});

describe("withoutBinary", () => {
  it("leaves text alone, Latin-1 bytes shown as U+FFFD included", () => {
    const names = "Jos\uFFFD\nRen\uFFFDe\nFran\uFFFDois\nG\uFFFDnter\n";
    expect(withoutBinary(names)).toBe(names);
    expect(withoutBinary("\x1b[31mred\x1b[0m\r\n|\b/\b-\b\\\b\x07")).toBe(
      "\x1b[31mred\x1b[0m\r\n|\b/\b-\b\\\b\x07",
    );
  });

  it("puts a note for each run of binary lines and keeps the text around them", () => {
    const record = "\x00\x01\x02\x03\x04\x05";
    expect(withoutBinary(`start\n${record}\n${record}\nFAILED: 3 tests\n`)).toBe(
      `start\n${note(14)}\nFAILED: 3 tests\n`,
    );
    // At the end, without a line end of its own.
    expect(withoutBinary(`== image.png ==\n\uFFFDPNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01`)).toBe(
      `== image.png ==\n\uFFFDPNG\r\n\x1a\n${note(11)}`,
    );
  });

  it("takes output that is mostly binary as one run from its first binary line to its last", () => {
    const chunk = "\x7fELF\x02\x01\x01\x00\x00\x00\x00\x00".repeat(3);
    const output = `header\n${chunk}\nGLIBC_2.2.5\n${chunk}\ntrailer`;
    expect(withoutBinary(output)).toBe(`header\n${note((chunk.length + 1) * 2 + 12)}\ntrailer`);
  });
});
