import { describe, expect, it } from "vitest";
import { exportTools } from "@tools/registry";
import * as api from "./index.js";

describe("the public API", () => {
  it("exports exactly these names", () => {
    expect(Object.keys(api).sort()).toEqual([
      "AskError",
      "MemoryQuestionPort",
      "TerminalQuestionPort",
      "approvalCard",
      "approvalChoices",
      "askCard",
      "askUserTool",
      "buildCard",
      "cardLimits",
      "checkReply",
      "createAskUserTool",
      "createCardApprover",
      "declineToken",
      "defaultApprovalTimeoutMs",
      "defaultAskTimeoutMs",
      "outcomeResult",
      "parseReply",
      "questionPortKey",
      "renderCard",
      "summarizeArguments",
      "targetSpaceKey",
    ]);
  });

  it("names the resources ask_user needs so a missing one reads well", () => {
    expect(api.askUserTool.requires.map((key) => key.name)).toEqual([
      "question port",
      "question target space",
    ]);
    expect(api.askUserTool.tier).toBe("read");
  });

  it("exports ask_user's schema in every provider format", () => {
    for (const format of ["json", "anthropic", "openai"] as const) {
      expect(JSON.stringify(exportTools([api.askUserTool], format))).toContain("allow_free_text");
    }
  });
});
