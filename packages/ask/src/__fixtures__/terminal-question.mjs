// Runs one scenario against the built package on this process's terminal, then writes the results
// as JSON to the file named by argv[3]. Used by terminal-port.integration.test.ts inside tmux.
import { execFileSync } from "node:child_process";
import { closeSync, existsSync, renameSync, writeFileSync } from "node:fs";
import { setTimeout as sleep } from "node:timers/promises";
import { tmpdir } from "node:os";
import { createRegistry, createRun, defineTool, resultText } from "@tools/registry";
import { z } from "zod";
import {
  TerminalQuestionPort,
  createAskUserTool,
  createCardApprover,
  questionPortKey,
  targetSpaceKey,
} from "../../dist/index.js";

// First thing once running: the test starts a fixture that has not written this once more.
if (process.argv[4]) writeFileSync(process.argv[4], String(process.pid));
const scenario = JSON.parse(process.argv[2] ?? "{}");
const resultFile = process.argv[3];

const summarise = (result) => ({ isError: result.isError, code: result.error?.code ?? null, text: resultText(result) });

// `attached`: a human is there though stdout is not a terminal (the test redirects it to a file).
const port = new TerminalQuestionPort(scenario.attached ? { attached: () => true } : {});
const run = createRun({
  workingDirectory: tmpdir(),
  conversationId: "terminal-test",
  resources: [
    [questionPortKey, port],
    [targetSpaceKey, { id: "terminal-test" }],
  ],
});
// A host that listens for SIGTSTP itself: "ignore" decides not to stop; "stop" stops at once (by
// SIGSTOP, which nothing can catch), as a program that tidies up before stopping does; "stop-later"
// stops once its listener has returned and `hostStopAfterMs` have passed, as a program that flushes
// its logs before stopping does.
if (scenario.hostTstp)
  process.on("SIGTSTP", () => {
    if (scenario.hostTstp === "stop") process.kill(process.pid, "SIGSTOP");
    if (scenario.hostTstp === "stop-later")
      setTimeout(() => process.kill(process.pid, "SIGSTOP"), scenario.hostStopAfterMs ?? 20);
  });
// For a test that signals this process.
if (scenario.pidFile) writeFileSync(scenario.pidFile, String(process.pid));
if (scenario.waitFor) {
  // Lets the test type ahead before any card exists; bounded, like every wait.
  process.stdout.write("READY\n");
  const deadline = Date.now() + 10_000;
  while (!existsSync(scenario.waitFor) && Date.now() < deadline) await sleep(20);
}
// A host with key handling of its own, as a TUI or a chat prompt has: its terminal in raw mode and
// its input read (flowing) before the card; how the terminal and the input are after it.
const sttyNow = () => execFileSync("stty", ["-g"], { stdio: ["inherit", "pipe", "pipe"], encoding: "utf8" }).trim();
const hostKeys = [];
let sttyBefore = "";
if (scenario.hostReads) {
  process.stdin.setRawMode(true);
  process.stdin.on("data", (chunk) => hostKeys.push(String(chunk)));
  process.stdin.resume();
  sttyBefore = sttyNow();
}
const results = [];
if (scenario.mode === "approve") {
  const edit = defineTool({
    name: "ast_edit",
    tier: "write",
    parallelSafe: true,
    description: "Stages structural replacements.",
    input: z.object({ files: z.array(z.string()) }),
    summarize: (input) => `stage 12 replacements in ${input.files.length} files`,
    execute: () => "staged",
  });
  const registry = createRegistry({ tools: [edit], approver: createCardApprover(port, { timeoutMs: null }) });
  for (let call = 0; call < scenario.calls; call++) {
    results.push(summarise(await registry.invoke(run, { tool: "ast_edit", args: { files: ["a.ts", "b.ts"] } })));
  }
} else if (scenario.mode === "secret") {
  // As eval's getpass() asks: a nested ask_user call that takes the secret out of band.
  const received = [];
  const getpass = defineTool({
    name: "getpass_cell",
    tier: "read",
    parallelSafe: true,
    description: "Asks for a password as a cell's getpass() does.",
    input: z.object({}),
    execute: (_input, context) =>
      context.invoke("ask_user", { question: "Password for db:" }, {
        origin: "cell",
        receiveSecret: (value) => received.push(value),
      }),
  });
  const registry = createRegistry({ tools: [createAskUserTool({ timeoutMs: null }), getpass] });
  const result = summarise(await registry.invoke(run, { tool: "getpass_cell", args: {} }));
  // The secret goes to the results file only, never to the terminal.
  results.push({ ...result, received });
} else {
  const registry = createRegistry({ tools: [createAskUserTool({ timeoutMs: scenario.timeoutMs ?? null })] });
  for (let call = 0; call < (scenario.calls ?? 1); call++) {
    results.push(summarise(await registry.invoke(run, { tool: "ask_user", args: scenario.args })));
  }
}
await run.dispose();
if (scenario.hostReads) {
  const after = { sttySame: sttyNow() === sttyBefore, isRaw: process.stdin.isRaw, flowing: process.stdin.readableFlowing };
  // The test types "h" now: the host, still reading, gets it (bounded, like every wait).
  const keysBefore = hostKeys.length;
  process.stdout.write("\nHOST READS\n");
  const deadline = Date.now() + 5_000;
  while (!hostKeys.slice(keysBefore).join("").includes("h") && Date.now() < deadline) await sleep(20);
  results.push({ host: { ...after, gotKeyAfterCard: hostKeys.slice(keysBefore).join("").includes("h") } });
  process.stdin.setRawMode(false);
}
if (scenario.hostUsesTerminal) {
  // A host that goes on using its terminal after the cards, handling its errors itself: what it
  // meets is its own, nothing a card left behind.
  const seen = [];
  process.stdin.on("error", (error) => seen.push(`handled: ${error.message}`));
  try {
    process.stdin.setRawMode(true);
  } catch (error) {
    seen.push(`thrown: ${error.message}`);
  }
  results.push({ host: seen, keypressListeners: process.stdin.listenerCount("keypress") });
}
// Written whole, then renamed: the test never reads half a file.
writeFileSync(`${resultFile}.partial`, JSON.stringify(results));
renameSync(`${resultFile}.partial`, resultFile);
if (scenario.terminalGone) {
  // Node 20 sets the terminal's modes back as it exits, and aborts when the terminal is gone
  // (nodejs/node#51519, fixed by nodejs/node#58200 in later releases), whatever the program did: a
  // host on a closed terminal closes it first, so the test sees how the card left the process.
  closeSync(0);
  closeSync(1);
} else process.stdout.write("\nSCENARIO DONE\n");
process.exit(0);
