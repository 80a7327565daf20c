import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { afterAll, describe, expect, it } from "vitest";
import { reportFrame } from "./report-frame.js";

function frame(id: number, path: string | undefined): DebugProtocol.StackFrame {
  return { id, name: `f${id}`, line: 1, column: 1, source: path === undefined ? undefined : { path } };
}

describe("reportFrame", () => {
  const root = mkdtempSync(join(tmpdir(), "debug-frames-"));
  const outside = mkdtempSync(join(tmpdir(), "debug-frames-lib-"));
  writeFileSync(join(root, "loop.c"), "int main(void) {}\n");
  writeFileSync(join(outside, "proc.go"), "package runtime\n");
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  it("passes over sources without a file and sources outside the working directory", () => {
    const frames = [
      frame(1, "sysdeps/unix/sysv/linux/clock_nanosleep.c"),
      frame(2, join(outside, "proc.go")),
      frame(3, join(root, "missing.c")),
      frame(4, join(root, "loop.c")),
    ];
    expect(reportFrame(frames, root)).toEqual({ frame: frames[3], index: 3 });
  });

  it("falls back to the first existing source, then to the top frame", () => {
    const library = [frame(1, "relative.c"), frame(2, join(outside, "proc.go"))];
    expect(reportFrame(library, root)).toEqual({ frame: library[1], index: 1 });
    const none = [frame(1, undefined), frame(2, "<string>")];
    expect(reportFrame(none, root)).toEqual({ frame: none[0], index: 0 });
    expect(reportFrame([], root)).toBeUndefined();
  });

  it("after a step, takes the first existing source wherever it is: a step into a library lands there", () => {
    const frames = [
      frame(1, "relative.c"),
      frame(2, join(outside, "proc.go")),
      frame(3, join(root, "loop.c")),
    ];
    expect(reportFrame(frames, root, "step")).toEqual({ frame: frames[1], index: 1 });
    expect(reportFrame(frames, root, "pause")).toEqual({ frame: frames[2], index: 2 });
  });
});
