import { describe, expect, it } from "vitest";
import { binaryStart, looksBinary, terminalText } from "./terminal-text.js";

describe("terminalText", () => {
  it("removes colours, cursor moves, erase-line and hyperlinks, keeping the text", () => {
    expect(terminalText("\x1b[1;31merror\x1b[0m: bad\n\x1b[2K\x1b[1Gdone")).toBe("error: bad\ndone");
    expect(terminalText("see \x1b]8;;https://x.dev\x07the docs\x1b]8;;\x07 now")).toBe("see the docs now");
    expect(terminalText("\x1b]0;title\x1b\\text\x1b(B\x1b=")).toBe("text");
  });

  it("keeps a line redrawn after carriage returns as its last drawing, and reads CRLF as LF", () => {
    expect(terminalText("fetch  10%\rfetch  55%\rfetch 100%\r\nnext\r\n")).toBe("fetch 100%\nnext\n");
    // An erase-line after the return: the last drawing, not the longer one under it.
    expect(terminalText("Downloading 100 files\r\x1b[KDone\n")).toBe("Done\n");
    expect(terminalText("a\r\r\nb")).toBe("a\nb");
  });

  it("draws over a character a backspace went back over, drops what shows as nothing, never a line end", () => {
    expect(terminalText("working |\b/\b-\b\\\b ok\x07\n\n")).toBe("working  ok\n\n");
    expect(terminalText("N\bNA\bAM\bME\bE\n")).toBe("NAME\n");
    expect(terminalText("ab\b\bc\n\bx")).toBe("c\nx");
    expect(terminalText("tab\tstays\n")).toBe("tab\tstays\n");
  });
});

describe("looksBinary", () => {
  it("is true for a NUL or mostly bytes of no character, false for text with a cut character", () => {
    expect(looksBinary("ELF\x02\x01\x01\x00\x00")).toBe(true);
    expect(looksBinary("\uFFFD\x1f\uFFFD\x08\uFFFD\uFFFD\x03\uFFFD\uFFFD\uFFFDabc")).toBe(true);
    expect(looksBinary("\uFFFD")).toBe(false);
    expect(looksBinary(`caf\uFFFD ${"plain text ".repeat(20)}`)).toBe(false);
    expect(looksBinary("\x1b[31mred\x1b[0m\r\n")).toBe(false);
  });
});

describe("binaryStart", () => {
  it("is the start of the first line that is not text, after the text lines printed before it", () => {
    const header = "== image.png ==\nsize 4 KiB\n";
    // A PNG as decoded: its signature's first lines pass for text, its first NUL does not.
    const signature = "\uFFFDPNG\r\n\x1a\n";
    expect(binaryStart(`${header}${signature}\x00\x00\x00\rIHDR`)).toBe(header.length + signature.length);
    expect(binaryStart("\x7fELF\x02\x01\x01\x00")).toBe(0);
    expect(binaryStart("caf\uFFFD au lait\n\uFFFD\uFFFD\uFFFD\uFFFD\x01")).toBe("caf\uFFFD au lait\n".length);
  });
});
