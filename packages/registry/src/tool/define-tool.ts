import { z } from "zod";
import { ToolsError, errorMessage } from "../errors/tools-error.js";
import type { ToolOutput } from "../result/tool-result.js";
import type { ResourceKey } from "../run/resource-key.js";
import type { Run } from "../run/run.js";
import type { ToolCheckContext, ToolContext } from "./tool-context.js";
import { isTier, type Tier } from "./tier.js";

/** Any zod object schema: a tool's arguments are always a JSON object. */
export type InputSchema = z.ZodObject;

/** What {@link defineTool} takes. */
export interface ToolDefinition<S extends InputSchema> {
  /** Wire name: letters, digits, `_` or `-`, at most 64 (the strictest provider's rule). */
  name: string;
  /** Approval tier; decides visibility on capped surfaces and whether the gate asks. */
  tier: Tier;
  /** Product text the model reads: what it does, when to use it, one example. */
  description: string;
  /** Arguments. Field `.describe()` texts become the schema's descriptions. */
  input: S;
  /**
   * False for tools whose calls depend on state left by the previous call (debug, eval): they
   * run one at a time per run and conversation, in arrival order.
   */
  parallelSafe: boolean;
  /** Resources that must be wired for the tool to be registered in a run. */
  requires?: readonly ResourceKey<unknown>[];
  /**
   * A further registration condition: `true`, or why the tool is not available. Checked after
   * `requires`; keep it cheap and free of I/O (detection belongs in the tool's own calls).
   */
  available?: (run: Run) => true | string;
  /**
   * The files a call acts on, checked by the workspace-containment guardrail before it runs: its
   * path arguments, or what its arguments name in the run's state (a staged change's files).
   */
  paths?: (input: z.output<S>, run: Run) => readonly string[];
  /** One line for the approval card: "stage 12 replacements in 4 files". */
  summarize?: (input: z.output<S>) => string;
  /**
   * The tool as one run has it, when its tier (and so its visibility and approval), description
   * or card line depend on what is wired for the run: `vibe_spawn` is an exec tool on a backend
   * whose workers act without the approval gate. Return what differs, or `undefined` for the
   * definition as it is. Cheap and free of I/O, like `available`; the registry asks on every
   * schema and every call.
   */
  inRun?: (run: Run) => ToolInRun<S> | undefined;
  /**
   * Refuses, before the operator is asked, a call its arguments allow but the run's state does not
   * (an unknown worker id, a limit reached): throw a ToolsError saying what is wrong and what to
   * do, and the call fails with it at once — no approval card, no wait for its lane. Runs after
   * validation and the guardrails, under the call's signal (a cancel ends the wait for it), and
   * again, with the guardrails, as a call that waited (its card, its lane) starts. A call refused
   * while the same caller's earlier calls of tools sharing one of its `requires`
   * resources run is checked again once they have finished (a batch's kill before its spawn).
   * Keep it cheap and free of side effects; a check that throws anything but a ToolsError fails the call with
   * `TOOL_FAILED`. The state may change while a card is open: `execute` still checks for itself.
   */
  check?: (input: Readonly<z.output<S>>, context: ToolCheckContext) => void | Promise<void>;
  /** Does the work. Throw a ToolsError for a failure the model should read. */
  execute: (input: z.output<S>, context: ToolContext) => ToolOutput | Promise<ToolOutput>;
}

/** What {@link ToolDefinition.inRun} may change for one run. */
export interface ToolInRun<S extends InputSchema = InputSchema> {
  readonly tier?: Tier;
  readonly description?: string;
  readonly summarize?: (input: z.output<S>) => string;
}

/** A defined tool, as the registry holds it. */
export interface Tool<S extends InputSchema = InputSchema> extends Readonly<ToolDefinition<S>> {
  readonly requires: readonly ResourceKey<unknown>[];
}

/** Either the tool is registered in the run, or why not. */
export type Availability = { readonly ok: true } | { readonly ok: false; readonly reason: string };

const namePattern = /^[a-zA-Z0-9_-]{1,64}$/;

/**
 * Defines a tool. Checks the definition once, here, so a bad definition fails at start-up rather
 * than on the model's first call.
 */
export function defineTool<S extends InputSchema>(definition: ToolDefinition<S>): Tool<S> {
  const problems: string[] = [];
  if (!namePattern.test(definition.name)) problems.push("name must match ^[a-zA-Z0-9_-]{1,64}$");
  if (!isTier(definition.tier)) problems.push("tier must be read, write or exec");
  if (typeof definition.description !== "string" || definition.description.trim() === "") {
    problems.push("description must be non-empty product text");
  }
  if (!(definition.input instanceof z.ZodObject)) problems.push("input must be a zod object schema");
  if (typeof definition.parallelSafe !== "boolean") problems.push("parallelSafe must be true or false");
  if (typeof definition.execute !== "function") problems.push("execute must be a function");
  for (const hook of ["paths", "summarize", "available", "inRun", "check"] as const) {
    if (definition[hook] !== undefined && typeof definition[hook] !== "function") {
      problems.push(`${hook} must be a function`);
    }
  }
  if (definition.requires !== undefined && !isKeyList(definition.requires)) {
    problems.push("requires must be a list of resource keys ([resourceKey(name)])");
  }
  if (problems.length > 0) {
    throw new ToolsError({
      code: "INVALID_DEFINITION",
      message: `tool '${String(definition.name)}' is badly defined: ${problems.join("; ")}`,
    });
  }
  return Object.freeze({ ...definition, requires: definition.requires ?? [] });
}

/**
 * The tool as `run` has it: the definition with what its `inRun` changes for this run (tier,
 * description, card line), or the tool itself when nothing changes.
 */
export function toolInRun<S extends InputSchema>(tool: Tool<S>, run: Run): Tool<S> {
  if (!tool.inRun) return tool;
  let changes: ToolInRun<S> | undefined;
  try {
    changes = tool.inRun(run);
  } catch (error) {
    // Which tier the tool has in this run is unknown: it is left out rather than shown at its
    // definition's (perhaps lower) tier, and a call is told why.
    const reason = `its inRun(run) failed (${errorMessage(error)})`;
    return Object.freeze({ ...tool, available: () => reason });
  }
  if (!changes) return tool;
  const changed = { ...tool };
  if (changes.tier !== undefined && isTier(changes.tier)) changed.tier = changes.tier;
  if (typeof changes.description === "string" && changes.description.trim() !== "")
    changed.description = changes.description;
  if (typeof changes.summarize === "function") changed.summarize = changes.summarize;
  return Object.freeze(changed);
}

/** Whether the tool's backing resources are wired in this run (its registration condition). */
export function toolAvailability(tool: Tool, run: Run): Availability {
  const missing = tool.requires.filter((key) => !run.has(key)).map((key) => key.name);
  if (missing.length > 0) {
    return { ok: false, reason: `no ${missing.join(" and no ")} is wired for this run` };
  }
  if (tool.available) {
    let verdict: unknown;
    try {
      verdict = tool.available(run);
    } catch (error) {
      // One tool's broken check must not break the listing of every other tool.
      return { ok: false, reason: `its availability check failed (${errorMessage(error)})` };
    }
    if (verdict !== true) {
      const reason =
        typeof verdict === "string" && verdict.trim() !== ""
          ? verdict
          : `its availability check answered ${String(verdict)} instead of true or a reason`;
      return { ok: false, reason };
    }
  }
  return { ok: true };
}

/** A list of resource keys, as `requires` takes. */
function isKeyList(value: unknown): boolean {
  return (
    Array.isArray(value) &&
    value.every(
      (key: unknown) =>
        typeof key === "object" &&
        key !== null &&
        typeof (key as { id?: unknown }).id === "symbol" &&
        typeof (key as { name?: unknown }).name === "string",
    )
  );
}
