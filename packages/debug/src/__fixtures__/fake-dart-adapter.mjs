// A fake `dart debug_adapter` for the launch contract (no Dart SDK on this machine). It behaves
// the way the dds adapter does: `initialized` right after the initialize response, breakpoints
// unverified until a `breakpoint` event, and the launch response only after configurationDone.
// It reports the order of the requests it got as a console output event.
if (process.argv[2] !== "debug_adapter") {
  process.stderr.write(`fake dart: expected 'debug_adapter', got ${process.argv.slice(2).join(" ")}\n`);
  process.exit(2);
}
let seq = 1;
let buffer = Buffer.alloc(0);
const order = [];
let launchRequest;
let program = "";
const send = (message) => {
  const body = Buffer.from(JSON.stringify({ seq: seq++, ...message }));
  process.stdout.write(`Content-Length: ${body.length}\r\n\r\n`);
  process.stdout.write(body);
};
const respond = (request, body = {}) =>
  send({ type: "response", request_seq: request.seq, command: request.command, success: true, body });
const event = (name, body = {}) => send({ type: "event", event: name, body });
process.stdin.on("data", (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  for (;;) {
    const end = buffer.indexOf("\r\n\r\n");
    if (end < 0) return;
    const length = Number(/Content-Length: (\d+)/i.exec(buffer.subarray(0, end).toString())[1]);
    if (buffer.length < end + 4 + length) return;
    const request = JSON.parse(buffer.subarray(end + 4, end + 4 + length).toString());
    buffer = buffer.subarray(end + 4 + length);
    handle(request);
  }
});
function handle(request) {
  order.push(request.command);
  switch (request.command) {
    case "initialize":
      respond(request, { supportsConfigurationDoneRequest: true });
      event("initialized");
      break;
    case "launch":
      launchRequest = request;
      program = request.arguments.program;
      break;
    case "setBreakpoints": {
      const breakpoints = request.arguments.breakpoints.map((bp, index) => ({ id: index + 1, verified: false }));
      respond(request, { breakpoints });
      setImmediate(() =>
        request.arguments.breakpoints.forEach((bp, index) =>
          event("breakpoint", { reason: "changed", breakpoint: { id: index + 1, verified: true, line: bp.line } }),
        ),
      );
      break;
    }
    case "configurationDone":
      respond(request);
      if (!launchRequest) {
        process.stderr.write("fake dart: configurationDone before launch\n");
        process.exit(3);
      }
      respond(launchRequest);
      event("output", { category: "console", output: `order: ${order.join(",")}\n` });
      event("output", { category: "console", output: `launch args: ${JSON.stringify(launchRequest.arguments)}\n` });
      event("output", { category: "stdout", output: "hello 1\n" });
      event("stopped", { reason: "breakpoint", threadId: 1, allThreadsStopped: true });
      break;
    case "threads":
      respond(request, { threads: [{ id: 1, name: "main" }] });
      break;
    case "stackTrace":
      respond(request, {
        stackFrames: [{ id: 7, name: "main", line: 3, column: 3, source: { path: program } }],
        totalFrames: 1,
      });
      break;
    case "disconnect":
      respond(request);
      process.exit(0);
      break;
    default:
      respond(request);
  }
}
