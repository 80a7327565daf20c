import { mkdtemp, readFile, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../__fixtures__/cli-process.js";

let out: string;
let tour: { code: number | null; stdout: string; stderr: string };

beforeAll(async () => {
  out = await realpath(await mkdtemp(join(tmpdir(), "harness-demo-tour-")));
  tour = await runCli(["tour", "--out", out], 150_000);
}, 160_000);

afterAll(async () => {
  await rm(out, { recursive: true, force: true });
});

describe("the tour (every package wired into one run)", () => {
  it("passes every step, exit code 0, no colour codes when not a terminal", () => {
    expect(tour.stderr).toBe("");
    expect(tour.stdout).not.toContain("FAIL");
    expect(tour.stdout).not.toContain("\u001b[");
    expect(tour.stdout).toMatch(/all \d+ steps passed/);
    expect(tour.code).toBe(0);
  });

  it("shows each part's key result", () => {
    const text = tour.stdout;
    // 1. tool lists with tier caps
    expect(text).toMatch(/plan\s+cap read/);
    // 2. lsp: status, navigation by line + symbol in TypeScript and Python
    expect(text).toMatch(/typescript: root \. \(marker tsconfig\.json\), binary found/);
    expect(text).toContain("… lsp: starting typescript-language-server");
    expect(text).toContain("src/greet.ts:2:17  export function greet(name: string): string {");
    expect(text).toContain("python/stats.py:4:5  def total(values):");
    expect(text).toContain("python/report.py:8:13  grand = total(sales)");
    // 3. diagnostics on write: new, moved (nothing new), fixed; lsp_rename across files
    expect(text).toContain("src/greet.ts:3:3 error [TS2322]");
    expect(text).toContain("no new diagnostics in src/greet.ts (1 reported earlier still present)");
    expect(text).toContain("src/greet.ts: clean (no errors or warnings)");
    expect(text).toContain("renamed 'greetAll' to 'greetEveryone': 2 edits in 2 files");
    // the harness's refusals
    expect(text).toContain("← error TIER_EXCEEDED");
    expect(text).toContain("← error NO_APPROVER");
    // 4. structural: the spec's Dart example, staged edit, stale resolve
    expect(text).toMatch(/panels\.dart:12/);
    expect(text).toContain("← error EDIT_STALE");
    // 5. debug on Python and Go
    expect(text).toMatch(/no 'dart' on PATH/);
    expect(text).toContain("stopped (breakpoint) in thread 1 at python/stats.py:7 in total");
    expect(text).toContain("restocked 6");
    // 6. eval: a table, a figure, the bridge, a JavaScript cell
    expect(text).toMatch(/north\s+27\s+256\.5/);
    expect(text).toContain("[figure: image/png");
    expect(text).toContain("cheapest 8, mean 9.50");
    // 7. ask_user answered by the scripted operator; fail-closed with nobody attached; a permission card
    expect(text).toContain('Chosen option: "south"');
    expect(text).toContain("← error ASK_NO_HUMAN");
    expect(text).toContain("Allow write: write NOTES.md");
    // 8. vibe workers on the scripted model server
    expect(text).toContain("[scripted model] I read it");
    expect(text).toMatch(/Killed w2/);
    // progress while servers and kernels start; where the transcripts are
    expect(text).toContain("… eval: connecting to the python kernel");
    expect(text).toContain(`transcript: ${join(out, "transcript.md")}`);
  });

  it("shows what the harness steps' titles claim", () => {
    const text = tour.stdout;
    // grep and .gitignore: a match is made under build/, and the search does not list it.
    expect(text).toContain("grep honours .gitignore");
    expect(text).toContain("│ export function generated() {}");
    expect(text).not.toContain("build/generated.ts:1:");
    // apply_patch all or nothing: src/index.ts read before and after the failed patch.
    expect(text).toMatch(
      /→ read \{"path":"src\/index\.ts"\}[\s\S]*← error PATCH_CONTEXT_NOT_FOUND[\s\S]*→ read \{"path":"src\/index\.ts"\}/,
    );
    // shell: bash leads its own process group; a long output's note of what was left out.
    const ids = /bash pid (\d+), process group (\d+)/.exec(text);
    expect(ids?.[1]).toBe(ids?.[2]);
    expect(text).toMatch(/│ … \d+ lines \(\d+ characters\) left out …/);
  });

  it("numbers the steps the same in the terminal and in the transcripts", async () => {
    const terminal = [...tour.stdout.matchAll(/^(\d+\.\d+ .+)$/gm)].map((match) => match[1]);
    const markdown = await readFile(join(out, "transcript.md"), "utf8");
    const html = await readFile(join(out, "transcript.html"), "utf8");
    expect(terminal.length).toBeGreaterThan(20);
    expect([...markdown.matchAll(/^### (.+)$/gm)].map((match) => match[1])).toEqual(terminal);
    expect([...html.matchAll(/<h3>(.+?)<\/h3>/g)].map((match) => match[1])).toEqual(
      terminal.map((line) => line?.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`)),
    );
  });

  it("writes transcript.md with a section per part", async () => {
    const markdown = await readFile(join(out, "transcript.md"), "utf8");
    for (const heading of [
      "## 1. the tool lists",
      "language servers: status, definition, hover, references",
      "diagnostics on write and lsp_rename",
      "structural search and staged rewrite",
      "debug: Python with debugpy, Go with delve",
      "eval: a persistent Python kernel",
      "ask_user and the permission card",
      "vibe: background workers",
    ]) {
      expect(markdown).toContain(heading);
    }
    expect(markdown).toMatch(/\*\*All \d+ steps passed\.\*\*/);
    expect(markdown).toContain("](data:image/png;base64,iVBOR");
  });

  it("writes a self-contained transcript.html: no external resource, an inline PNG, cards drawn as cards", async () => {
    const html = await readFile(join(out, "transcript.html"), "utf8");
    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).not.toMatch(/(src|href)\s*=\s*["']?(https?:)?\/\//i);
    expect(html).not.toMatch(/url\(|@import|<script|<link/i);
    expect(html).toMatch(/<img [^>]*src="data:image\/png;base64,iVBOR/);
    expect(html.match(/<div class="card">/g)?.length).toBe(2);
    expect(html).toContain("Allow write: write NOTES.md");
    expect(html).toContain('class="pass">All');
  });
});
