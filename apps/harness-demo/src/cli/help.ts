/** The text of `harness-demo --help`. */
export const helpText = `harness-demo — the demo harness of the @tools toolkit

Usage:
  harness-demo [tour] [--out DIR]     a scripted tour of real tool calls on a sample workspace (default);
                                      writes transcript.md and transcript.html into DIR (default .)
  harness-demo interactive [--workdir DIR] [--approval ask|auto] [--python PATH]
                                      type tool calls (read path=a.ts limit=5, or JSON) in one run;
                                      ask_user and permission cards are answered in the terminal
  harness-demo serve --workdir DIR [--approval auto|ask] [--conversation ID]
                                      JSON-lines mode: one request per line on stdin,
                                      one response per line on stdout
  harness-demo tools [--surface NAME] [--format json|anthropic|openai] [--workdir DIR]
                                      print a surface's tool schemas as JSON
  harness-demo --help                 this text

Surfaces: main (every tier), plan and readonly (read tools only), worker (every tier, always asks).

JSON-lines mode:
  request   {"id": 1, "surface": "main", "tool": "read", "args": {"path": "README.md"}}
  response  {"id": 1, "ok": true, "content": [{"type": "text", "text": "…"}], "error": null}
  Image parts are {"type": "image", "mimeType": "image/png", "data": "<base64>"}.
  Requests are handled concurrently; responses come as each call completes, matched by id.
  --approval ask (default) sends write and exec calls to an approver; none is attached in this
  mode, so they are denied. --approval auto allows every call the surface permits.
  The session (and every process it started) ends on end of input, SIGTERM or SIGINT.
`;
