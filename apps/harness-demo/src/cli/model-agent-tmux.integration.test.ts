// harness-demo --model --vibe in a real terminal (tmux) against a CANNED model server on
// 127.0.0.1 (not a model): a background worker's notice waits while a card is open.
import { existsSync } from "node:fs";
import { mkdtemp, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  chatCompletion,
  startCannedModelServer,
  type CannedModelServer,
} from "../__fixtures__/canned-model-server.js";
import { cliPath } from "../__fixtures__/cli-process.js";
import { TmuxPane, tmuxFound } from "../__fixtures__/tmux-pane.js";

let dir: string;
let pane: TmuxPane;
let server: CannedModelServer | undefined;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "harness-demo-model-tmux-")));
  pane = new TmuxPane(join(dir, "sock"));
  await writeFile(join(dir, "a.txt"), "alpha line\n");
});

afterEach(async () => {
  await pane.kill();
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

const call = (id: string, name: string, args: unknown) => ({
  id,
  type: "function",
  function: { name, arguments: JSON.stringify(args) },
});

describe.skipIf(!tmuxFound)(
  "harness-demo --model --vibe in a real terminal (tmux), against a CANNED server",
  () => {
    it(
      "writes a worker's notice after the card being answered, not onto the reply typed at it",
      { timeout: 60_000 },
      async () => {
        // The worker ends once the test creates `go`, while the operator is typing at the card.
        server = await startCannedModelServer([
          chatCompletion(
            {
              tool_calls: [
                call("c1", "vibe_spawn", {
                  brief: `cd ${dir} && while [ ! -e go ]; do sleep 0.05; done; echo built-ok; touch ended`,
                  label: "build",
                }),
              ],
            },
            "tool_calls",
          ),
          chatCompletion(
            { tool_calls: [call("c2", "ask_user", { question: "Which colour?" })] },
            "tool_calls",
          ),
          chatCompletion({ content: "[canned] done" }, "stop"),
        ]);
        const env = [
          "OPENAI_API_KEY=",
          "ANTHROPIC_API_KEY=",
          "ANTHROPIC_BASE_URL=",
          "HARNESS_DEMO_MODEL_TIMEOUT=",
          "HARNESS_DEMO_MAX_TURNS=",
          `OPENAI_BASE_URL=${server.openAiBaseUrl}`,
          "OPENAI_MODEL=canned-model",
        ].join(" ");
        const command = `env ${env} ${process.execPath} ${cliPath} --model openai 'pick a colour' --workdir ${dir} --approval auto --vibe-command sh; echo EXIT $?; sleep 60`;
        await pane.tmux("new-session", "-d", "-x", "160", "-y", "50", "-s", "demo", command);
        await pane.waitForScreen(/Type your answer\.\n.*\n>/);
        await pane.tmux("send-keys", "-t", "demo", "-l", "blue is");
        await pane.waitForScreen(/^> blue is/m);
        await writeFile(join(dir, "go"), "");
        // The worker's last command ran; then time for its end to be noticed and its notice
        // written (before: onto the typed line). Absence is checked: a slow machine cannot fail it.
        for (let polls = 0; !existsSync(join(dir, "ended")) && polls < 400; polls++)
          await new Promise((resolve) => setTimeout(resolve, 50));
        expect(existsSync(join(dir, "ended"))).toBe(true);
        await new Promise((resolve) => setTimeout(resolve, 2_000));
        const typing = await pane.screen();
        expect(typing).toMatch(/^> blue is\s*$/m);
        expect(typing).not.toContain("is done after");
        await pane.tmux("send-keys", "-t", "demo", "-l", " green");
        await pane.tmux("send-keys", "-t", "demo", "Enter");
        const end = await pane.waitForScreen(/^EXIT \d+/m);
        expect(end).toMatch(/^> blue is green\n {2}-> answered: "blue is green"\n/m);
        expect(end).toMatch(
          /-> answered[\s\S]*worker w1 "build" \(fast\) is done after \d+\.\d s: built-ok[\s\S]*\[canned\] done/,
        );
        expect(end).toContain("EXIT 0");
      },
    );
  },
);
