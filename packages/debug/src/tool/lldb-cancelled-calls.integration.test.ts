import type { DebugProtocol } from "@vscode/debugprotocol";
import { afterEach, describe, expect, it, vi } from "vitest";
import { DapConnection } from "../dap/dap-connection.js";
import type { DebugSession } from "../session/debug-session.js";
import { signalProcesses } from "@tools/registry";
import { ci, identify, until } from "../__fixtures__/harness.js";
import { inLldbSquare } from "../__fixtures__/lldb-square.js";
import { lldb } from "../__fixtures__/backends.js";

/** What went over the wire, in order: requests written and responses read. */
interface WireEvent {
  readonly way: "sent" | "answered";
  readonly seq: number;
  readonly command: string;
  readonly args: unknown;
}

/** Records the session's DAP traffic (the connection's own write and dispatch, called through). */
function recordWire(): () => WireEvent[] {
  const wire = DapConnection.prototype as unknown as {
    write(message: DebugProtocol.ProtocolMessage): void;
    dispatch(message: DebugProtocol.ProtocolMessage): void;
  };
  const write = vi.spyOn(wire, "write");
  const dispatch = vi.spyOn(wire, "dispatch");
  return () => {
    const events: Array<{ order: number; event: WireEvent }> = [];
    write.mock.calls.forEach(([message], index) => {
      if (message.type !== "request") return;
      const request = message as DebugProtocol.Request;
      events.push({
        order: write.mock.invocationCallOrder[index]!,
        event: { way: "sent", seq: request.seq, command: request.command, args: request.arguments },
      });
    });
    dispatch.mock.calls.forEach(([message], index) => {
      if (message.type !== "response") return;
      const response = message as DebugProtocol.Response;
      events.push({
        order: dispatch.mock.invocationCallOrder[index]!,
        event: { way: "answered", seq: response.request_seq, command: response.command, args: undefined },
      });
    });
    return events.sort((a, b) => a.order - b.order).map(({ event }) => event);
  };
}

/** square's and main's frames, and the reference of square's Locals. */
async function squareAndMain(session: DebugSession) {
  const [square, main] = (await session.stack()).frames;
  expect([square?.name, main?.name]).toEqual(["square", "main"]);
  const locals = (await session.scopes(square!.id)).find((scope) => scope.name === "Locals")!;
  return { square: square!, main: main!, squareLocals: locals.variablesReference };
}

afterEach(() => {
  vi.restoreAllMocks();
});

// A call whose caller is gone (a cancelled tool call) must not hold lldb-dap's one-at-a-time
// scopes/variables queue (see `scopeTurn`) for the next call, of the same caller or another:
// before, the next call waited until the cancelled call's answer came (up to its 10 s bound), and
// a call cancelled while it waited in the queue was still sent. lldb-dap 19 declares no
// `supportsCancelRequest`, so nothing asks it to stop a request it has; it answers in order.
describe.skipIf(!lldb && !ci)("debug tool on lldb-dap: a cancelled scopes or variables call", () => {
  it("lets the next call's request go out before the cancelled call's answer comes", async () => {
    await inLldbSquare(async (session, call) => {
      const { main, squareLocals } = await squareAndMain(session);
      expect(session.capabilities.supportsCancelRequest ?? false).toBe(false);
      const wire = recordWire();
      const adapter = identify([session.adapterPid!]);
      expect(adapter, "lldb-dap runs").toHaveLength(1);
      // lldb-dap held (SIGSTOP) stands for an adapter slow to answer: the cancelled call's request
      // stays unanswered, for certain, until it is let go on.
      expect(signalProcesses(adapter, "SIGSTOP")).toBe(1);
      try {
        const cancel = new AbortController();
        const cancelled = call({ op: "scopes", frame_id: main.id }, cancel.signal);
        // Its one request (lldb-dap is given the adapter's own frame id, not the tool's).
        const isMainScopes = (event: WireEvent) => event.way === "sent" && event.command === "scopes";
        expect(await until(() => wire().some(isMainScopes), 5000), "main's scopes went out").toBe(true);
        cancel.abort(new Error("the user cancelled it"));
        const answer = await cancelled;
        expect(answer.isError).toBe(true);
        expect(answer.code).toBe("CANCELLED");

        // The next call: square's locals, whose scope lldb-dap must bind to square again first.
        const sentAfter = wire().length;
        const next = call({ op: "variables", reference: squareLocals });
        // Its first request goes out while lldb-dap still holds the cancelled one (at most 5 s looked for).
        await until(
          () =>
            wire()
              .slice(sentAfter)
              .some((event) => event.way === "sent"),
          5000,
        );
        signalProcesses(adapter, "SIGCONT");
        const read = await next;
        expect(read.isError, read.text).toBe(false);
        expect(read.text).toMatch(/^n \(int\) = /m);
        expect(read.text).not.toContain("argc");

        const events = wire();
        const mainScopes = events.find(isMainScopes)!;
        const mainAnswered = events.findIndex(
          (event) => event.way === "answered" && event.seq === mainScopes.seq,
        );
        const nextSent = events.findIndex((event, index) => index >= sentAfter && event.way === "sent");
        expect(mainAnswered, "lldb-dap answered the cancelled scopes (in order)").toBeGreaterThan(0);
        expect(nextSent, "the next call's first request").toBeGreaterThan(0);
        // Before: the next call's first request (square's scopes) went out only after that answer.
        expect(nextSent).toBeLessThan(mainAnswered);
        // square's scopes, asked again: the cancelled call may have bound the scopes to main.
        expect(events[nextSent]?.command).toBe("scopes");
        expect(events[nextSent]?.args).not.toEqual(mainScopes.args);
      } finally {
        signalProcesses(adapter, "SIGCONT");
      }
    });
  });

  it("never sends a call cancelled while it waited for its turn, and answers the next one", async () => {
    await inLldbSquare(async (session) => {
      const { main, squareLocals } = await squareAndMain(session);
      const wire = recordWire();
      // Through the public DebugSession, which takes calls at once: the first call holds the
      // turn, the second waits behind it and is cancelled there, the third waits too.
      const first = session.variables(squareLocals);
      const cancel = new AbortController();
      const cancelled = session.scopes(main.id, cancel.signal).then(
        (scopes) => ({ answered: scopes }),
        (error: unknown) => ({ refused: error }),
      );
      const third = session.variables(squareLocals);
      cancel.abort(new Error("the user cancelled it"));
      const [before, after, given] = await Promise.all([first, third, cancelled]);
      // Before: main's scopes went out (and was answered) between the first and the third call.
      const sent = wire().filter((event) => event.way === "sent");
      expect(sent.map((event) => event.command)).toEqual(["variables", "variables"]);
      expect(given).toEqual({ refused: new Error("the user cancelled it") });
      expect(before.variables.map((variable) => variable.name)).toContain("n");
      expect(after.variables.map((variable) => variable.name)).toContain("n");
    });
  });
});

// An evaluate lists the stop's frames first when no call has yet (a stop that came with nobody
// waiting: after "still running", or a resume through the public DebugSession). Cancelled then,
// its expression was still sent once the listing came back, and ran: the model was told
// "cancelled" and the program's state changed all the same.
describe.skipIf(!lldb && !ci)("debug tool on lldb-dap: a cancelled evaluate", () => {
  it("never sends an expression cancelled while the stop's frames were listed", async () => {
    await inLldbSquare(async (session, call) => {
      // In main, a stop nobody has listed the frames of.
      expect((await session.resume("stepOut")).kind).toBe("stopped");
      const wire = recordWire();
      const adapter = identify([session.adapterPid!]);
      expect(signalProcesses(adapter, "SIGSTOP")).toBe(1);
      try {
        const cancel = new AbortController();
        const cancelled = call({ op: "evaluate", expression: "s = 4242" }, cancel.signal);
        const listing = (event: WireEvent) => event.way === "sent" && event.command === "stackTrace";
        expect(await until(() => wire().some(listing), 5000), "the stop's frames are listed").toBe(true);
        cancel.abort(new Error("the user cancelled it"));
        const answer = await cancelled;
        expect(answer.code).toBe("CANCELLED");
      } finally {
        signalProcesses(adapter, "SIGCONT");
      }
      // The listing's answer comes; the expression must not follow it.
      expect(await until(() => wire().some((event) => event.way === "answered"), 5000)).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(
        wire()
          .filter((event) => event.way === "sent")
          .map((event) => event.command),
      ).toEqual(["stackTrace"]);
      expect((await session.evaluate("s")).result).not.toBe("4242");
    });
  });
});

// `stack` took no signal (every other inspection did): a stack call given up (a cancelled or
// timeboxed tool call) through the public DebugSession waited for the adapter's answer (up to
// its 10 s bound), and through the tool its work went on after the cancel: a start past the end
// still sent a second stackTrace to count the frames, for nobody.
describe.skipIf(!lldb && !ci)("debug tool on lldb-dap: a cancelled stack", () => {
  it("rejects at once with the signal's reason, sends nothing more, and the session goes on", async () => {
    await inLldbSquare(async (session, call) => {
      const adapter = identify([session.adapterPid!]);
      expect(adapter, "lldb-dap runs").toHaveLength(1);
      const listing = (event: WireEvent) => event.way === "sent" && event.command === "stackTrace";
      for (const cancelled of [
        // Through the public DebugSession: its promise settles on the cancel.
        (signal: AbortSignal) =>
          session.stack(undefined, 100, signal).then(
            (page) => ({ answered: page }),
            (error: unknown) => ({ refused: error }),
          ),
        // Through the tool, as a timeboxed call of a model.
        (signal: AbortSignal) => call({ op: "stack", start_frame: 100 }, signal),
      ]) {
        const wire = recordWire();
        // lldb-dap held (SIGSTOP): the stackTrace stays unanswered, for certain, until let go on.
        expect(signalProcesses(adapter, "SIGSTOP")).toBe(1);
        let settled = false;
        try {
          const cancel = new AbortController();
          const given = cancelled(cancel.signal).finally(() => {
            settled = true;
          });
          expect(await until(() => wire().some(listing), 5000), "the stack's frames are asked").toBe(true);
          cancel.abort(new Error("the call took too long"));
          // Before: the session's promise settled only once lldb-dap answered (here: let go on).
          expect(await until(() => settled, 5000), "settled while lldb-dap is held").toBe(true);
          const answer = await given;
          if ("code" in answer) expect(answer.code).toBe("CANCELLED");
          else expect(answer).toEqual({ refused: new Error("the call took too long") });
        } finally {
          signalProcesses(adapter, "SIGCONT");
        }
        // The held stackTrace's answer comes; no request of the cancelled call follows it.
        expect(await until(() => wire().some((event) => event.way === "answered"), 5000)).toBe(true);
        await new Promise((resolve) => setTimeout(resolve, 300));
        // Before: a second stackTrace (counting the frames for the refusal) went out after the cancel.
        expect(
          wire()
            .filter((event) => event.way === "sent")
            .map((event) => event.command),
        ).toEqual(["stackTrace"]);
        vi.restoreAllMocks();
      }
      // The session goes on: the stop's frames are listed and read as before.
      const listed = await call({ op: "stack" });
      expect(listed.isError, listed.text).toBe(false);
      expect(listed.text).toMatch(/#0 frame \d+ square at prog\.c:4/);
      expect((await session.evaluate("n")).result).toBe("0");
    });
  });
});
