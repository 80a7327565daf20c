import { resultText } from "@tools/registry";
import { describe, expect, it } from "vitest";
import { imageSize } from "./image-limit.js";
import { errorMessageChars, OutputCollector } from "./output-collector.js";
import { bundleText, plainText } from "./output-text.js";

const text = (collector: OutputCollector) =>
  resultText({ content: collector.parts(), isError: false, changedFiles: [] });

describe("OutputCollector", () => {
  it("strips colour codes and applies carriage-return overwrites", () => {
    expect(plainText("\u001b[0;31mValueError\u001b[0m: bad\nprogress 10%\rprogress 100%")).toBe(
      "ValueError: bad\nprogress 100%",
    );
  });

  it("keeps one image per identical figure and caps the image count", () => {
    const collector = new OutputCollector({
      maxChars: 1000,
      maxLines: 50,
      maxImages: 1,
      maxImageBytes: 1000,
    });
    const png = Buffer.from("\x89PNG fake").toString("base64");
    collector.add({ type: "display", kind: "result", data: { "image/png": png, "text/plain": "<Figure>" } });
    collector.add({ type: "display", kind: "display", data: { "image/png": png, "text/plain": "<Figure>" } });
    collector.add({
      type: "display",
      kind: "display",
      data: { "image/png": Buffer.from("other").toString("base64") },
    });
    const parts = collector.parts();
    expect(parts.filter((part) => part.type === "image")).toHaveLength(1);
    expect(
      parts.some((part) => part.type === "text" && /over the limit of 1 image per cell/.test(part.text)),
    ).toBe(true);
  });

  it("keeps a digest, not the image, of every figure it has seen: a cell drawing thousands holds none", () => {
    const collector = new OutputCollector({
      maxChars: 1000,
      maxLines: 50,
      maxImages: 2,
      maxImageBytes: 1 << 20,
    });
    for (let index = 0; index < 200; index++) {
      const png = Buffer.concat([Buffer.from(`\x89PNG ${index} `), Buffer.alloc(64 * 1024, index)]).toString(
        "base64",
      );
      collector.add({ type: "display", kind: "display", data: { "image/png": png } });
    }
    // White box: what the duplicate check keeps per figure (the 200 × 87 KB it saw are gone).
    const seen = (collector as unknown as { imageLimit: { seen: Set<string> } }).imageLimit.seen;
    expect(seen.size).toBe(200);
    expect(Math.max(...[...seen].map((key) => key.length))).toBeLessThanOrEqual(64);
    expect(collector.parts().filter((part) => part.type === "image")).toHaveLength(2);
    expect(text(collector)).toContain(
      "198 images were left out (over the limit of 2 images per cell); show fewer images per cell (close the ones not needed, or show the rest in later cells).",
    );
  });

  it("says an image too large is over the size limit, and one past the count is over the count", () => {
    const collector = new OutputCollector({
      maxChars: 1000,
      maxLines: 50,
      maxImages: 1,
      maxImageBytes: 5 * 1024 * 1024,
    });
    const png = (bytes: number, fill: number) => Buffer.alloc(bytes, fill).toString("base64");
    collector.add({ type: "display", kind: "display", data: { "image/png": png(17_258_313, 1) } });
    expect(text(collector)).toBe(
      "[image/png, 17,258,313 bytes, not shown: over the size limit of 5 MB per image (23,011,084 bytes as base64, as the model gets it)]\n\n" +
        "… 1 image was left out (over the size limits of 5 MB per image as base64 and 8000 pixels a side); draw smaller images (a smaller figure size or dpi), or save them to files.",
    );
    collector.add({ type: "display", kind: "display", data: { "image/png": png(10, 2) } });
    collector.add({ type: "display", kind: "display", data: { "image/png": png(10, 3) } });
    expect(text(collector)).toContain("[image/png, 10 bytes, not shown: over the limit of 1 image per cell]");
    expect(text(collector)).toMatch(
      /… 2 images were left out \(1 over the size limits of 5 MB per image as base64 and 8000 pixels a side, 1 over the limit of 1 image per cell\); draw smaller images \(a smaller figure size or dpi\), or save them to files; show fewer images per cell \(close the ones not needed, or show the rest in later cells\)\.$/,
    );
  });

  it("reads a PNG's and a JPEG's pixel size from its header, and leaves out one with a side over 8000", () => {
    const png = (width: number, height: number) => {
      const bytes = Buffer.alloc(33);
      Buffer.from("\x89PNG\r\n\x1a\n", "latin1").copy(bytes, 0);
      bytes.writeUInt32BE(13, 8);
      bytes.write("IHDR", 12, "latin1");
      bytes.writeUInt32BE(width, 16);
      bytes.writeUInt32BE(height, 20);
      return bytes;
    };
    // SOI, an APP0 segment of 16 bytes, then SOF2 (progressive): length, precision, height, width.
    const jpeg = Buffer.from([
      0xff,
      0xd8,
      0xff,
      0xe0,
      0x00,
      0x10,
      ...Buffer.alloc(14),
      0xff,
      0xc2,
      0x00,
      0x11,
      0x08,
      0x01,
      0x90,
      0x2e,
      0xe0,
    ]);
    expect(imageSize(png(9338, 197))).toEqual({ width: 9338, height: 197 });
    expect(imageSize(jpeg)).toEqual({ width: 12000, height: 400 });
    expect(imageSize(Buffer.from("GIF89a"))).toBeUndefined();
    const collector = new OutputCollector({
      maxChars: 1000,
      maxLines: 50,
      maxImages: 8,
      maxImageBytes: 1 << 20,
    });
    collector.add({
      type: "display",
      kind: "display",
      data: { "image/png": png(9338, 197).toString("base64") },
    });
    collector.add({ type: "display", kind: "display", data: { "image/jpeg": jpeg.toString("base64") } });
    collector.add({
      type: "display",
      kind: "display",
      data: { "image/png": png(8000, 8000).toString("base64") },
    });
    expect(collector.parts().filter((part) => part.type === "image")).toHaveLength(1);
    expect(text(collector)).toBe(
      "[image/png, 33 bytes, not shown: over the size limit of 8000 pixels a side (9338×197)]\n" +
        "[image/jpeg, 29 bytes, not shown: over the size limit of 8000 pixels a side (12000×400)]\n\n" +
        "… 2 images were left out (over the size limits of 1 MB per image as base64 and 8000 pixels a side); draw smaller images (a smaller figure size or dpi), or save them to files.",
    );
  });

  it("renders an HTML-only table as a pipe table", () => {
    const html =
      "<table><thead><tr><th></th><th>a</th></tr></thead><tbody><tr><th>0</th><td>1 &amp; 2</td></tr></tbody></table>";
    expect(bundleText({ "text/html": html })).toBe("|  | a |\n| --- | --- |\n| 0 | 1 & 2 |");
  });

  it("gives a long error value as the error message cut, saying how much was left out", () => {
    const collector = new OutputCollector();
    const evalue = `${"deep ".repeat(2000)}end`;
    collector.add({
      type: "error",
      ename: "ValueError",
      evalue,
      traceback: ["Traceback (most recent call last):", '  File "<cell>", line 2', `ValueError: ${evalue}`],
    });
    const message = collector.error!;
    expect(message.startsWith("ValueError: deep deep")).toBe(true);
    expect(message.length).toBeLessThan(errorMessageChars + 100);
    const left = `ValueError: ${evalue}`.length - errorMessageChars;
    expect(message.endsWith(`… (${left} more characters; the output's traceback has the error)`)).toBe(true);
    expect(text(collector)).toContain("Traceback (most recent call last):");
  });

  it("keeps the start and the end of long output, the error after it, and says once what was cut", () => {
    const collector = new OutputCollector();
    // ipykernel batches prints: two stream messages.
    const lines = Array.from({ length: 500 }, (_, i) => `${i}\n`);
    collector.add({ type: "stream", name: "stdout", text: lines.slice(0, 250).join("") });
    collector.add({ type: "stream", name: "stdout", text: lines.slice(250).join("") });
    collector.add({
      type: "error",
      ename: "ValueError",
      evalue: "boom",
      traceback: ["Traceback (most recent call last):", '  File "<cell>", line 2', "ValueError: boom"],
    });
    const out = text(collector);
    expect(out.split("\n").length).toBeLessThanOrEqual(400);
    expect(out).toMatch(/^0\n1\n2\n/);
    expect(out).toMatch(
      /\n499\nTraceback \(most recent call last\):\n {2}File "<cell>", line 2\nValueError: boom$/,
    );
    const markers = out.match(/… .* omitted here/g) ?? [];
    expect(markers).toHaveLength(1);
    // Every line is either shown or counted in the one marker.
    const shown = out.split("\n").filter((line) => /^\d+$/.test(line)).length;
    const counted = Number(/… (\d+) lines \(/.exec(out)?.[1]);
    expect(shown + counted).toBe(500);
    expect(out).not.toMatch(/more lines|more characters|not kept|cut to the limit/);
  });

  it("gives one total for a 10 MB print, arriving whole or in pieces, with bounded memory", () => {
    for (const chunks of [1, 1000]) {
      const collector = new OutputCollector();
      const piece = "x".repeat(10_000_000 / chunks);
      for (let i = 0; i < chunks; i++) collector.add({ type: "stream", name: "stdout", text: piece });
      collector.add({ type: "stream", name: "stdout", text: "\n" });
      const kept = (collector as unknown as { entries: { text?: string }[] }).entries;
      expect(kept.reduce((sum, entry) => sum + (entry.text?.length ?? 0), 0)).toBeLessThanOrEqual(50_001);
      const out = text(collector);
      expect(out.length).toBeLessThan(20_200);
      // One count, and it adds up: 10 000 001 characters printed.
      const counts = out.match(/\d[\d,]* characters/g) ?? [];
      expect(counts).toHaveLength(1);
      const shown = out.replace(/[^x]/g, "").length + 1;
      expect(counts[0]).toBe(`${(10_000_001 - shown).toLocaleString("en-US")} characters`);
      expect(out).toMatch(/^x+\n… [\d,]+ characters of output omitted here; print less/);
      expect(out).toMatch(/ …\nx+$/);
    }
  });

  it("counts what the kernel left out with what it cuts itself, in its one marker", () => {
    const collector = new OutputCollector();
    // The JavaScript kernel sends the head and the tail of 100 000 lines, and the count between.
    const line = (i: number) => `${i}\n`;
    const range = (from: number, to: number) =>
      Array.from({ length: to - from }, (_, i) => line(from + i)).join("");
    const head = range(0, 400);
    const tail = range(99_400, 100_000);
    const between = range(400, 99_400);
    collector.add({ type: "stream", name: "stdout", text: head });
    collector.add({ type: "omitted", chars: between.length, lines: 99_000 });
    collector.add({ type: "stream", name: "stdout", text: tail });
    const out = text(collector);
    expect(out).toMatch(/^0\n1\n2\n/);
    expect(out).toMatch(/\n99998\n99999$/);
    const markers =
      out.match(/… .* omitted here; print less, or write large output to a file and read parts of it …/g) ??
      [];
    expect(markers).toHaveLength(1);
    const shown = out.split("\n").filter((row) => /^\d+$/.test(row));
    const [, lines = "", chars = ""] = /… ([\d,]+) lines \(([\d,]+) characters\)/.exec(out) ?? [];
    expect(shown.length + Number(lines.replace(/,/g, ""))).toBe(100_000);
    const printed = head.length + between.length + tail.length;
    expect(shown.reduce((sum, row) => sum + row.length + 1, 0) + Number(chars.replace(/,/g, ""))).toBe(
      printed,
    );
  });

  it("keeps a bounded traceback in full view even when it is long", () => {
    const collector = new OutputCollector({
      maxChars: 2000,
      maxLines: 40,
      maxImages: 8,
      maxImageBytes: 1000,
    });
    const frames = Array.from({ length: 100 }, (_, i) => `  frame ${i}`);
    collector.add({
      type: "error",
      ename: "RecursionError",
      evalue: "too deep",
      traceback: [...frames, "RecursionError: too deep"],
    });
    const out = text(collector);
    expect(out.split("\n").length).toBeLessThanOrEqual(21);
    expect(out).toMatch(/^ {2}frame 0\n/);
    expect(out).toMatch(/… \d+ lines \(\d+ characters\) of the traceback omitted here …/);
    expect(out).toMatch(/RecursionError: too deep$/);
  });

  it("starts an echo on its own line after a print without a newline, and keeps notes through clear_output", () => {
    const collector = new OutputCollector();
    collector.note("(a clean python kernel was started)");
    collector.add({ type: "stream", name: "stdout", text: "partial" });
    collector.add({ type: "display", kind: "result", data: { "text/plain": "7" } });
    expect(text(collector)).toBe("(a clean python kernel was started)\npartial\n7");
    collector.add({ type: "clear" });
    collector.add({ type: "stream", name: "stdout", text: "after\n" });
    expect(text(collector)).toBe("(a clean python kernel was started)\nafter");
  });

  it("takes a display the kernel cut as it is, and runs the next display on in it", () => {
    const collector = new OutputCollector();
    collector.add({ type: "display", kind: "result", data: { "text/plain": "[ 1,\n  2" }, cut: true });
    collector.add({ type: "display", kind: "result", data: { "text/plain": "3 ]" } });
    expect(text(collector)).toBe("[ 1,\n  23 ]");
    // Anything else between them ends the cut display's line.
    collector.add({ type: "display", kind: "display", data: { "text/plain": "a" }, cut: true });
    collector.add({ type: "stream", name: "stdout", text: "b\n" });
    collector.add({ type: "display", kind: "display", data: { "text/plain": "c" } });
    expect(text(collector)).toBe("[ 1,\n  23 ]\na\nb\nc");
  });

  it("keeps a display line that runs past the head on one line, also where the kernel cut it", () => {
    const limits = { maxChars: 400, maxLines: 50, maxImages: 8, maxImageBytes: 1000 };
    const lines = `${"a".repeat(37)}\n`.repeat(10);
    const line = "0123456789ABCDEFGHIJ".repeat(2);
    // The display's line starts 20 characters before the head's end (400) and ends 20 after it.
    const collector = new OutputCollector(limits);
    collector.add({ type: "stream", name: "stdout", text: lines });
    collector.add({ type: "display", kind: "display", data: { "text/plain": line } });
    collector.add({ type: "stream", name: "stdout", text: "end\n" });
    expect(text(collector)).toMatch(
      / omitted here; [^\n]*\na{36}\na{37}\n0123456789ABCDEFGHIJ0123456789ABCDEFGHIJ\nend$/,
    );
    // The same line cut by the JavaScript kernel at its head: the rest runs on in it past the head.
    const cut = new OutputCollector(limits);
    cut.add({ type: "stream", name: "stdout", text: lines });
    cut.add({ type: "display", kind: "display", data: { "text/plain": line.slice(0, 20) }, cut: true });
    cut.add({ type: "display", kind: "display", data: { "text/plain": line.slice(20) } });
    cut.add({ type: "stream", name: "stdout", text: "end\n" });
    expect(text(cut)).toBe(text(collector));
  });
});

describe("OutputCollector: output that came after the previous cell finished", () => {
  it("comes first, labelled, and the cell's own error and output follow", () => {
    const collector = new OutputCollector();
    collector.add({
      type: "late",
      outputs: [
        { type: "stream", name: "stdout", text: "late timer\n" },
        { type: "stream", name: "stderr", text: "Uncaught exception: Error: async boom\n" },
      ],
      left: { outputs: 0, chars: 0 },
    });
    collector.add({ type: "stream", name: "stdout", text: "this cell\n" });
    expect(text(collector)).toBe(
      "after the previous cell finished:\nlate timer\nUncaught exception: Error: async boom\n(end of what came after the previous cell)\n\nthis cell",
    );
    expect(collector.error).toBeUndefined();
  });

  it("is bounded, and says how much of it was left out", () => {
    const collector = new OutputCollector({
      maxChars: 2000,
      maxLines: 100,
      maxImages: 8,
      maxImageBytes: 1000,
    });
    for (let i = 0; i < 10_000; i++) {
      collector.add({
        type: "late",
        outputs: [{ type: "stream", name: "stdout", text: `late line ${i}\n` }],
        left: { outputs: 0, chars: 0 },
      });
    }
    const shown = text(collector);
    expect(shown).toMatch(/^after the previous cell finished:\nlate line 0\n/);
    expect(shown).toMatch(/ more outputs \([\d,]+ characters\) of it left out/);
    expect(shown).toMatch(/\(end of what came after the previous cell\)$/);
    expect(shown.length).toBeLessThan(1000);
  });
});

describe("OutputCollector: carriage returns", () => {
  it("bounds progress output as it reads: 20 000 \\r updates, in two messages or 20 000, are the last", () => {
    const updates = Array.from({ length: 20_000 }, (_, i) => `\r${i}`);
    const twoMessages = new OutputCollector();
    twoMessages.add({ type: "stream", name: "stdout", text: updates.slice(0, 2206).join("") });
    twoMessages.add({ type: "stream", name: "stdout", text: updates.slice(2206).join("") });
    expect(text(twoMessages)).toBe("19999");
    const each = new OutputCollector({ maxChars: 200, maxLines: 10, maxImages: 8, maxImageBytes: 1000 });
    for (const update of updates) each.add({ type: "stream", name: "stderr", text: update });
    each.add({ type: "stream", name: "stderr", text: "\r\ndone\n" });
    expect(text(each)).toBe("19999\ndone");
  });

  it("keeps a line overwritten across messages, output between them, and \\r\\n as a line end", () => {
    const collector = new OutputCollector();
    for (const chunk of ["50%\r", "\n", "a", "b\rc", "d"])
      collector.add({ type: "stream", name: "stdout", text: chunk });
    collector.add({ type: "display", kind: "display", data: { "text/plain": "shown" } });
    collector.add({ type: "stream", name: "stdout", text: "\rx\ry\r\n" });
    expect(text(collector)).toBe("50%\ncd\nshown\ny");
  });
});
