// Time of a rewrite (`rewriteFile`, what ast_edit stages) of every match on one long line, as in a
// minified file, against the number of matches: it should grow as they do, not as their square.
// Not part of `npm test`. Run after `pnpm run build`: node bench/rewrite.bench.mjs
// Each size is searched once (`foo($A)` on `foo(0);foo(1);…`, one line), then rewritten
// (`bar($A)`) three times; the table gives the median rewrite time and the time per match.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { performance } from "node:perf_hooks";
import { join } from "node:path";
import { createStructuralParser, rewriteFile, searchFiles } from "../dist/index.js";

const sizes = [10_000, 20_000, 40_000];
const parser = createStructuralParser({ workers: 0 });
const spec = parser.spec("javascript");
const pattern = await parser.compile(spec, "foo($A)");
const dir = mkdtempSync(join(tmpdir(), "rewrite-bench-"));
const rows = [];
try {
  for (const size of sizes) {
    const path = join(dir, `min-${size}.js`);
    writeFileSync(path, `${Array.from({ length: size }, (_, index) => `foo(${index});`).join("")}\n`);
    const outcome = await searchFiles({ parser, spec, pattern, workingDirectory: dir, target: path });
    const file = outcome.files[0];
    const times = [];
    let replaced = 0;
    for (let run = 0; run < 3; run++) {
      const start = performance.now();
      const rewrite = rewriteFile(file.text, file.matches, "bar($A)", {
        keepTrailingSemicolon: pattern.keepsSemicolon,
      });
      times.push(performance.now() - start);
      replaced = rewrite.replacements.length;
    }
    const median = times.sort((a, b) => a - b)[1];
    rows.push({ size, bytes: file.text.length, replaced, median });
  }
} finally {
  parser.dispose();
  rmSync(dir, { recursive: true, force: true });
}
console.log("| matches | line (chars) | replaced | rewrite (ms) | µs per match |");
console.log("| ------- | ------------ | -------- | ------------ | ------------ |");
for (const row of rows)
  console.log(
    `| ${row.size} | ${row.bytes} | ${row.replaced} | ${row.median.toFixed(1)} | ${((row.median * 1000) / row.size).toFixed(1)} |`,
  );
