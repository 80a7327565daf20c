// HTML to text on inputs that leave tags open to the end, as a ratio to an ordinary HTML table of
// the same size measured in the same run (one forward scan: all near 1×). Run after
// `pnpm run build`:
//   node bench/html-text.bench.mjs
import { htmlToText } from "../dist/eval/html-text.js";

const time = (html) => {
  let best = Infinity;
  for (let i = 0; i < 5; i++) {
    const t0 = performance.now();
    htmlToText(html);
    best = Math.min(best, performance.now() - t0);
  }
  return best;
};

const row = "<tr><th>0</th><td>Oslo</td><td>4</td></tr>\n";
const anchor = `<table>${row.repeat(Math.ceil(420_000 / row.length))}</table>`;
const anchorMs = time(anchor);
console.log(`anchor: a ${anchor.length}-character table, ${anchorMs.toFixed(1)} ms`);
for (const [name, html] of [
  ["60 000 unclosed <style>", "<style>".repeat(60_000)],
  ["60 000 unclosed <!--", "<!--".repeat(60_000)],
  ["60 000 unclosed <table", "<table".repeat(60_000)],
  ["60 000 <table> never closed", "<table>".repeat(60_000)],
  ['60 000 <p title="a>b">', '<p title="a>b">x'.repeat(60_000)],
]) {
  const ms = time(html);
  console.log(`${name} (${html.length} characters): ${ms.toFixed(1)} ms, ${(ms / anchorMs).toFixed(2)}×`);
}
