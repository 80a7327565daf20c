// Runs one scenario against the built package on this process's terminal, then writes the results
// as JSON to the file named by argv[3]. Used by terminal-port.integration.test.ts inside tmux.
import { existsSync, renameSync, writeFileSync } from "node:fs";
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

const scenario = JSON.parse(process.argv[2] ?? "{}");
const resultFile = process.argv[3];

const summarise = (result) => ({ isError: result.isError, code: result.error?.code ?? null, text: resultText(result) });

const port = new TerminalQuestionPort();
const run = createRun({
  workingDirectory: tmpdir(),
  conversationId: "terminal-test",
  resources: [
    [questionPortKey, port],
    [targetSpaceKey, { id: "terminal-test" }],
  ],
});
if (scenario.waitFor) {
  // Lets the test type ahead before any card exists; bounded, like every wait.
  process.stdout.write("READY\n");
  const deadline = Date.now() + 10_000;
  while (!existsSync(scenario.waitFor) && Date.now() < deadline) await sleep(20);
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
} else {
  const registry = createRegistry({ tools: [createAskUserTool({ timeoutMs: scenario.timeoutMs ?? null })] });
  results.push(summarise(await registry.invoke(run, { tool: "ask_user", args: scenario.args })));
}
await run.dispose();
// Written whole, then renamed: the test never reads half a file.
writeFileSync(`${resultFile}.partial`, JSON.stringify(results));
renameSync(`${resultFile}.partial`, resultFile);
process.stdout.write("\nSCENARIO DONE\n");
process.exit(0);
