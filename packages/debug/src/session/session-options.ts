import type { AdapterProcess } from "../adapters/adapter-process.js";
import type { AdapterId } from "../adapters/detect-adapter.js";
import type { BreakpointStore } from "./breakpoint-store.js";
import type { OutputRing } from "./output-ring.js";

/** What a session is built from. */
export interface SessionOptions {
  readonly adapterId: AdapterId;
  /** One line: "debugpy: app.py a b" — the running session's description in a rejection. */
  readonly description: string;
  readonly root: string;
  readonly adapter: AdapterProcess;
  readonly breakpoints: BreakpointStore;
  /** How long continue / steps / pause wait for the next stop before saying "still running". */
  readonly resumeWaitMs: number;
  /** `disconnect.terminateDebuggee`: true for launch, false for attach. */
  readonly terminateDebuggee: boolean;
  /** Expression context: lldb needs `watch` (in `repl` names clash with LLDB commands). */
  readonly evaluateContext: string;
  /** False for adapters that never exit on disconnect (debugpy): no wait for it. */
  readonly exitsOnDisconnect?: boolean;
  /** Temporary files and folders removed when the session ends (delve's build output). */
  readonly cleanupPaths?: readonly string[];
  /** Output the adapter process writes for the debuggee (delve) is pushed into this ring. */
  readonly output?: OutputRing;
}
