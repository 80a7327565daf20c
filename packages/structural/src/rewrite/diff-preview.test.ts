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

  it("keeps CRLF line ends (so git apply takes it) and caps the lines, counting the rest", () => {
    const capped = diffPreview("m.py", "foo(1)\r\nx\r\n", replaceAll("foo(1)\r\nx\r\n", "foo", "bar"), 4);
    expect(capped.text).toBe(["--- a/m.py", "+++ b/m.py", "@@ -1,2 +1,2 @@", "-foo(1)\r"].join("\n"));
    expect(capped.omitted).toBe(2);
  });

  it("shows unchanged lines between nearby replacements as context, not removed and re-added", () => {
    const source = "a();\nconsole.log(1);\nb();\nc();\nd();\ne();\nconsole.log(2);\n";
    expect(preview(source, "console.log(", "log(")).toBe(
      [
        "--- a/m.py",
        "+++ b/m.py",
        "@@ -1,7 +1,7 @@",
        " a();",
        "-console.log(1);",
        "+log(1);",
        " b();",
        " c();",
        " d();",
        " e();",
        "-console.log(2);",
        "+log(2);",
      ].join("\n"),
    );
  });

  it("shows unchanged lines inside one multi-line replacement as context", () => {
    const source = "x = 1\nf(1,\n  x,\n  2)\n";
    const replacements = [{ start: 6, end: source.length - 1, text: "g(1,\n  x,\n  3)" }];
    expect(diffPreview("m.py", source, replacements, 100).text).toBe(
      [
        "--- a/m.py",
        "+++ b/m.py",
        "@@ -1,4 +1,4 @@",
        " x = 1",
        "-f(1,",
        "+g(1,",
        "   x,",
        "-  2)",
        "+  3)",
      ].join("\n"),
    );
  });

  it("splits hunks where more than 4 unchanged lines separate changes", () => {
    const source = "foo(1)\na\nb\nc\nd\ne\nfoo(2)\n";
    expect(preview(source, "foo", "bar")).toBe(
      [
        "--- a/m.py",
        "+++ b/m.py",
        "@@ -1,3 +1,3 @@",
        "-foo(1)",
        "+bar(1)",
        " a",
        " b",
        "@@ -5,3 +5,3 @@",
        " d",
        " e",
        "-foo(2)",
        "+bar(2)",
      ].join("\n"),
    );
  });

  it("cuts a long line around its change and marks what was cut", () => {
    const source = `${"x".repeat(1_500_000)}console.log(1);`;
    const shown = diffPreview("b.js", source, replaceAll(source, "console.log(1)", "void 0"), 60);
    expect(shown.text.length).toBeLessThan(700);
    expect(shown.text).toContain(`-[… ${1_500_000 + 15 - 200} chars …]${"x".repeat(185)}console.log(1);`);
    expect(shown.text).toContain(`+[… ${1_500_000 + 7 - 200} chars …]${"x".repeat(193)}void 0;`);
    const context = diffPreview(
      "c.js",
      `foo(1)\n${"y".repeat(500)}\n`,
      replaceAll("foo(1)", "foo", "bar"),
      60,
    );
    expect(context.text).toContain(` ${"y".repeat(200)}[… 300 chars …]`);
  });

  it("stops at the character budget, on a whole line, counting the lines left out", () => {
    const source = Array.from({ length: 50 }, (_, index) => `foo(${index})\n`).join("");
    const shown = diffPreview("m.py", source, replaceAll(source, "foo", "bar"), {
      maxLines: 1000,
      maxChars: 300,
    });
    expect(shown.text.length).toBeLessThanOrEqual(300);
    expect(shown.chars).toBe(shown.text.length);
    expect(shown.text.split("\n")).toHaveLength(shown.lines);
    expect(shown.omitted).toBe(2 + 1 + 100 - shown.lines);
  });

  it("never ends on a header: a file or hunk header without a line of its own is left out", () => {
    const source = `foo(1)\n${"x = 1\n".repeat(10)}foo(2)\n`;
    const full = diffPreview("m.py", source, replaceAll(source, "foo", "bar"), 100);
    const all = full.text.split("\n");
    const secondHunk = all.findIndex((line, index) => index > 2 && line.startsWith("@@"));
    expect(secondHunk).toBeGreaterThan(2);
    // Room for everything up to the second hunk's header, but not for a line after it.
    for (const maxLines of [1, 2, 3, secondHunk + 1]) {
      const cut = diffPreview("m.py", source, replaceAll(source, "foo", "bar"), { maxLines });
      const lines = cut.text === "" ? [] : cut.text.split("\n");
      expect(lines.at(-1) ?? "", `maxLines ${maxLines}`).not.toMatch(/^(@@|--- a\/|\+\+\+ b\/)/);
      expect(cut.lines).toBe(lines.length);
      expect(cut.chars).toBe(cut.text.length);
      expect(cut.omitted).toBe(all.length - lines.length);
    }
    const byChars = diffPreview("m.py", source, replaceAll(source, "foo", "bar"), {
      maxLines: 100,
      maxChars: all.slice(0, 3).join("\n").length,
    });
    expect(byChars).toEqual({ text: "", lines: 0, chars: 0, omitted: all.length });
  });
});
