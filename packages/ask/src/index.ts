// The public API of @tools/ask. Every export is named here; nothing else is public.

export { AskError } from "./errors/ask-error.js";
export type { AskErrorCode } from "./errors/ask-error.js";

export { buildCard, cardLimits } from "./card/card.js";
export type { Card, CardInput, CardOption } from "./card/card.js";
export { renderCard, declineToken } from "./card/render-card.js";
export { checkReply, parseReply } from "./card/reply.js";
export type { CardReply } from "./card/reply.js";

export { questionPortKey, targetSpaceKey } from "./port/question-port.js";
export type { CardEvents, CardRequest, QuestionPort, TargetSpace } from "./port/question-port.js";
export { askCard } from "./ask/ask-card.js";
export type { AskOutcome } from "./ask/ask-card.js";

export { askUserTool, createAskUserTool, defaultAskTimeoutMs } from "./tools/ask-user-tool.js";
export type { AskUserToolOptions } from "./tools/ask-user-tool.js";
export { outcomeResult } from "./tools/format-outcome.js";

export {
  approvalCard,
  approvalChoices,
  createCardApprover,
  defaultApprovalTimeoutMs,
} from "./approval/card-approver.js";
export type { CardApproverOptions } from "./approval/card-approver.js";
export { summarizeArguments } from "./approval/summarize-arguments.js";

export { MemoryQuestionPort } from "./ports/memory-port.js";
export type { MemoryQuestionPortOptions, MemoryResponder, ShownCard } from "./ports/memory-port.js";
export { TerminalQuestionPort } from "./ports/terminal-port.js";
export type { TerminalQuestionPortOptions } from "./ports/terminal-port.js";
