import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { diffPreview } from "./diff-preview.js";
import type { Replacement } from "./rewrite-file.js";

/** Replaces each occurrence of `from` in the source with `to`. */
function replaceAll(source: string, from: string, to: string): Replacement[] {
  const out: Replacement[] = [];
  for (let at = source.indexOf(from); at >= 0; at = source.indexOf(from, at + from.length))
    out.push({ start: at, end: at + from.length, text: to });
  return out;
}

function applied(source: string, replacements: readonly Replacement[]): string {
  let out = "";
  let cursor = 0;
  for (const replacement of replacements) {
    out += source.slice(cursor, replacement.start) + replacement.text;
    cursor = replacement.end;
  }
  return out + source.slice(cursor);
}

function run(
  command: string,
  args: readonly string[],
  cwd: string,
): { status: number | null; output: string } {
  // The ceiling keeps git from taking a repository around the temp folder for the patch's root.
  const env = { ...process.env, GIT_CEILING_DIRECTORIES: dirname(cwd) };
  const result = spawnSync(command, args, { cwd, env, encoding: "utf8", timeout: 10_000 });
  if (result.error) throw result.error;
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), "structural-diff-"));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const cases: readonly (readonly [name: string, source: string, from: string, to: string])[] = [
  ["a one-line file", "foo(1)\n", "foo", "bar"],
  ["a one-line file without a final newline", "foo(1)", "foo", "bar"],
  ["a change on the last line, no final newline", "x = 1\ny = 2\nfoo(1)", "foo", "bar"],
  ["a change before an unchanged last line without newline", "foo(1)\nx = 1\ny = 2", "foo", "bar"],
  ["a replacement that ends the file with a newline", "x = 1\nfoo(1)", "foo(1)", "bar(1)\n"],
  ["a replacement that drops the final newline", "x = 1\nfoo(1)\n", "foo(1)\n", "bar(1)"],
  ["lines added, in two hunks", "foo(1)\na\nb\nc\nd\ne\nf\ng\nh\nfoo(2)\ni\n", "foo(", "bar(\n  "],
  ["lines removed, in nearby hunks", "foo(\n1)\na\nb\nc\nfoo(\n2)\n", "foo(\n", "bar("],
  ["the whole file emptied", "foo(1)", "foo(1)", ""],
  ["nearby replacements with unchanged lines between", "a\nfoo(1)\nb\nc\nd\ne\nfoo(2)\n", "foo", "bar"],
  ["CRLF line ends", "foo(1)\r\nx = 1\r\nfoo(2)\r\n", "foo", "bar"],
  ["CRLF line ends, lines added", "a\r\nfoo(1)\r\nb\r\n", "foo(", "bar(\r\n  "],
];

describe("diffPreview is a patch that git apply and patch accept", () => {
  it.each(cases)("%s", (_name, source, from, to) => {
    const replacements = replaceAll(source, from, to);
    const preview = diffPreview("src/m.py", source, replacements, 1000);
    expect(preview.omitted).toBe(0);
    mkdirSync(join(dir, "src"));
    writeFileSync(join(dir, "src/m.py"), source);
    writeFileSync(join(dir, "change.patch"), `${preview.text}\n`);

    const check = run("git", ["apply", "--check", "--verbose", "change.patch"], dir);
    expect(check.output).not.toMatch(/error|corrupt|warning/i);
    expect(check.status).toBe(0);

    const patched = run("patch", ["-p1", "--fuzz=0", "--no-backup-if-mismatch", "-i", "change.patch"], dir);
    expect(patched.output).not.toMatch(/offset|fuzz|malformed|FAILED/i);
    expect(patched.status).toBe(0);
    expect(readFileSync(join(dir, "src/m.py"), "utf8")).toBe(applied(source, replacements));
  });
});
