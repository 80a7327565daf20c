import { declineToken, TerminalQuestionPort, type QuestionPort } from "@tools/ask";
import { resultText, type ApprovalPolicy } from "@tools/registry";
import { vibeListKey, type WorkerBackend } from "@tools/vibe";
import { createDemoRun, noApproverHintFor } from "../create-demo-run.js";
import { SessionLines } from "./session-lines.js";
import { argTypesFrom, parseTypedCall, type TypedCall } from "./typed-call.js";
import { followWorkers } from "./worker-notices.js";

/** Options of {@link interactive}. */
export interface InteractiveOptions {
  readonly workingDirectory: string;
  readonly approval: ApprovalPolicy;
  readonly pythonPath?: string;
  /** Turns vibe mode on: the backend background workers run on (`--vibe`, `--vibe-command`). */
  readonly vibeBackend?: WorkerBackend;
}

/** The banner's example calls: each one runs as typed (and finds something) on the sample workspace. */
const bannerExamples = [
  "read path=src/greet.ts limit=5",
  'ast_grep {"pattern": "$A.map($F)", "language": "typescript"}',
] as const;

/**
 * A terminal session in one run: type a tool call, see its result. ask_user and permission cards
 * are drawn in the terminal and answered there (the terminal question port is the approver).
 * One reader of the terminal serves the whole session, so lines pasted (or piped) together each
 * run in turn; while a card is open, what is typed answers the card, and on a secret card (a cell's
 * `getpass()`) nothing of it is drawn. Ctrl+C declines an open card, cancels a running call, drops
 * what was typed at the prompt, and at an empty prompt ends the session. Ctrl+D on a card's empty
 * line declines it too; at an empty prompt it ends the session.
 */
export async function interactive(options: InteractiveOptions): Promise<void> {
  const out = process.stdout;
  const lines = new SessionLines(process.stdin, out);
  const terminal = new TerminalQuestionPort({
    input: lines.cardInput,
    output: lines.cardOutput,
    attached: () => process.stdin.isTTY === true && out.isTTY === true && !lines.closed,
  });
  const port: QuestionPort = {
    reportsShown: true,
    attached: () => terminal.attached(),
    ask: (request, signal, events) =>
      lines.duringCard(() => {
        if (request.card.secret !== true) return terminal.ask(request, signal, events);
        // A secret card (a cell's getpass()): typing is hidden from when it is drawn (not while it
        // waits behind another card) until it is answered.
        let reveal: (() => void) | undefined;
        return terminal
          .ask(request, signal, {
            shown: () => {
              reveal ??= lines.hideTyping();
              events?.shown();
            },
          })
          .finally(() => reveal?.());
      }),
  };
  const demo = createDemoRun({
    workingDirectory: options.workingDirectory,
    approval: options.approval,
    questionPort: port,
    noApproverHint: noApproverHintFor({
      mode: "interactive",
      notTerminal: [
        ...(process.stdin.isTTY === true ? [] : (["stdin"] as const)),
        ...(out.isTTY === true ? [] : (["stdout"] as const)),
      ],
    }),
    ...(options.pythonPath === undefined ? {} : { pythonPath: options.pythonPath }),
    ...(options.vibeBackend === undefined ? {} : { vibeBackend: options.vibeBackend }),
  });
  out.write(
    `harness-demo interactive: run ${demo.run.id} in ${demo.run.workingDirectory} (approval ${options.approval}${options.vibeBackend ? `, vibe on ${options.vibeBackend.description}` : ""})\n` +
      `Type a call: ${bannerExamples[0]}, or ${bannerExamples[1]}; "tools" lists them; "exit" ends.\n`,
  );
  // Typed values become numbers or booleans only where the tool's schema takes one.
  const argTypes = argTypesFrom(demo.registry.schema(demo.run, "main", "json"));
  const off = demo.registry.on((event) => {
    if (event.type === "call-progress" && event.tool !== "eval") lines.print(`  … ${event.message}\n`);
  });
  // Background workers (vibe mode) show as they start, work and end, between calls and prompts;
  // of the progress lines that wait for a card to end, the latest of each worker's run only.
  const list = demo.run.get(vibeListKey);
  const stopFollowing = list
    ? followWorkers(list, (notice) =>
        lines.notice(
          `  ${notice.text}`,
          notice.kind === "progress" ? `${notice.worker.id} attempt ${notice.worker.attempts}` : undefined,
        ),
      )
    : () => undefined;
  let running: AbortController | undefined;
  // Ctrl+D at a card declines it, as Ctrl+C does; the session goes on.
  lines.onEndAtCard(() => lines.cardInput.write(`${declineToken}\n`));
  lines.onInterrupt((dropped) => {
    if (lines.cardOpen) {
      // The card reads the session's lines: "0" is its decline.
      lines.cardInput.write(`${declineToken}\n`);
    } else if (running) {
      out.write("  (Ctrl+C: cancelling the call)\n");
      running.abort(new Error("cancelled with Ctrl+C"));
    } else if (dropped) {
      // As a shell does: the line typed so far is dropped, the session goes on.
      lines.prompt();
    } else {
      lines.close();
    }
  });
  try {
    for (;;) {
      lines.prompt();
      const line = await lines.next();
      if (line === undefined || /^(exit|quit)$/.test(line.trim())) break;
      if (line.trim() === "") continue;
      if (line.trim() === "tools") {
        out.write(
          `${demo.registry
            .toolsFor(demo.run, "main")
            .map((tool) => `${tool.name} (${tool.tier})`)
            .join(", ")}\n`,
        );
        continue;
      }
      let call: TypedCall;
      try {
        call = parseTypedCall(line, argTypes);
      } catch (error) {
        out.write(`not a call: ${error instanceof Error ? error.message : String(error)}\n`);
        continue;
      }
      running = new AbortController();
      const result = await demo.registry
        .invoke(demo.run, { ...call, signal: running.signal })
        .finally(() => (running = undefined));
      // One write above what was typed ahead while the call ran (drawn again below it).
      const figures = result.content
        .filter((part) => part.type === "image")
        .map((part) => `[figure: ${part.mimeType}, ${part.data.length} bytes]\n`);
      lines.print(
        `${result.isError ? `error ${result.error?.code ?? ""}` : "ok"}\n${resultText(result)}\n${figures.join("")}`,
      );
    }
  } finally {
    off();
    stopFollowing();
    terminal.dispose();
    lines.close();
    await demo.dispose();
  }
}
