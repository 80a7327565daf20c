import type { ExitSignal } from "./exit-signal.js";

/** Where the session is. `exited`: the program ended; `ended`: the session is over. */
export type SessionState = "starting" | "running" | "stopped" | "exited" | "ended";

/** The last stop, normalised across adapters; the reason is never dropped. */
export interface StopInfo {
  readonly reason: string;
  readonly description: string | undefined;
  readonly text: string | undefined;
  readonly threadId: number | undefined;
  readonly hitBreakpointIds: readonly number[];
  /**
   * The adapter sent it with `preserveFocusHint`: one of several threads stopped at once, not
   * the one the stop is about (lldb-dap sends a `stopped` event for every thread with a reason).
   */
  readonly secondary?: boolean;
}

/** How a resume, a pause or the launch came back. */
export type Outcome =
  | { readonly kind: "stopped"; readonly stop: StopInfo }
  | {
      readonly kind: "exited";
      readonly exitCode: number | undefined;
      /** The signal that killed the program, where the adapter's exit code is known to mean one. */
      readonly signal?: ExitSignal;
      /** Background processes the program left running, ended with the session (once it has ended). */
      readonly leftBehind?: number;
    }
  | { readonly kind: "ended"; readonly reason: string }
  | { readonly kind: "timeout" };
