import { constants } from "node:os";
import type { AdapterId } from "../adapters/detect-adapter.js";
import type { StopInfo } from "./session-state.js";

/** A signal's number to its name, for the standard signals (1–31 on Linux). */
const signalNames = new Map<number, string>(
  Object.entries(constants.signals)
    .filter(([, number]) => number >= 1 && number <= 31)
    .map(([name, number]) => [number, name]),
);

/** A signal that ended a program: "SIGSEGV", 11. */
export interface ExitSignal {
  readonly name: string;
  readonly number: number;
  /**
   * The exit code it was read from, when the program could have exited with that code itself
   * (debugpy's 256 − n after `os._exit(256 − n)`, lldb's 9 after `exit(9)`): the phrase then
   * says so.
   */
  readonly fromCode?: number;
  /** The call that would also give {@link fromCode} (debugpy's `os._exit`). */
  readonly alsoBy?: string;
  /** How the signal was told when the adapter reports none (lldb's -1 after a kill while stopped). */
  readonly told?: string;
  /**
   * The code is as likely the program's own (lldb's 9: `exit(9)` or SIGKILL): the phrase says the
   * exit code first, then the signal it may stand for.
   */
  readonly codeFirst?: boolean;
}

/** The standard signal `number` (1–31), e.g. 9 → SIGKILL; undefined for others. */
export function signalNamed(number: number): ExitSignal | undefined {
  return named(number);
}

function named(number: number, fromCode?: number, alsoBy?: string): ExitSignal | undefined {
  const name = signalNames.get(number);
  if (!name) return undefined;
  return fromCode === undefined ? { name, number } : { name, number, fromCode, alsoBy };
}

/**
 * The signal that killed the program, read from the exit code an adapter reports, only where
 * the adapter's code is known to stand for one (an exit code alone cannot tell `exit(11)` from
 * SIGSEGV):
 * - lldb-dap reports a death by signal as the signal's number, and lldb stops on every signal
 *   but SIGKILL first: the code is the signal when the last stop was that signal ("signal
 *   SIGSEGV: …") and the program was resumed from it. SIGKILL gives no stop: a running program
 *   killed by it is reported as 9, as `exit(9)` is (the phrase says the code, then the signal); a stopped one makes
 *   lldb lose it and report -1, and only SIGKILL ends a stopped program (`stopped`: the program
 *   was stopped when it ended).
 * - debugpy's launcher reports Popen's negative returncode cut to 8 bits (-9 → 247). A Python
 *   program exits with such a code itself only through `sys.exit(N)`, which first stops the
 *   session as an uncaught SystemExit, or `os._exit(N)`; so 256 − n for a standard signal n is
 *   that signal unless the last stop was a SystemExit. A negative code is always a signal.
 * - delve reports a death by signal as the negated signal number (-9 for SIGKILL).
 * Other adapters' codes are taken as they come.
 */
export function exitSignal(
  adapter: AdapterId,
  exitCode: number | undefined,
  lastStop: StopInfo | undefined,
  stopped = false,
): ExitSignal | undefined {
  if (exitCode === undefined) return undefined;
  switch (adapter) {
    case "lldb": {
      if (exitCode === -1 && stopped) {
        return {
          name: "SIGKILL",
          number: 9,
          told: "while stopped: lldb-dap lost it and reports -1, and only SIGKILL ends a stopped program",
        };
      }
      const onSignal =
        lastStop?.reason === "exception" ? /\bsignal (SIG[A-Z0-9]+)/.exec(lastStop.description ?? "") : null;
      const signal = named(exitCode);
      if (onSignal && signal?.name === onSignal[1]) return signal;
      return exitCode === 9 && !stopped
        ? { name: "SIGKILL", number: 9, fromCode: 9, codeFirst: true }
        : undefined;
    }
    case "debugpy": {
      if (exitCode < 0) return named(-exitCode);
      if (exitCode < 256 - 31 || exitCode > 255) return undefined;
      const stop = `${lastStop?.description ?? ""} ${lastStop?.text ?? ""}`;
      return /\bSystemExit\b/.test(stop) ? undefined : named(256 - exitCode, exitCode, "os._exit");
    }
    case "delve":
      // delve reports a death by signal as the signal's negated number ("exited with status -9");
      // a Go program cannot exit with a negative code itself (os.Exit(-9) gives 247).
      return exitCode < 0 ? named(-exitCode) : undefined;
    default:
      return undefined;
  }
}

/**
 * "was killed by signal SIGSEGV (11)", "exited with code 3", or "exited" when nothing is known;
 * a signal read from a code the program could have exited with itself says so.
 */
export function exitPhrase(exit: { exitCode: number | undefined; signal?: ExitSignal }): string {
  const { signal } = exit;
  if (signal?.codeFirst) {
    return `exited with code ${signal.fromCode} (or was killed by signal ${signal.name} (${signal.number}), which the adapter reports the same)`;
  }
  if (signal?.fromCode !== undefined) {
    return `was killed by signal ${signal.name} (${signal.number}) (exit code ${signal.fromCode}, which ${signal.alsoBy ?? "exit"}(${signal.fromCode}) would also give)`;
  }
  if (signal?.told) return `was killed by signal ${signal.name} (${signal.number}) ${signal.told}`;
  if (signal) return `was killed by signal ${signal.name} (${signal.number})`;
  return exit.exitCode === undefined ? "exited" : `exited with code ${exit.exitCode}`;
}
