import { describe, expect, it } from "vitest";
import { bodyStart } from "./model-reply.js";

const loneHalf = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

describe("bodyStart", () => {
  it("quotes the start of a long reply cut between characters, never inside an emoji", () => {
    // 200 units end on the first half of an emoji after one letter.
    const quoted = bodyStart(`a${"😀".repeat(150)}`);
    expect(quoted).toMatch(/^a(?:😀)+… \(301 characters\)$/u);
    expect(quoted).not.toMatch(loneHalf);
  });
});
