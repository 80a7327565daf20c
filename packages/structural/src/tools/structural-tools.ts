import type { Tool } from "@tools/registry";
import { astEditTool } from "./ast-edit-tool.js";
import { astGrepTool } from "./ast-grep-tool.js";
import { resolveTool } from "./resolve-tool.js";

/** The three structural tools, ready for `createRegistry({ tools: structuralTools })`. */
export const structuralTools: readonly Tool[] = [astGrepTool, astEditTool, resolveTool];
