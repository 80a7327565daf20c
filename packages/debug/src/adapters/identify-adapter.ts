import type { DebugProtocol } from "@vscode/debugprotocol";
import type { AdapterId } from "./detect-adapter.js";

/**
 * Which adapter answered `initialize`, from what its capabilities carry, or undefined when
 * they do not tell (a port attach cannot know beforehand what listens there):
 * - lldb-dap adds its own field: `__lldb` (`{version: "lldb version 19.1.7"}`) up to 20,
 *   `$__lldb_version` (a string) from 21 on;
 * - debugpy alone declares `supportsDebuggerProperties`, and pydevd's exception filters
 *   (`raised`, `uncaught`, `userUnhandled`);
 * - dart's filters are `All` and `Unhandled`;
 * - delve declares no exception filter at all, but instruction breakpoints and stepping
 *   granularity (measured on 1.20.2), and no modules request, which lldb-dap declares (an
 *   lldb-dap whose C++ exception filters are not listed otherwise looks the same).
 */
export function identifyAdapter(capabilities: DebugProtocol.Capabilities): AdapterId | undefined {
  if ("__lldb" in capabilities || "$__lldb_version" in capabilities) return "lldb";
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
    capabilities.supportsSteppingGranularity === true &&
    capabilities.supportsModulesRequest !== true
  )
    return "delve";
  return undefined;
}
