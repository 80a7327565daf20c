// The public API of @tools/registry. Every export is named here; nothing else is public.

export { ToolsError, errorMessage } from "./errors/tools-error.js";
export type { RegistryErrorCode, ToolsErrorCode, ToolsErrorOptions } from "./errors/tools-error.js";

export { tiers, tierWithin, isTier } from "./tool/tier.js";
export type { Tier } from "./tool/tier.js";
export { defineTool, toolAvailability, toolInRun } from "./tool/define-tool.js";
export type { Availability, InputSchema, Tool, ToolDefinition, ToolInRun } from "./tool/define-tool.js";
export type { CallOrigin, NestedCallOptions, ToolCheckContext, ToolContext } from "./tool/tool-context.js";

export {
  appendText,
  errorResult,
  imagePart,
  partsResult,
  resultText,
  textResult,
  toToolResult,
} from "./result/tool-result.js";
export type {
  ContentPart,
  ImagePart,
  ResultError,
  TextPart,
  ToolOutput,
  ToolResult,
} from "./result/tool-result.js";
export { boundList, boundText, countNoun } from "./result/bounded-output.js";
export { headOf, tailOf } from "./result/whole-characters.js";
export type { BoundedText, TextBounds } from "./result/bounded-output.js";

export { Run, createRun } from "./run/run.js";
export type { Disposable, DisposeReport, ResourceEntry, RunOptions } from "./run/run.js";
export { resourceKey, stateKey } from "./run/resource-key.js";
export type { ResourceKey, StateKey } from "./run/resource-key.js";
export { terminateProcess } from "./run/owned-process.js";
export { idInUse, signalGroup } from "./run/process-group.js";
export type { TerminateOptions } from "./run/owned-process.js";
export { descendantsOf, outputTargets, processStat, signalProcesses, writersOf } from "./run/process-tree.js";
export type { ProcessIdentity } from "./run/process-tree.js";
export {
  createProcessMark,
  markedProcesses,
  processMarkVariable,
  settledMarkedProcesses,
} from "./run/process-mark.js";
export type { ProcessMark } from "./run/process-mark.js";

export { defineSurface, surfaces } from "./surface/surface.js";
export type { Surface } from "./surface/surface.js";

export { Registry, createRegistry, maxCallIdLength } from "./registry.js";
export type { InvokeRequest, RegistryOptions } from "./registry-options.js";
export type { ApprovalDecision, ApprovalPolicy, ApprovalRequest, Approver } from "./invoke/approval.js";
export type { CallInfo, Guardrail, ResultWrapper } from "./invoke/guardrail.js";
export { SerialLane } from "./invoke/serial-lane.js";
export { resolveInside, workspaceContainment } from "./guardrails/workspace-containment.js";

export { exportTools } from "./export/provider-formats.js";
export { toStrictSchema } from "./export/strict-schema.js";
export type {
  AnthropicToolSchema,
  JsonToolSchema,
  OpenAiToolSchema,
  SchemaFormat,
  ToolSchemaOf,
} from "./export/provider-formats.js";
export { toolJsonSchema } from "./export/json-schema.js";
export type { JsonSchema } from "./export/json-schema.js";
export { toolSignature } from "./export/tool-signature.js";

export type {
  CallApprovalEvent,
  CallEndEvent,
  CallEvent,
  CallEventListener,
  CallProgressEvent,
  CallStartEvent,
} from "./events/call-events.js";

export { warningNotes, writeFiles } from "./files/write-files.js";
export { nodeFileOperations } from "./files/file-operations.js";
export { fileNameMaxBytes } from "./files/temporary-name.js";
export { openRegularFile, readRegularFile, readRegularFileSync } from "./files/read-regular-file.js";
export { rejectOnAbort } from "./invoke/reject-on-abort.js";
export { closestName } from "./invoke/closest-name.js";
export type {
  ExpectedContent,
  FileChange,
  MovedFile,
  WriteFilesOptions,
  WriteOutcome,
} from "./files/write-files.js";
export type { FileOperations, FileStatus } from "./files/file-operations.js";
