import type { DebugProtocol } from "@vscode/debugprotocol";
import type { AdapterId } from "./detect-adapter.js";

/**
 * Which adapter answered `initialize`, from what its capabilities carry, or undefined when
 * they do not tell (a port attach cannot know beforehand what listens there):
 * - lldb-dap adds its own `__lldb` field (`{version: "lldb version 19.1.7"}`);
 * - debugpy alone declares `supportsDebuggerProperties`, and pydevd's exception filters
 *   (`raised`, `uncaught`, `userUnhandled`);
 * - dart's filters are `All` and `Unhandled`;
 * - delve declares no exception filter at all, but instruction breakpoints and stepping
 *   granularity (measured on 1.20.2).
 */
export function identifyAdapter(capabilities: DebugProtocol.Capabilities): AdapterId | undefined {
  if ("__lldb" in capabilities) return "lldb";
  const filters = (capabilities.exceptionBreakpointFilters ?? []).map((filter) => filter.filter);
  if (
    (capabilities as { supportsDebuggerProperties?: boolean }).supportsDebuggerProperties === true ||
    filters.includes("userUnhandled")
  )
    return "debugpy";
  if (filters.includes("All") && filters.includes("Unhandled")) return "dart";
  if (
    filters.length === 0 &&
    capabilities.supportsInstructionBreakpoints === true &&
    capabilities.supportsSteppingGranularity === true
  )
    return "delve";
  return undefined;
}
