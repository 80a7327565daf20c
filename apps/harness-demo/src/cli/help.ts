import { modelEnvironmentHelp } from "./model-env.js";

/** The text of `harness-demo --help`. */
export const helpText = `harness-demo — the demo harness of the @tools toolkit

Usage:
  harness-demo [tour] [--out DIR]     a scripted tour of real tool calls on a sample workspace (default);
                                      writes transcript.md and transcript.html into DIR (default .)
  harness-demo --model openai|anthropic "task" [--workdir DIR] [--approval ask|auto] [--python PATH]
               [--max-turns N] [--model-timeout SECONDS] [--vibe [--vibe-command CMD]]
                                      an agent loop with a real model (API key and base URL from the
                                      environment, below) working on the task in one run; at most N
                                      model turns (default 30), each request waiting SECONDS (default
                                      120) for its reply before it is retried (at most 3 tries);
                                      --vibe: the model may start background workers (on the same
                                      provider, or on --vibe-command CMD), each shown as it starts,
                                      works and ends; those still running at its answer are stopped
  harness-demo interactive [--workdir DIR] [--approval ask|auto] [--python PATH]
                           [--vibe [--vibe-command CMD]]
                                      (or --interactive) type tool calls (read path=a.ts limit=5,
                                      lsp hover file=src/a.ts line=3 symbol=foo, or JSON) in one run;
                                      ask_user and permission cards are answered in the terminal;
                                      --vibe: background workers, each shown as it starts, works
                                      and ends
  harness-demo serve --workdir DIR [--approval auto|ask] [--conversation ID] [--python PATH]
                    [--operator none|jsonl] [--vibe [--vibe-command CMD]]
                                      JSON-lines mode: one request per line on stdin,
                                      one response per line on stdout
  harness-demo tools [--surface NAME] [--format json|anthropic|openai] [--workdir DIR]
                    [--vibe [--vibe-command CMD]]
                                      print a surface's tool schemas as JSON (--vibe: with the
                                      vibe_* tools as on a model backend; --vibe-command: as on
                                      that agent CLI, which is not run; no backend is needed)
  harness-demo --help                 this text

Surfaces: main (every tier), plan and readonly (read tools only), worker (every tier, always asks).

JSON-lines mode:
  request   {"id": 1, "surface": "main", "tool": "read", "args": {"path": "README.md"}}
  response  {"id": 1, "ok": true, "content": [{"type": "text", "text": "…"}], "error": null}
  Image parts are {"type": "image", "mimeType": "image/png", "data": "<base64>"}.
  Requests are handled concurrently; responses come as each call completes, matched by id.
  A field other than id, surface, tool and args is refused, naming it ("arguments" goes in args).
  --approval ask (default) sends write and exec calls to an approver: the peer, as a card, with
  --operator jsonl; without it nobody is attached and they are denied (fail closed).
  --approval auto allows every call the surface permits.
  The session (and every process it started) ends on end of input (once the calls in flight have
  answered, or at once when the process that started serve is gone), SIGTERM or SIGINT.
  --operator jsonl: the peer is the human. A card (ask_user, or a permission prompt under
  --approval ask) goes out as {"event": "card", "card_id": "…", "card": {…, "text": "…"}} and is
  answered by {"card_id": "…", "answer": "2"} (as typed in a terminal, or {"selected": [labels],
  "text": "…"}) or {"card_id": "…", "decline": true}; other requests keep flowing meanwhile.
  A reply that does not fit gets {"event": "card_error", …}; a card taken down (timeout, end of
  input) gets {"event": "card_closed", …}. Without it nobody is attached: cards fail closed.
  With --vibe it also gets {"event": "worker", "kind": "started" | "progress" | "done" | …,
  "worker_id": "w1", …, "text": "…"} as each background worker starts, works (at most one
  progress line per worker per 200 ms) and ends.
  --vibe turns vibe mode on (vibe_spawn, …): workers run on --vibe-command CMD (an agent CLI;
  the brief on stdin; {tier} {model} {label} {workerId} {cwd} placeholders; it acts ungated, so
  vibe_spawn and vibe_send are exec tools there, asked per call) or on the model
  backend the environment configures (below). CMD is split into words as sh does — 'single' and
  "double" quotes and backslashes group them, nothing is expanded — and run without a shell:
  --vibe-command "sh -c 'echo {tier}; cat'".
  --python PATH: the interpreter of eval (default the working directory's .venv, then PATH).

${modelEnvironmentHelp}
`;
