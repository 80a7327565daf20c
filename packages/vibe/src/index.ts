// The public API of @tools/vibe. Every export is named here; nothing else is public.

export { VibeList, createVibeList, vibeListKey } from "./list/vibe-list.js";
export type {
  KillOutcome,
  SendOptions,
  SendOutcome,
  SpawnRequest,
  VibeListOptions,
  WaitOutcome,
  WorkerEvent,
  WorkerEventListener,
} from "./list/vibe-list.js";
export { isFinished } from "./list/worker.js";
export type { WorkerFailure, WorkerSnapshot, WorkerStatus } from "./list/worker.js";

export { vibeTools } from "./tools/vibe-tools.js";
export { vibeSpawnTool } from "./tools/vibe-spawn.js";
export { vibeSendTool } from "./tools/vibe-send.js";
export { vibeWaitTool } from "./tools/vibe-wait.js";
export { vibeKillTool } from "./tools/vibe-kill.js";
export { vibeListTool } from "./tools/vibe-list.js";

export { workerTiers } from "./backends/worker-backend.js";
export type {
  TierModels,
  WorkerBackend,
  WorkerTask,
  WorkerTier,
  WorkerToolbox,
  WorkerToolOutcome,
} from "./backends/worker-backend.js";
export { createBackend, backendConfigSchema } from "./backends/backend-config.js";
export type { BackendConfig } from "./backends/backend-config.js";
export { createOpenAiBackend } from "./backends/openai-backend.js";
export { createAnthropicBackend } from "./backends/anthropic-backend.js";
export type { ModelBackendOptions } from "./backends/model-backend-options.js";
export { createCommandBackend } from "./backends/command-backend.js";
export type { CommandBackendOptions } from "./backends/command-backend.js";
export { defaultWorkerInstructions } from "./backends/worker-instructions.js";

export { VibeError } from "./errors/vibe-error.js";
export type { VibeErrorCode } from "./errors/vibe-error.js";
