import type { Diagnostic } from "vscode-languageserver-protocol";
import type { LspSupervisor } from "../supervisor/supervisor.js";
import type { BoundSteps } from "./call-bound.js";

/** What an action needs besides its arguments. */
export interface ActionContext {
  readonly supervisor: LspSupervisor;
  /** An argument path resolved inside the working directory. */
  readonly resolvePath: (path: string) => string;
  readonly progress: (message: string) => void;
  readonly signal: AbortSignal;
  /**
   * The call's one bound, when it has one (see `CallBound`): its steps record what they wait on,
   * and `signal` is the bound's.
   */
  readonly bound?: BoundSteps;
  /**
   * Records what this call showed, so diagnostics-on-write does not report it again; `all`, when
   * the list is fresh and complete, is everything the file has (what a later write compares with).
   */
  readonly recordShown?: (file: string, shown: readonly Diagnostic[], all?: readonly Diagnostic[]) => void;
}

/** The arguments of the `lsp` tool, after validation. */
export interface ActionInput {
  readonly action: string;
  readonly file?: string | undefined;
  readonly line?: number | undefined;
  readonly symbol?: string | undefined;
  readonly query?: string | undefined;
}
