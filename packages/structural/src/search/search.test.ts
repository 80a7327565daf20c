import { mkdtempSync, rmSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createStructuralParser } from "../parser/structural-parser.js";
import { searchedLine } from "../tools/ast-grep-tool.js";
import { searchFiles } from "./search.js";

const dir = mkdtempSync(join(tmpdir(), "structural-search-"));
const parser = createStructuralParser({ workers: 0 });
afterAll(() => {
  parser.dispose();
  rmSync(dir, { recursive: true, force: true });
});

async function search(source: string, target: string, language = "typescript") {
  const spec = parser.spec(language);
  const pattern = await parser.compile(spec, source);
  return searchFiles({ parser, spec, pattern, workingDirectory: dir, target });
}

const texts = (outcome: Awaited<ReturnType<typeof search>>) =>
  outcome.files.flatMap((file) => file.matches.map((match) => match.text));

describe("searchFiles and the tree cache", () => {
  it("parses again when the bytes changed but the size and mtime did not", async () => {
    const path = join(dir, "a.ts");
    writeFileSync(path, "foo(a);\nbar(bbbb);\n");
    utimesSync(path, 1_700_000_000, 1_700_000_000);
    expect(texts(await search("foo($A)", path))).toEqual(["foo(a)"]);
    const before = statSync(path);
    writeFileSync(path, "foo(abbb);\nbar(a);\n");
    utimesSync(path, 1_700_000_000, 1_700_000_000);
    expect(statSync(path).size).toBe(before.size);
    expect(statSync(path).mtimeMs).toBe(before.mtimeMs);
    const outcome = await search("foo($A)", path);
    expect(texts(outcome)).toEqual(["foo(abbb)"]);
    expect(outcome.files[0]?.matches[0]?.bindings.get("A")?.text).toBe("abbb");
  });
});

describe("searchFiles bounds", () => {
  const lines = (count: number, line: (index: number) => string) =>
    Array.from({ length: count }, (_, index) => line(index)).join("\n");

  it("stops at maxMatches instead of collecting every match", async () => {
    const path = join(dir, "many.ts");
    writeFileSync(
      path,
      lines(5_000, (index) => `console.log("line ${index}", ${index});`),
    );
    const spec = parser.spec("typescript");
    const pattern = await parser.compile(spec, "$A");
    const outcome = await searchFiles({
      parser,
      spec,
      pattern,
      workingDirectory: dir,
      target: path,
      maxMatches: 2,
    });
    expect(outcome.stopped).toBe("max-matches");
    expect(texts(outcome)).toHaveLength(2);
    // The first ones in source order: the program, then the first statement.
    expect(texts(outcome)[1]).toBe('console.log("line 0", 0);');
  });

  it("fails with SEARCH_TIMEOUT past its time budget, or returns what it found with partial", async () => {
    const path = join(dir, "budget.ts");
    writeFileSync(
      path,
      lines(200, (index) => `foo(${index});`),
    );
    const spec = parser.spec("typescript");
    const pattern = await parser.compile(spec, "foo($A)");
    const options = { parser, spec, pattern, workingDirectory: dir, target: path, timeBudgetMs: 0 };
    await expect(searchFiles(options)).rejects.toMatchObject({ code: "SEARCH_TIMEOUT" });
    const partial = await searchFiles({ ...options, partial: true });
    expect(partial.stopped).toBe("deadline");
    expect(partial.files).toEqual([]);
    // Read and handed on, but never matched: not searched.
    expect(partial).toMatchObject({ considered: 1, searched: 0, parsed: 0 });
    expect(searchedLine(partial, { spec, target: path, isFile: true })).toBe(
      "searched 0 of 1 typescript file before the time budget ran out",
    );
    // With time left, the same search runs through.
    const whole = await searchFiles({ ...options, timeBudgetMs: 60_000 });
    expect(whole.stopped).toBeUndefined();
    expect(texts(whole)).toHaveLength(200);
  });

  it("lets the event loop run while a slow pattern is matched in one file on this thread", async () => {
    const path = join(dir, "w3.ts");
    const args = Array.from({ length: 100 }, (_, index) => `a${index}`).join(", ");
    writeFileSync(
      path,
      lines(15, () => `f(${args});`),
    );
    const spec = parser.spec("typescript");
    const pattern = await parser.compile(spec, "f($$$A, $B, $$$C, $B, $$$D)");
    let settled = false;
    const searching = searchFiles({ parser, spec, pattern, workingDirectory: dir, target: path }).finally(
      () => (settled = true),
    );
    // Another call's work: a timer due long before the search can be done.
    const timerFiredBeforeTheEnd = await new Promise<boolean>((resolve) =>
      setTimeout(() => resolve(!settled), 50),
    );
    const outcome = await searching;
    expect(outcome.parsed).toBe(1);
    expect(timerFiredBeforeTheEnd).toBe(true);
  });

  it("stops matching inside a file when its call is cancelled, not only between files", async () => {
    const path = join(dir, "w4.ts");
    const args = Array.from({ length: 100 }, (_, index) => `a${index}`).join(", ");
    writeFileSync(
      path,
      lines(40, () => `f(${args});`),
    );
    const spec = parser.spec("typescript");
    const pattern = await parser.compile(spec, "f($$$A, $B, $$$C, $B, $$$D)");
    const controller = new AbortController();
    const searching = searchFiles({
      parser,
      spec,
      pattern,
      workingDirectory: dir,
      target: path,
      signal: controller.signal,
    });
    // Cancelled once the file is being matched (one file: no boundary between files to stop at).
    setTimeout(() => controller.abort(new Error("cancelled by the caller")), 30);
    await expect(searching).rejects.toThrow("cancelled by the caller");
  });
});

describe("searchFiles and a `;` the pattern did not write", () => {
  it("finds a CSS declaration in a file without any `;` (the appended `;` is no required literal)", async () => {
    const path = join(dir, "no-semicolon.css");
    writeFileSync(path, "b { color: red }\n");
    expect(texts(await search("color: red", path, "css"))).toEqual(["color: red"]);
  });
});
