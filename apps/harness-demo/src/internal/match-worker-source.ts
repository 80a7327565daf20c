/**
 * The program of a grep match worker, as plain JavaScript evaluated by `new Worker(source, { eval:
 * true })`: a string, not a module file, so it runs the same from `src` under vitest and from
 * `dist`. One job per message, answered by one message:
 *
 * - job: `{ pattern, flags, text, room, maxMatchChars, maxShownChars }`; `text` holds whole lines
 *   (see `blockLines`);
 * - reply: `{ lines, count, shown: [{ line, text }], cut }`: how many lines the text held, how many
 *   matched, the first `room` matches (0-based line in the text, an excerpt of at most
 *   `maxShownChars` around the match), and how many lines were longer than `maxMatchChars` and
 *   searched in their start only.
 */
export const matchWorkerSource = `
"use strict";
const { parentPort } = require("node:worker_threads");
let compiled = { key: undefined, regex: undefined };
parentPort.on("message", (job) => {
  const key = job.flags + "/" + job.pattern;
  if (compiled.key !== key) compiled = { key, regex: new RegExp(job.pattern, job.flags) };
  const regex = compiled.regex;
  const lines = job.text.split("\\n");
  if (job.text.endsWith("\\n")) lines.pop();
  const shown = [];
  let count = 0;
  let cut = 0;
  for (let index = 0; index < lines.length; index++) {
    let line = lines[index];
    if (line.endsWith("\\r")) line = line.slice(0, -1);
    if (line.length > job.maxMatchChars) {
      line = line.slice(0, job.maxMatchChars);
      cut++;
    }
    const match = regex.exec(line);
    if (match === null) continue;
    count++;
    if (shown.length < job.room) shown.push({ line: index, text: excerpt(line, match.index, job.maxShownChars) });
  }
  parentPort.postMessage({ lines: lines.length, count, shown, cut });
});
function excerpt(line, at, max) {
  const text = line.trimEnd();
  if (text.length <= max) return text;
  const start = Math.max(0, Math.min(at - Math.floor(max / 3), text.length - max));
  return (start > 0 ? "…" : "") + text.slice(start, start + max) + (start + max < text.length ? "…" : "");
}
`;
