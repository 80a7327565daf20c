import type { Tool } from "@tools/registry";
import { applyPatchTool } from "./apply-patch.js";
import { editTool } from "./edit.js";
import { grepTool } from "./grep.js";
import { readTool } from "./read.js";
import { shellTool } from "./shell.js";
import { writeTool } from "./write.js";

/** The harness's own general tools: read and grep (read), write, edit and apply_patch (write), shell (exec). */
export const harnessTools: readonly Tool[] = [
  readTool,
  grepTool,
  writeTool,
  editTool,
  applyPatchTool,
  shellTool,
];

export { applyPatchTool, editTool, grepTool, readTool, shellTool, writeTool };
