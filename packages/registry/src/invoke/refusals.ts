import { ToolsError } from "../errors/tools-error.js";
import type { Surface } from "../surface/surface.js";
import type { Tool } from "../tool/define-tool.js";
import { tiers, type Tier } from "../tool/tier.js";
import { closestName } from "./closest-name.js";

const article: Record<Tier, string> = { read: "a read", write: "a write", exec: "an exec" };

function tiersUpTo(cap: Tier): string {
  const allowed = tiers.slice(0, tiers.indexOf(cap) + 1);
  return allowed.length === 1 ? `${allowed[0]} tools only` : `${allowed.join(" and ")} tools only`;
}

/** "ast_edit is a write tool; plan mode sees read tools only" */
export function tierExceeded(tool: Tool, surface: Surface): ToolsError {
  return new ToolsError({
    code: "TIER_EXCEEDED",
    message: `${tool.name} is ${article[tool.tier]} tool; ${surface.label} sees ${tiersUpTo(surface.cap)}`,
    data: { tool: tool.name, tier: tool.tier, surface: surface.name, cap: surface.cap },
  });
}

/** "vibe_spawn is not available to a background worker" */
export function hiddenFromSurface(name: string, surface: Surface): ToolsError {
  return new ToolsError({
    code: "NOT_ON_SURFACE",
    message: `${name} is not available to ${surface.label}; use the tools its schema lists`,
    data: { tool: name, surface: surface.name },
  });
}

/** An unknown tool, with a did-you-mean and the tools this surface does have. */
export function unknownTool(name: string, visible: readonly string[], surface: Surface): ToolsError {
  const guess = closestName(name, visible);
  const listing = visible.length > 0 ? visible.join(", ") : "none";
  return new ToolsError({
    code: "UNKNOWN_TOOL",
    message: `unknown tool '${name}'${guess ? ` (did you mean '${guess}'?)` : ""}; tools for ${surface.label}: ${listing}`,
    data: { tool: name, surface: surface.name },
  });
}

/** The tool exists but its backing resource is not wired in this run. */
export function notWired(tool: Tool, reason: string): ToolsError {
  return new ToolsError({
    code: "TOOL_NOT_WIRED",
    message: `${tool.name} is not available in this run: ${reason}`,
    data: { tool: tool.name },
  });
}

/** The call was cancelled (by its caller or because the run ended). */
export function cancelledCall(tool: string, signal: AbortSignal): ToolsError {
  const reason: unknown = signal.reason;
  if (ToolsError.isInstance(reason) && reason.code === "RUN_DISPOSED") {
    return new ToolsError({
      code: "RUN_DISPOSED",
      message: `${tool} was stopped: the run has ended`,
      cause: reason,
    });
  }
  return new ToolsError({ code: "CANCELLED", message: `${tool} was cancelled`, cause: reason });
}
