import { afterEach, describe, expect, it, vi } from "vitest";
import { cellEndMark, CellEndMarks, MarkedStream } from "./marked-stream.js";

const key = "0123456789abcdef";
const mark = cellEndMark(key, 7).toString();

/** A MarkedStream whose text and marks are recorded in order ("|" for cell 7's mark, "|n" for others). */
function reader() {
  const events: string[] = [];
  const stream = new MarkedStream(
    key,
    (text) => events.push(text),
    (id) => events.push(id === 7 ? "|" : `|${id}`),
  );
  return { events, stream, text: () => events.join("") };
}

describe("MarkedStream", () => {
  it("takes the mark out of the text and reports it where it was, also split over chunks", () => {
    const { stream, text } = reader();
    const bytes = Buffer.from(`one\n${mark}two\n${mark}${mark}three`);
    // Every split point: a mark cut anywhere still counts once, and no byte of it is text.
    for (let cut = 0; cut <= bytes.length; cut++) {
      const { stream: split, text: splitText } = reader();
      split.push(bytes.subarray(0, cut));
      split.push(bytes.subarray(cut));
      split.end();
      expect(splitText()).toBe("one\n|two\n||three");
    }
    stream.push(bytes);
    expect(text()).toBe("one\n|two\n||three");
  });

  it("gives back as text what only looked like the start of a mark", () => {
    const { stream, text } = reader();
    stream.push(Buffer.from(`a${mark.slice(0, 5)}`));
    expect(text()).toBe("a");
    stream.push(Buffer.from("b\n"));
    expect(text()).toBe(`a${mark.slice(0, 5)}b\n`);
    stream.push(Buffer.from(`c${mark.slice(0, 9)}`));
    stream.end();
    expect(text()).toBe(`a${mark.slice(0, 5)}b\nc${mark.slice(0, 9)}`);
  });

  it("reads the cell id in the mark, and takes a mark with no id, a long one or no closing NUL for text", () => {
    const { stream, text } = reader();
    const prefix = mark.slice(0, mark.indexOf("7"));
    const bytes = Buffer.from(
      `a${cellEndMark(key, 12_345).toString()}b${prefix}\0c${prefix}12x\0d${prefix}${"9".repeat(17)}\0e`,
    );
    for (let cut = 0; cut <= bytes.length; cut++) {
      const split = reader();
      split.stream.push(bytes.subarray(0, cut));
      split.stream.push(bytes.subarray(cut));
      split.stream.end();
      expect(split.text()).toBe(`a|12345b${prefix}\0c${prefix}12x\0d${prefix}${"9".repeat(17)}\0e`);
    }
    stream.push(bytes);
    stream.end();
    expect(text()).toBe(`a|12345b${prefix}\0c${prefix}12x\0d${prefix}${"9".repeat(17)}\0e`);
  });

  it("ends a character a cell left unfinished in that cell's text, not at the next cell's start", () => {
    const { events, stream } = reader();
    // "hi" and the first two bytes of "€" (e2 82 ac), then the mark, then the next cell's text.
    stream.push(Buffer.concat([Buffer.from([0x68, 0x69, 0xe2, 0x82]), Buffer.from(mark), Buffer.from("ok")]));
    expect(events.join("")).toBe("hi\ufffd|ok");
    expect(events.indexOf("|")).toBe(events.length - 2);
  });

  it("decodes UTF-8 split over chunks", () => {
    const { stream, text } = reader();
    const bytes = Buffer.from("π ≈ 3.14 🥧\n");
    for (const byte of bytes) stream.push(Buffer.from([byte]));
    expect(text()).toBe("π ≈ 3.14 🥧\n");
  });
});

describe("CellEndMarks", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("ends a cell once each pipe written to has shown its mark", () => {
    const marks = new CellEndMarks();
    const ended: string[] = [];
    marks.afterMarks(1, ["stdout", "stderr"], () => ended.push("cell 1"));
    marks.seen("stdout", 1);
    expect(ended).toEqual([]);
    marks.seen("stderr", 1);
    expect(ended).toEqual(["cell 1"]);
    // A mark read before the executor said it wrote it (the pipe was read first).
    marks.seen("stdout", 2);
    marks.seen("stderr", 2);
    marks.afterMarks(2, ["stdout", "stderr"], () => ended.push("cell 2"));
    expect(ended).toEqual(["cell 1", "cell 2"]);
  });

  it("waits for no mark on a pipe the cell closed, nor on one that ended", () => {
    const marks = new CellEndMarks();
    const ended: string[] = [];
    marks.afterMarks(1, ["stderr"], () => ended.push("fd 1 closed"));
    expect(ended).toEqual([]);
    marks.seen("stderr", 1);
    expect(ended).toEqual(["fd 1 closed"]);
    marks.afterMarks(2, ["stdout", "stderr"], () => ended.push("pipes ended"));
    marks.ended("stdout");
    marks.ended("stderr");
    expect(ended).toEqual(["fd 1 closed", "pipes ended"]);
  });

  it("gives up on a mark after its bound; read late, that mark does not end the next cell", () => {
    vi.useFakeTimers();
    const marks = new CellEndMarks(2000);
    const ended: string[] = [];
    marks.afterMarks(1, ["stdout", "stderr"], () => ended.push("cell 1"));
    marks.seen("stderr", 1);
    vi.advanceTimersByTime(1999);
    expect(ended).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(ended).toEqual(["cell 1"]);
    // Cell 1's stdout mark comes in the middle of cell 2's wait: cell 2's is still to read.
    marks.afterMarks(2, ["stdout", "stderr"], () => ended.push("cell 2"));
    marks.seen("stdout", 1);
    marks.seen("stderr", 2);
    expect(ended).toEqual(["cell 1"]);
    marks.seen("stdout", 2);
    expect(ended).toEqual(["cell 1", "cell 2"]);
    // Nor is a cell ended twice (its bound passing after its marks were read).
    vi.advanceTimersByTime(5000);
    expect(ended).toEqual(["cell 1", "cell 2"]);
  });

  it("ends a cell whose marks came with a later cell's id (its own was skipped)", () => {
    const marks = new CellEndMarks();
    const ended: string[] = [];
    marks.afterMarks(3, ["stdout"], () => ended.push("cell 3"));
    marks.seen("stdout", 4);
    expect(ended).toEqual(["cell 3"]);
  });
});
