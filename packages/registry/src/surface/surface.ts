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
  if (surface.gated !== undefined && typeof surface.gated !== "boolean") {
    throw new ToolsError({
      code: "INVALID_DEFINITION",
      message: `surface '${surface.name}': gated must be true or false`,
    });
  }
  if (surface.label !== undefined && (typeof surface.label !== "string" || surface.label.trim() === "")) {
    throw new ToolsError({
      code: "INVALID_DEFINITION",
      message: `surface '${surface.name}': label must be non-empty text ("the editor")`,
    });
  }
  const hides = surface.hides === undefined ? undefined : hiddenNames(surface.name, surface.hides);
  return Object.freeze({
    name: surface.name,
    cap: surface.cap,
    gated: surface.gated ?? false,
    label: surface.label ?? `the ${surface.name} surface`,
    ...(hides ? { hides } : {}),
  });
}

/** A surface's hidden tool names: a list of names (a lone string would be hidden letter by letter). */
function hiddenNames(surface: string, hides: unknown): ReadonlySet<string> {
  const names =
    typeof hides === "object" && hides !== null && Symbol.iterator in hides
      ? [...(hides as Iterable<unknown>)]
      : undefined;
  if (!names || !names.every((name) => typeof name === "string")) {
    throw new ToolsError({
      code: "INVALID_DEFINITION",
      message: `surface '${surface}': hides must be a list of tool names (["ask_user"]), not ${typeof hides === "string" ? "one string" : typeof hides}`,
    });
  }
  return new Set(names as string[]);
}

/** A surface as the chain uses it (duck-typed: a second copy of this package makes its own). */
export function isSurface(value: unknown): value is Surface {
  const candidate = value as Partial<Surface> | null;
  return (
    typeof candidate === "object" &&
    candidate !== null &&
    typeof candidate.name === "string" &&
    isTier(candidate.cap) &&
    typeof candidate.gated === "boolean" &&
    typeof candidate.label === "string"
  );
}

/**
 * What the built-in `worker` surface hides, as `@tools/vibe`'s worker toolbox does: the vibe_*
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
