import type { CompiledCell } from "./compile-cell.js";

/**
 * The cells run so far, by the file name their code ran under (`cell-3.js`), with their lines: a
 * function an earlier cell defined may fail later (V8 keeps its code for as long anyway).
 */
export type CellsByFile = ReadonlyMap<string, Pick<CompiledCell, "cellLine" | "cellLines">>;

const cellPosition = /(cell-\d+\.js):(\d+)(?::(\d+))?/;
// Frames of the kernel itself, for a stack with no frame in a cell to cut at.
const machinery = /executor\.js|node:vm|node:internal|node:events|\(native\)/;
// Frames above a cell's that are the kernel's and not the cell's doing: our helpers (`tool()`)
// and the microtask queue an `await` resumes from.
const helpers = /executor\.js|node:internal\/process\/task_queues/;

/**
 * A JavaScript error's stack as the cell's author reads it: positions are the cell's own lines
 * (the compiled source has a wrapper line before them, and an echo line before the last
 * expression); frames below the outermost cell frame — the executor, vm, `process.emit` — are
 * dropped, and so are our helpers' frames above them (`tool()`, the microtask queue). A syntax error's header shows the cell's line, or says it is at the end of the cell
 * (an unclosed bracket found by the wrapper's closing lines); its frames are all the kernel's.
 */
export function cellTraceback(stack: string, cells: CellsByFile): string[] {
  const lines = stack.split("\n");
  const header = /^(cell-\d+\.js):(\d+)$/.exec(lines[0] ?? "");
  if (header) {
    const [, file = "", line = ""] = header;
    const cell = cells.get(file);
    const mapped = cell?.cellLine(Number(line));
    if (cell && mapped !== undefined) {
      lines[0] = `${file}:${mapped}`;
      lines[1] = cell.cellLines[mapped - 1] ?? lines[1] ?? "";
    } else {
      lines.splice(0, 3, `${file}: at the end of the cell (is a bracket, string or comment left open?)`);
    }
  }

  const frames: { text: string; user: boolean; wrapper: boolean }[] = [];
  const message: string[] = [];
  for (const line of lines) {
    if (!/^\s+at /.test(line)) {
      if (frames.length === 0) message.push(line);
      continue;
    }
    const position = cellPosition.exec(line);
    if (!position) {
      frames.push({ text: line, user: false, wrapper: false });
      continue;
    }
    const [whole, file = "", lineText = "", column] = position;
    const cell = cells.get(file);
    if (cell === undefined) {
      frames.push({ text: line, user: true, wrapper: false });
      continue;
    }
    const mapped = cell.cellLine(Number(lineText));
    if (mapped === undefined) {
      frames.push({ text: line, user: false, wrapper: true });
      continue;
    }
    const where = `${file}:${mapped}${column === undefined ? "" : `:${column}`}`;
    frames.push({ text: line.replace(whole, where), user: true, wrapper: false });
  }
  let lastUser = -1;
  frames.forEach((frame, index) => {
    if (frame.user) lastUser = index;
  });
  // A syntax error's frames are where the cell was compiled: the kernel's, all of them.
  const kept = header
    ? []
    : lastUser >= 0
      ? frames
          .slice(0, lastUser + 1)
          .filter((frame) => !frame.wrapper && (frame.user || !helpers.test(frame.text)))
      : frames.filter((frame) => !frame.wrapper && !machinery.test(frame.text));
  while (message.length > 0 && (message[message.length - 1] ?? "").trim() === "") message.pop();
  return [...message, ...kept.map((frame) => frame.text)];
}
