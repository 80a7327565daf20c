// The public API of @tools/kernel. Every export is named here; nothing else is public.

export { evalTool } from "./eval/eval-tool.js";
export { createKernelFactory, kernelFactoryKey } from "./factory/kernel-factory.js";
export type { KernelFactory, KernelFactoryOptions, KernelSettings } from "./factory/kernel-factory.js";
export { KernelClient } from "./client/kernel-client.js";
export type { InterruptAttempt, KernelConnectOptions, KernelLanguage } from "./client/kernel-client.js";
export type { ExecuteHandlers, ExecuteOutcome, KernelOutput, MimeBundle } from "./client/kernel-output.js";
export { defaultOutputLimits } from "./eval/output-limits.js";
export type { OutputLimits } from "./eval/output-limits.js";
export { rewriteCell } from "./eval/rewrite-cell.js";
export { KernelError } from "./kernel-error.js";
export type { KernelErrorCode } from "./kernel-error.js";
