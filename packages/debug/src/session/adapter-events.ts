import type { DebugProtocol } from "@vscode/debugprotocol";
import { configure } from "./handshake.js";
import type { SessionCore } from "./session-core.js";
import type { StopInfo } from "./session-state.js";

/**
 * What an adapter event changes in the session: our own stopped/running state (one stop per
 * resume, however many threads lldb-dap reports in it), the exit and its code, the debuggee's
 * pid, the program's output and the breakpoints' verification.
 */
export function onAdapterEvent(core: SessionCore, event: DebugProtocol.Event): void {
  switch (event.event) {
    case "initialized": {
      core.markInitialized();
      // An adapter that asks again (a restart inside the adapter) gets the breakpoints again.
      if (core.configured) void configure(core).catch(() => undefined);
      break;
    }
    case "output": {
      const body = (event as DebugProtocol.OutputEvent).body;
      if (body.category === "telemetry") break;
      // delve sends no `exited` event (and says it after `terminated`); its console line has the code.
      const status = /has exited with status (-?\d+)/.exec(body.output);
      if (status && core.exitCode === undefined && core.exitIsTheProgramsOwn()) {
        core.exitCode = Number(status[1]);
        core.exitSignal ??= core.signalOfExit(core.exitCode);
      }
      // After disconnect only the adapter's own noise comes (lldb-dap-19 aborts at exit).
      if (!core.terminating) core.output.push(body.category ?? "console", body.output);
      break;
    }
    case "process": {
      const pid = (event as DebugProtocol.ProcessEvent).body.systemProcessId;
      if (pid) core.learnDebuggee(pid);
      break;
    }
    case "stopped": {
      const body = (event as DebugProtocol.StoppedEvent).body;
      // lldb-dap stops a paused program with SIGSTOP and reports that as an exception.
      const paused =
        core.pauseRequested &&
        body.reason === "exception" &&
        /\bSIGSTOP\b/.test(`${body.description ?? ""} ${body.text ?? ""}`);
      core.pauseRequested = false;
      const stop: StopInfo = {
        reason: paused ? "pause" : body.reason,
        description: paused ? undefined : body.description,
        text: paused ? undefined : body.text,
        threadId: body.threadId ?? core.lastStop?.threadId,
        hitBreakpointIds: body.hitBreakpointIds ?? [],
        secondary: body.preserveFocusHint === true,
      };
      // Another thread's event of the same stop (nothing resumed since): lldb-dap sends one
      // per thread with a reason, the thread it focuses not necessarily first. It joins the
      // stop; it replaces the reported one only when it is the focus and that one was not.
      const current = core.lastStop;
      if (
        core.state === "stopped" &&
        current &&
        stop.threadId !== undefined &&
        current.threadId !== undefined &&
        stop.threadId !== current.threadId
      ) {
        if (current.secondary && !stop.secondary) {
          core.alsoStopped.set(current.threadId, current);
          core.alsoStopped.delete(stop.threadId);
          core.lastStop = stop;
        } else {
          core.alsoStopped.set(stop.threadId, stop);
        }
        break;
      }
      core.invalidate();
      core.state = "stopped";
      core.lastStop = stop;
      core.settle({ kind: "stopped", stop: core.lastStop });
      break;
    }
    case "continued": {
      if (core.state === "stopped") {
        core.invalidate();
        core.state = "running";
      }
      break;
    }
    case "exited": {
      if (core.exitIsTheProgramsOwn()) {
        core.exitCode = (event as DebugProtocol.ExitedEvent).body.exitCode;
        core.exitSignal = core.signalOfExit(core.exitCode);
      }
      break;
    }
    case "terminated": {
      core.programExited();
      break;
    }
    case "breakpoint": {
      const { breakpoint } = (event as DebugProtocol.BreakpointEvent).body;
      if (breakpoint.id !== undefined) {
        core.options.breakpoints.update(breakpoint.id, {
          line: breakpoint.line,
          verified: breakpoint.verified,
          message: breakpoint.message,
        });
      }
      break;
    }
    default:
      break;
  }
}
