import { afterEach, describe, expect, it, vi } from "vitest";
import { CellEndMarks, MarkedStream } from "./marked-stream.js";

const mark = "\0tools-cell-end-0123456789abcdef\0";

/** A MarkedStream whose text and marks are recorded in order ("|" for a mark). */
function reader() {
  const events: string[] = [];
  const stream = new MarkedStream(
    Buffer.from(mark),
    (text) => events.push(text),
    () => events.push("|"),
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

  it("ends a cell once each pipe written to has been read up to its mark", () => {
    const marks = new CellEndMarks();
    const ended: string[] = [];
    marks.afterMarks(["stdout", "stderr"], () => ended.push("cell 1"));
    marks.seen("stdout");
    expect(ended).toEqual([]);
    marks.seen("stderr");
    expect(ended).toEqual(["cell 1"]);
    // A mark read before the executor said it wrote it (the pipe was read first).
    marks.seen("stdout");
    marks.seen("stderr");
    marks.afterMarks(["stdout", "stderr"], () => ended.push("cell 2"));
    expect(ended).toEqual(["cell 1", "cell 2"]);
  });

  it("waits for no mark on a pipe the cell closed, nor on one that ended", () => {
    const marks = new CellEndMarks();
    const ended: string[] = [];
    marks.afterMarks(["stderr"], () => ended.push("fd 1 closed"));
    expect(ended).toEqual([]);
    marks.seen("stderr");
    expect(ended).toEqual(["fd 1 closed"]);
    marks.afterMarks(["stdout", "stderr"], () => ended.push("pipes ended"));
    marks.ended("stdout");
    marks.ended("stderr");
    expect(ended).toEqual(["fd 1 closed", "pipes ended"]);
  });

  it("gives up on a mark that never comes after its bound, and waits for the next cell's again", () => {
    vi.useFakeTimers();
    const marks = new CellEndMarks(2000);
    const ended: string[] = [];
    marks.afterMarks(["stdout", "stderr"], () => ended.push("cell 1"));
    marks.seen("stderr");
    vi.advanceTimersByTime(1999);
    expect(ended).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(ended).toEqual(["cell 1"]);
    marks.afterMarks(["stdout", "stderr"], () => ended.push("cell 2"));
    marks.seen("stdout");
    expect(ended).toEqual(["cell 1"]);
    marks.seen("stderr");
    expect(ended).toEqual(["cell 1", "cell 2"]);
  });
});
