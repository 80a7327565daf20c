import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tempWorkspace, type TempWorkspace } from "../__fixtures__/temp-workspace.js";
import { grepBounds, matchBudgetMs, maxOutputChars } from "./grep.js";

let ws: TempWorkspace;
afterEach(async () => ws.cleanup());

describe("grep", () => {
  it("prints path:line: text for every match", async () => {
    ws = await tempWorkspace({
      "src/a.ts": "const a = 1;\nexport const b = 2;\n",
      "src/c.ts": "export {};\n",
    });
    const result = await ws.call("grep", { pattern: "^export" });
    expect(ws.text(result)).toBe("src/a.ts:2: export const b = 2;\nsrc/c.ts:1: export {};");
  });

  it("honours the root .gitignore and skips node_modules, .git and binary files", async () => {
    ws = await tempWorkspace({
      ".gitignore": "build/\n*.log\n!keep.log\n",
      "src/a.ts": "needle\n",
      "build/out.js": "needle\n",
      "debug.log": "needle\n",
      "keep.log": "needle\n",
      "node_modules/pkg/index.js": "needle\n",
      ".git/config": "needle\n",
      "blob.bin": new Uint8Array([...Buffer.from("needle\n"), 0]),
    });
    const result = await ws.call("grep", { pattern: "needle" });
    expect(ws.text(result)).toBe("keep.log:1: needle\nsrc/a.ts:1: needle");
  });

  it("says a binary file named by path is not searched (it said: no matches, 0 files searched)", async () => {
    ws = await tempWorkspace({ "blob.bin": new Uint8Array([...Buffer.from("needle\n"), 0]) });
    const result = await ws.call("grep", { pattern: "needle", path: "blob.bin" });
    expect(result.error?.code).toBe("BINARY_FILE");
    expect(result.error?.message).toBe(
      "blob.bin is a binary file (8 bytes), so it was not searched; grep searches text files only (shell: grep -a PATTERN FILE searches it as text)",
    );
  });

  it("matches ^ at the start of line 1 of a file with a byte order mark", async () => {
    ws = await tempWorkspace({ "a.cs": "\uFEFFusing System;\nusing System.IO;\n" });
    const result = await ws.call("grep", { pattern: "^using" });
    // Line 1 was missed: it started with the mark.
    expect(ws.text(result)).toBe("a.cs:1: using System;\na.cs:2: using System.IO;");
  });

  it("filters by glob on names or on paths", async () => {
    ws = await tempWorkspace({ "src/a.ts": "x\n", "src/b.js": "x\n", "lib/c.ts": "x\n" });
    expect(ws.text(await ws.call("grep", { pattern: "x", glob: "*.ts" }))).toBe(
      "lib/c.ts:1: x\nsrc/a.ts:1: x",
    );
    expect(ws.text(await ws.call("grep", { pattern: "x", glob: "src/**/*.{ts,js}" }))).toBe(
      "src/a.ts:1: x\nsrc/b.js:1: x",
    );
  });

  it("searches one folder or one file when path is given", async () => {
    ws = await tempWorkspace({ "src/a.ts": "x\n", "lib/c.ts": "x\n" });
    expect(ws.text(await ws.call("grep", { pattern: "x", path: "lib" }))).toBe("lib/c.ts:1: x");
    expect(ws.text(await ws.call("grep", { pattern: "x", path: "src/a.ts" }))).toBe("src/a.ts:1: x");
  });

  it("bounds the output with a note of how many more matches there are", async () => {
    ws = await tempWorkspace({ "a.txt": "hit\n".repeat(7) });
    const text = ws.text(await ws.call("grep", { pattern: "hit", max_results: 3 }));
    expect(text.split("\n").slice(0, 3)).toEqual(["a.txt:1: hit", "a.txt:2: hit", "a.txt:3: hit"]);
    expect(text).toContain("… 4 more matches");
    const one = ws.text(await ws.call("grep", { pattern: "hit", max_results: 6 }));
    expect(one.split("\n").at(-1)).toBe("… 1 more match; narrow path or glob, or raise max_results");
  });

  it("bounds the whole output in characters, counting the matches and files left out", async () => {
    const line = (n: number) => `export const v${n} = "${"x".repeat(1500)}";`;
    ws = await tempWorkspace({
      "a.ts": Array.from({ length: 600 }, (_, n) => line(n)).join("\n") + "\n",
      "b.ts": Array.from({ length: 600 }, (_, n) => line(n)).join("\n") + "\n",
    });
    const text = ws.text(await ws.call("grep", { pattern: "export const", max_results: 1000 }));
    const lines = text.split("\n");
    const shown = lines.filter((l) => /^[ab]\.ts:\d+: /.test(l));
    expect(shown.join("\n").length).toBeLessThanOrEqual(maxOutputChars);
    expect(text.length).toBeLessThan(maxOutputChars + 500);
    expect(shown[0]).toMatch(/^a\.ts:1: export const v0 = "x+…$/);
    const note = lines.at(-1) ?? "";
    expect(note).toBe(
      `… ${1200 - shown.length} more matches in 2 files not shown: the output stops at 24,000 characters ` +
        `(${shown.length} of 1200 matching lines shown); narrow the pattern, path or glob`,
    );
  });

  it("ignores case on request", async () => {
    ws = await tempWorkspace({ "a.txt": "Hello\n" });
    expect(ws.text(await ws.call("grep", { pattern: "hello" }))).toContain("no matches");
    expect(ws.text(await ws.call("grep", { pattern: "hello", case_insensitive: true }))).toBe(
      "a.txt:1: Hello",
    );
  });

  it("explains an invalid regular expression", async () => {
    ws = await tempWorkspace({ "a.txt": "x\n" });
    const result = await ws.call("grep", { pattern: "foo(" });
    expect(result.error?.code).toBe("INVALID_PATTERN");
    expect(result.error?.message).toContain("escape special characters");
  });

  it("is refused by containment for a path outside the working directory", async () => {
    ws = await tempWorkspace();
    expect((await ws.call("grep", { pattern: "x", path: "/etc" })).error?.code).toBe("GUARDRAIL_REFUSED");
  });

  it("says how many files it searched when nothing matches", async () => {
    ws = await tempWorkspace({ "a.txt": "x\n", "b.txt": "y\n" });
    expect(ws.text(await ws.call("grep", { pattern: "zzz" }))).toBe(
      "no matches for /zzz/ in .: 2 files searched",
    );
  });

  it("stops a catastrophic pattern at its deadline, naming it too slow, and the process stays responsive", async () => {
    // (a+)+b backtracks exponentially: 40 `a`s take days on the thread that runs it.
    ws = await tempWorkspace({ "a.txt": "ok\n" + "a".repeat(40) + "\n" });
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 50);
    const started = Date.now();
    const result = await ws.call("grep", { pattern: "(a+)+b" });
    clearInterval(ticker);
    expect(result.error?.code).toBe("PATTERN_TOO_SLOW");
    expect(result.error?.message).toContain("the pattern /(a+)+b/ is too slow: matching it in a.txt");
    expect(Date.now() - started).toBeLessThan(matchBudgetMs + 3000);
    // The event loop kept turning while the pattern ran.
    expect(ticks).toBeGreaterThan(matchBudgetMs / 50 / 2);
    expect(ws.text(await ws.call("grep", { pattern: "^ok$" }))).toBe("a.txt:1: ok");
  });

  it("ends a slow search at the call's bound with what it found, saying where it stopped", async () => {
    // (a|a)*b backtracks 2^22 times on each line: slow, not runaway (well under a block's budget).
    const files: Record<string, string> = {};
    for (let i = 0; i < 200; i++)
      files[`f${String(i).padStart(3, "0")}.txt`] = `hit ${i}\n${"a".repeat(22)}\n`;
    ws = await tempWorkspace(files);
    const saved = grepBounds.searchMs;
    grepBounds.searchMs = 1000;
    try {
      const result = await ws.call("grep", { pattern: "(a|a)*b|hit", max_results: 1000 });
      expect(result.isError).toBe(false);
      const lines = ws.text(result).split("\n");
      const note = lines.at(-1)!;
      expect(note).toMatch(
        /^\(search stopped after its 1 s bound, in f\d{3}\.txt( \(from line 1\))?: files after it were not searched; narrow path or glob\)$/,
      );
      const hits = lines.slice(0, -1);
      expect(hits.length).toBeGreaterThan(0);
      expect(hits.length).toBeLessThan(200);
      // What was listed is every file before the one it stopped in, in order.
      expect(hits).toEqual(hits.map((_, i) => `f${String(i).padStart(3, "0")}.txt:1: hit ${i}`));
    } finally {
      grepBounds.searchMs = saved;
    }
  });

  it("ends a running match at once when the call is cancelled", async () => {
    ws = await tempWorkspace({ "a.txt": "a".repeat(40) + "\n" });
    const controller = new AbortController();
    const pending = ws.demo.registry.invoke(ws.demo.run, {
      tool: "grep",
      args: { pattern: "(a+)+b" },
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 300);
    const started = Date.now();
    const result = await pending;
    expect(result.error?.code).toBe("CANCELLED");
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it("shows an excerpt around the match of a long line, and searches at most 20000 characters of a line", async () => {
    ws = await tempWorkspace({
      "a.txt": `${"y".repeat(1000)}needle${"y".repeat(1000)}\n`,
      "b.txt": `${"x".repeat(25_000)}needle\n`,
    });
    const text = ws.text(await ws.call("grep", { pattern: "needle" }));
    const [first, note] = text.split("\n");
    expect(first).toMatch(/^a\.txt:1: …y+needley+…$/);
    expect(first!.length).toBeLessThan(320);
    expect(note).toBe("(1 line longer than 20000 characters searched in its first 20000 characters only)");
  });

  it("searches a file over 2 MB when path names it, and says how many a folder search skipped", async () => {
    ws = await tempWorkspace({
      "bundle.js": `${"x".repeat(2_100_000)}\nfunction needle() {}\n`,
      "small.js": "nothing\n",
    });
    expect(ws.text(await ws.call("grep", { pattern: "needle" }))).toBe(
      "no matches for /needle/ in .: 1 file searched\n" +
        "(1 file over 2 MB not searched: bundle.js; name one as path to search it)",
    );
    expect(ws.text(await ws.call("grep", { pattern: "needle", path: "bundle.js" }))).toBe(
      "bundle.js:2: function needle() {}\n" +
        "(1 line longer than 20000 characters searched in its first 20000 characters only)",
    );
  });

  it("matches Unicode-aware: \\p{L} is a letter, . one emoji, \\u{…} a code point", async () => {
    ws = await tempWorkspace({ "a.txt": "été\n😀\np{L}\n", "b.txt": "a-b: c\n" });
    expect(ws.text(await ws.call("grep", { pattern: "^\\p{L}+$" }))).toBe("a.txt:1: été");
    expect(ws.text(await ws.call("grep", { pattern: "^.$" }))).toBe("a.txt:2: 😀");
    expect(ws.text(await ws.call("grep", { pattern: "\\u{1F600}" }))).toBe("a.txt:2: 😀");
    expect(ws.text(await ws.call("grep", { pattern: "^\\p{Lu}", case_insensitive: true }))).toBe(
      "a.txt:1: été\na.txt:3: p{L}\nb.txt:1: a-b: c",
    );
    // Identity escapes that only a non-Unicode regex takes still mean their character.
    expect(ws.text(await ws.call("grep", { pattern: "a\\-b\\:" }))).toBe("b.txt:1: a-b: c");
    expect(ws.text(await ws.call("grep", { pattern: "\\p{L}\\-\\p{L}" }))).toBe("b.txt:1: a-b: c");
    // Valid only without u: kept, with its meaning there (a literal "{").
    expect(ws.text(await ws.call("grep", { pattern: "p{", path: "a.txt" }))).toBe("a.txt:3: p{L}");
  });

  it("refuses a FIFO named by path, saying what it is", async () => {
    ws = await tempWorkspace({ "a.txt": "x\n" });
    execFileSync("mkfifo", [join(ws.dir, "pipe")]);
    const result = await ws.call("grep", { pattern: "x", path: "pipe" });
    expect(result.error?.code).toBe("NOT_A_FILE");
    expect(result.error?.message).toBe(
      "pipe is a FIFO, socket or device, not a file or folder; grep searches files and folders",
    );
  });

  it("refuses an empty or malformed glob instead of searching no file", async () => {
    ws = await tempWorkspace({ "a.txt": "x\n", "[.txt": "x\n" });
    const empty = await ws.call("grep", { pattern: "x", glob: "" });
    expect(empty.error?.code).toBe("INVALID_GLOB");
    expect(empty.error?.message).toContain("glob is empty");
    for (const glob of ["[", "*.{ts,js", "[z-a].txt", "[]"]) {
      const bad = await ws.call("grep", { pattern: "x", glob });
      expect(bad.error?.code, glob).toBe("INVALID_GLOB");
      expect(bad.error?.message, glob).toContain(`glob '${glob}' is not valid`);
    }
    expect(ws.text(await ws.call("grep", { pattern: "x", glob: "[[].txt" }))).toBe("[.txt:1: x");
  });
});
