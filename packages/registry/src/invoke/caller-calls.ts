import { stateKey, type ResourceKey } from "../run/resource-key.js";
import type { Run } from "../run/run.js";
import type { Tool } from "../tool/define-tool.js";

/** An unfinished call that may change the state of the resources it requires. */
interface Unfinished {
  readonly requires: readonly ResourceKey<unknown>[];
  readonly ended: Promise<void>;
}

/**
 * Per run and caller (surface, caller, the call it calls from): its unfinished calls of tools that
 * require a resource of the run (any tier: a read-tier `vibe_kill` frees a worker's place).
 */
const unfinishedKey = stateKey("a caller's unfinished calls", () => new Map<string, Set<Unfinished>>());

/** A call's place among its caller's calls. */
export interface CallerCall {
  /**
   * The caller's calls that came before this one, had not finished when it came, and may change a
   * resource this call's tool requires (a batch's `vibe_kill` before its `vibe_spawn`): what its
   * check looks at. Empty when there were none.
   */
  readonly earlier: readonly Promise<void>[];
  /** Marks the call finished (idempotent): it is no longer earlier than any later call. */
  finish(): void;
}

const nothingEarlier: CallerCall = { earlier: [], finish: () => {} };

/**
 * Enters a call among its caller's calls as it arrives. `caller` names who calls (surface, caller
 * and the parent call, so a nested call never waits on the call it is made from). A call whose
 * tool requires no resource neither waits nor is waited on.
 */
export function enterCallerCall(run: Run, tool: Tool, caller: string): CallerCall {
  if (tool.requires.length === 0) return nothingEarlier;
  const unfinished = run.state(unfinishedKey);
  let calls = unfinished.get(caller);
  const earlier: Promise<void>[] = [];
  if (tool.check !== undefined && calls) {
    for (const call of calls) {
      if (call.requires.some((key) => tool.requires.some((own) => own.id === key.id)))
        earlier.push(call.ended);
    }
  }
  let settle!: () => void;
  const mine: Unfinished = {
    requires: tool.requires,
    ended: new Promise<void>((resolve) => (settle = resolve)),
  };
  if (!calls) {
    calls = new Set();
    unfinished.set(caller, calls);
  }
  const held = calls;
  held.add(mine);
  let finished = false;
  return {
    earlier,
    finish: () => {
      if (finished) return;
      finished = true;
      held.delete(mine);
      if (held.size === 0 && unfinished.get(caller) === held) unfinished.delete(caller);
      settle();
    },
  };
}
