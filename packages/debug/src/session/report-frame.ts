import { statSync } from "node:fs";
import { isAbsolute } from "node:path";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { relativeInside } from "./source-lines.js";

/** The frame a stop is reported at and `evaluate` runs in by default, with its place in the stack. */
export interface ReportFrame {
  readonly frame: DebugProtocol.StackFrame;
  /** 0 for the top frame; more when the frames above it have no source in the working directory. */
  readonly index: number;
}

/**
 * The frame a stop is about: the first whose source file exists inside the working directory
 * (after a pause the top frames are libc's or the Go runtime's), else the first whose source
 * file exists at all, else the top frame. Adapters name sources they have no file for (lldb's
 * relative libc paths, `<string>`): those are passed over. After a step (`reason` "step") the
 * first frame with an existing source is taken wherever it is: a step into a library lands in
 * the library, and says so.
 */
export function reportFrame(
  frames: readonly DebugProtocol.StackFrame[],
  root: string,
  reason?: string,
): ReportFrame | undefined {
  const existing = frames.map((frame) => sourceFile(frame));
  let index =
    reason === "step"
      ? -1
      : existing.findIndex((path) => path !== undefined && relativeInside(root, path) !== undefined);
  if (index < 0) index = existing.findIndex((path) => path !== undefined);
  if (index < 0) index = 0;
  const frame = frames[index];
  return frame ? { frame, index } : undefined;
}

function sourceFile(frame: DebugProtocol.StackFrame): string | undefined {
  const path = frame.source?.path;
  if (!path || !isAbsolute(path)) return undefined;
  try {
    return statSync(path).isFile() ? path : undefined;
  } catch {
    return undefined;
  }
}
