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

  it("appends what another kept of the stream after it, counting what that one let go", () => {
    const buffer = new TailBuffer(4);
    buffer.push("ab");
    const after = new TailBuffer(4);
    after.push("cdefgh");
    buffer.append(after);
    expect(buffer.text()).toBe("efgh");
    expect(buffer.dropped()).toBe(4);
    // Kept short of its most by an emoji's halves, the other's gap still lets go of all before.
    const emoji = new TailBuffer(4);
    emoji.push("a");
    const emojis = new TailBuffer(4);
    emojis.push("😀😀x😀");
    emoji.append(emojis);
    expect(emoji.text()).toBe("x😀");
    expect(emoji.dropped()).toBe(5);
  });
});
