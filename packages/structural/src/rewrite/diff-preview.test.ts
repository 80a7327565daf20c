import { describe, expect, it } from "vitest";
import { diffPreview } from "./diff-preview.js";
import type { Replacement } from "./rewrite-file.js";

/** Replaces each occurrence of `from` in the source with `to`. */
function replaceAll(source: string, from: string, to: string): Replacement[] {
  const out: Replacement[] = [];
  for (let at = source.indexOf(from); at >= 0; at = source.indexOf(from, at + from.length))
    out.push({ start: at, end: at + from.length, text: to });
  return out;
}

const preview = (source: string, from: string, to: string) =>
  diffPreview("m.py", source, replaceAll(source, from, to), 100).text;

describe("diffPreview", () => {
  it("shows a one-line file as one line, without a phantom blank line after it", () => {
    expect(preview("foo(1)\n", "foo", "bar")).toBe(
      ["--- a/m.py", "+++ b/m.py", "@@ -1,1 +1,1 @@", "-foo(1)", "+bar(1)"].join("\n"),
    );
  });

  it("marks a last line without a newline on both sides", () => {
    expect(preview("x = 1\nfoo(1)", "foo", "bar")).toBe(
      [
        "--- a/m.py",
        "+++ b/m.py",
        "@@ -1,2 +1,2 @@",
        " x = 1",
        "-foo(1)",
        "\\ No newline at end of file",
        "+bar(1)",
        "\\ No newline at end of file",
      ].join("\n"),
    );
  });

  it("keeps an unchanged last line without a newline as context, marked", () => {
    expect(preview("foo(1)\nx = 1", "foo", "bar")).toBe(
      [
        "--- a/m.py",
        "+++ b/m.py",
        "@@ -1,2 +1,2 @@",
        "-foo(1)",
        "+bar(1)",
        " x = 1",
        "\\ No newline at end of file",
      ].join("\n"),
    );
  });

  it("counts the lines of separate hunks exactly, shifting the new start by lines added", () => {
    const source = ["foo(1)", "a", "b", "c", "d", "e", "f", "g", "foo(2)", "h", ""].join("\n");
    expect(preview(source, "foo(", "bar(\n  ")).toBe(
      [
        "--- a/m.py",
        "+++ b/m.py",
        "@@ -1,3 +1,4 @@",
        "-foo(1)",
        "+bar(",
        "+  1)",
        " a",
        " b",
        "@@ -7,4 +8,5 @@",
        " f",
        " g",
        "-foo(2)",
        "+bar(",
        "+  2)",
        " h",
      ].join("\n"),
    );
  });

  it("names the line before an empty side, as diff -u does", () => {
    expect(preview("foo(1)", "foo(1)", "")).toBe(
      ["--- a/m.py", "+++ b/m.py", "@@ -1,1 +0,0 @@", "-foo(1)", "\\ No newline at end of file"].join("\n"),
    );
  });

  it("shows CRLF line ends as LF and caps the lines, counting the rest", () => {
    const capped = diffPreview("m.py", "foo(1)\r\nx\r\n", replaceAll("foo(1)\r\nx\r\n", "foo", "bar"), 4);
    expect(capped.text).toBe(["--- a/m.py", "+++ b/m.py", "@@ -1,2 +1,2 @@", "-foo(1)"].join("\n"));
    expect(capped.omitted).toBe(2);
  });
});
