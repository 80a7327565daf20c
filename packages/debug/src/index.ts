// The public API of @tools/debug. Every export is named here; nothing else is public.

export { debugTool } from "./tool/debug-tool.js";
export { DebugSupervisor, createDebugSupervisor, debugSupervisorKey } from "./supervisor/debug-supervisor.js";
export type {
  ConversationDebug,
  DebugSupervisorOptions,
  SessionStart,
} from "./supervisor/debug-supervisor.js";
export { DebugSession } from "./session/debug-session.js";
export type {
  FramePage,
  Outcome,
  SessionState,
  StopInfo,
  VariableChildren,
} from "./session/debug-session.js";
export { adapterIds, adapterTable, detectAdapter, detectAdapters } from "./adapters/detect-adapter.js";
export type { AdapterId, AdapterReport, DetectOptions } from "./adapters/detect-adapter.js";
export { DapConnection, DapRequestError } from "./dap/dap-connection.js";
export { DebugError } from "./errors/debug-error.js";
export type { DebugErrorCode } from "./errors/debug-error.js";
export { limits } from "./session/limits.js";
