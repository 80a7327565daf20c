import { ToolsError } from "../errors/tools-error.js";
import { isTier, type Tier } from "../tool/tier.js";

/**
 * Who is asking: the main agent, plan mode, a read-only subagent, a background worker, or a
 * surface of the harness's own. A surface sees exactly the wired tools whose tier is within its
 * cap.
 */
export interface Surface {
  /** Name used on the command line and in JSON-lines requests: `main`, `plan`, … */
  readonly name: string;
  /** Highest tier this surface sees. */
  readonly cap: Tier;
  /**
   * Write and exec calls on a gated surface always go to the approver, even when the registry's
   * approval policy is `auto` (a background worker's edits are approved where they happen).
   */
  readonly gated: boolean;
  /** How the surface reads in messages: "plan mode", "a read-only subagent". */
  readonly label: string;
  /**
   * Tools this surface never sees, whatever their tier (a background worker does not start or
   * steer other workers): absent from its schema, and refused (`NOT_ON_SURFACE`) when called,
   * directly or from inside another tool's call.
   */
  readonly hides?: ReadonlySet<string>;
}

/** Defines a surface of the harness's own. */
export function defineSurface(surface: {
  name: string;
  cap: Tier;
  gated?: boolean;
  label?: string;
  hides?: Iterable<string>;
}): Surface {
  if (!/^[a-z][a-z0-9_-]{0,63}$/.test(surface.name)) {
    throw new ToolsError({
      code: "INVALID_DEFINITION",
      message: `surface name '${surface.name}' must be lower-case letters, digits, '-' or '_'`,
    });
  }
  if (!isTier(surface.cap)) {
    throw new ToolsError({
      code: "INVALID_DEFINITION",
      message: `surface '${surface.name}': cap must be read, write or exec`,
    });
  }
  return Object.freeze({
    name: surface.name,
    cap: surface.cap,
    gated: surface.gated ?? false,
    label: surface.label ?? `the ${surface.name} surface`,
    ...(surface.hides ? { hides: new Set(surface.hides) } : {}),
  });
}

/**
 * What the built-in `worker` surface hides, as @tools/vibe's worker toolbox does: the vibe_*
 * tools (a worker never starts or steers workers: no nested fan-out) and `ask_user` (a worker
 * works from its brief and reports what it assumed; it does not question the operator).
 */
const workerHiddenTools = ["vibe_spawn", "vibe_send", "vibe_wait", "vibe_kill", "vibe_list", "ask_user"];

/** The built-in surfaces. */
export const surfaces = Object.freeze({
  /** The main agent: every tier. */
  main: defineSurface({ name: "main", cap: "exec", label: "the main agent" }),
  /** Plan mode: read tools only; write and exec tools are absent from its schema. */
  plan: defineSurface({ name: "plan", cap: "read", label: "plan mode" }),
  /** A read-only subagent (explorer): read tools only. */
  readonly: defineSurface({ name: "readonly", cap: "read", label: "a read-only subagent" }),
  /**
   * A background worker: every tier, but its write and exec calls always pass the approval gate;
   * the vibe_* tools and ask_user are hidden (a worker does not start or steer workers, nor
   * question the operator).
   */
  worker: defineSurface({
    name: "worker",
    cap: "exec",
    gated: true,
    label: "a background worker",
    hides: workerHiddenTools,
  }),
});
