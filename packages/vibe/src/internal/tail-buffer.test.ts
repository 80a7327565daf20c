import { describe, expect, it } from "vitest";
import { TailBuffer } from "./tail-buffer.js";

const loneHalf = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe("TailBuffer", () => {
  it("keeps the end of a stream whole: a cut inside an emoji keeps neither half, and counts both", () => {
    const buffer = new TailBuffer(5);
    buffer.push("a😀😀😀");
    // The last 5 units start with the second half of an emoji: it is let go with its first half.
    expect(buffer.text()).toBe("😀😀");
    expect(buffer.text()).not.toMatch(loneHalf);
    expect(buffer.dropped()).toBe(3);
  });

  it("keeps a flood bounded, and every character is kept or counted", () => {
    const buffer = new TailBuffer(1001);
    let pushed = 0;
    for (let i = 0; i < 500; i++) {
      const chunk = `line ${i} 😀\n`;
      buffer.push(chunk);
      pushed += chunk.length;
    }
    expect(buffer.text().length).toBeLessThanOrEqual(1001);
    expect(buffer.text()).not.toMatch(loneHalf);
    expect(buffer.text().length + buffer.dropped()).toBe(pushed);
    expect(buffer.text().endsWith("line 499 😀\n")).toBe(true);
  });

  it("takes back the last characters pushed, also those let go already, which are no longer counted", () => {
    const buffer = new TailBuffer(4);
    buffer.push("ab");
    buffer.push("cdef");
    expect(buffer.text()).toBe("cdef");
    expect(buffer.dropped()).toBe(2);
    buffer.takeBack(5);
    expect(buffer.text()).toBe("");
    expect(buffer.dropped()).toBe(1);
    buffer.push("xy");
    buffer.takeBack(1);
    expect(buffer.text()).toBe("x");
  });
});
