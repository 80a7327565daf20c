import { describe, expect, it, vi } from "vitest";
import type { StructuralMatch } from "../match/find-matches.js";
import { rewriteFile } from "./rewrite-file.js";
import type * as Template from "./template.js";

const lineEnding = vi.hoisted(() => ({ calls: 0 }));
vi.mock("./template.js", async (importOriginal) => {
  const actual = await importOriginal<typeof Template>();
  return {
    ...actual,
    lineEnding: (text: string) => {
      lineEnding.calls++;
      return actual.lineEnding(text);
    },
  };
});

describe("rewriteFile", () => {
  it("reads the file's line ending once, not once per match (each read is the whole file)", () => {
    const source = "foo(1)\r\nfoo(2)\r\nfoo(3)\r\n";
    const matches: StructuralMatch[] = [0, 8, 16].map((start, index) => ({
      start,
      end: start + 6,
      line: index,
      column: 0,
      text: `foo(${index + 1})`,
      bindings: new Map([["A", { text: String(index + 1), start: start + 4, end: start + 5 }]]),
    }));
    lineEnding.calls = 0;
    const rewrite = rewriteFile(source, matches, "bar(\n$A)");
    expect(rewrite.newText).toBe("bar(\r\n1)\r\nbar(\r\n2)\r\nbar(\r\n3)\r\n");
    expect(lineEnding.calls).toBe(1);
  });
});
