// The JavaScript kernel: speaks the Jupyter protocol (protocol 5.3) on the sockets of a connection
// file and runs cells in an executor child process, so an interrupt can always be delivered.
// Usage: node main.js <connection-file>
import { fork } from "node:child_process";
import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { Publisher, Reply, Router } from "zeromq";
import { cutMetadata } from "../client/kernel-output.js";
import { lateInputReply } from "../client/late-input.js";
import { endpoint, type ConnectionInfo } from "../protocol/connection.js";
import { SendQueue } from "../protocol/send-queue.js";
import { MessageCodec, type JupyterMessage } from "../protocol/wire.js";
import {
  outputLimitsFrom,
  outputLimitsVariable,
  type FromExecutor,
  type ToExecutor,
} from "./executor-protocol.js";
import { ExecutorPipes } from "./executor-pipes.js";
import { cellEndMarkVariable } from "./marked-stream.js";
import { OutputBudget } from "./output-budget.js";
import { StreamCoalescer } from "./stream-coalescer.js";

const info = JSON.parse(readFileSync(process.argv[2] ?? "", "utf8")) as ConnectionInfo;
const codec = new MessageCodec(info.key);
const shell = new Router({ linger: 0 });
const control = new Router({ linger: 0 });
const stdin = new Router({ linger: 0 });
// No high-water mark on iopub: at the default (1000 messages) a PUB socket silently drops what a
// slower subscriber has not taken yet, and a cell printing a thousand lines lost its last lines
// and its idle status with them, so the call waited out its inactivity budget. What a cell sends
// is bounded in the executor instead (OutputBudget: the head and the tail of its output within
// the result's limits, and a count of what was left out between them).
const iopub = new Publisher({ linger: 0, sendHighWaterMark: 0 });
const heartbeat = new Reply({ linger: 0 });
// Every send goes through its socket's queue: zeromq throws on a send while one is in flight,
// and a cell printing a few hundred lines publishes faster than iopub sends.
const outbox = {
  shell: new SendQueue(shell),
  control: new SendQueue(control),
  stdin: new SendQueue(stdin),
  iopub: new SendQueue(iopub),
};

/** The key of the mark the executor writes to its fd 1 and 2 after each cell (see MarkedStream). */
const markKey = randomBytes(12).toString("hex");

// The executor's fd 1 and 2 are pipes read here: what a cell writes there bypassing console and
// process.stdout (fs.writeSync(1, …), a child process with stdio "inherit") is its output too.
// The protocol has a channel of its own (ipc).
const executor = fork(fileURLToPath(new URL("./executor.js", import.meta.url)), [], {
  execArgv: ["--disable-warning=ExperimentalWarning"],
  // fd 4: the interrupts, each the id of the cell it is meant for (see the executor).
  stdio: ["ignore", "pipe", "pipe", "ipc", "pipe"],
  env: { ...process.env, [cellEndMarkVariable]: markKey },
});
executor.on("exit", (code, signal) => {
  // Its last words (a fatal error) may still be in the pipe: the kernel's stderr gets them, for
  // the client's message about the kernel's end.
  void pipes.closed(500).then(() => {
    process.stderr.write(`${pipes.stderrTail}the executor ended (${signal ?? `code ${code ?? "?"}`})\n`);
    process.exit(code ?? 1);
  });
});

const parentPid = Number(process.env.TOOLS_KERNEL_PARENT_PID ?? process.ppid);
setInterval(() => {
  if (process.ppid !== parentPid) shutdown(0);
}, 1000).unref();

/** Ends the executor and waits for it (reaped here, not left as a zombie for init), bounded. */
function shutdown(code: number): void {
  executor.removeAllListeners("exit");
  if (executor.exitCode !== null || executor.signalCode !== null) process.exit(code);
  executor.once("exit", () => process.exit(code));
  executor.kill("SIGKILL");
  setTimeout(() => process.exit(code), 500).unref();
}
process.on("SIGTERM", () => shutdown(0));

/** Bridged calls of the running cell: input_request msg_id → the executor's call id. */
const bridgeCalls = new Map<string, number>();
process.on("SIGINT", () => interrupt());

/**
 * Interrupts the running cell: the executor is told which cell the interrupt is for, and drops it
 * once that cell has ended; replies to its abandoned bridged calls are dropped. None is running:
 * the cell it was meant for has ended, and the interrupt is dropped with it (the client sends one
 * once the cell has started, see KernelClient.interrupt).
 */
function interrupt(): void {
  if (!running) return;
  bridgeCalls.clear();
  const interrupts = executor.stdio[4];
  if (interrupts && "write" in interrupts) interrupts.write(`${running.id}\n`);
}

function reply(
  channel: "shell" | "control",
  request: JupyterMessage,
  msgType: string,
  content: Record<string, unknown>,
): void {
  outbox[channel].send(
    codec.encode({
      identities: request.identities,
      header: codec.header(msgType),
      parentHeader: request.header,
      content,
    }),
  );
}

function publish(
  parent: JupyterMessage["header"] | undefined,
  msgType: string,
  content: Record<string, unknown>,
): void {
  outbox.iopub.send(
    codec.encode({
      identities: [msgType],
      header: codec.header(msgType),
      parentHeader: parent ?? {},
      content,
    }),
  );
}

const kernelInfo = {
  status: "ok",
  protocol_version: "5.3",
  implementation: "tools-js",
  implementation_version: "0.1.0",
  language_info: {
    name: "javascript",
    version: process.versions.node,
    mimetype: "application/javascript",
    file_extension: ".js",
  },
  banner: `@tools JavaScript kernel on Node.js ${process.version}`,
  help_links: [],
};

interface Running {
  readonly request: JupyterMessage;
  readonly id: number;
  failed: boolean;
}
const queue: JupyterMessage[] = [];
let running: Running | undefined;
let executionCount = 0;
let nextId = 0;

function startNext(): void {
  if (running) return;
  const request = queue.shift();
  if (!request) return;
  const code = typeof request.content.code === "string" ? request.content.code : "";
  const silent = request.content.silent === true;
  if (!silent) executionCount++;
  // What is held of the fd output since the last cell goes out under that one first.
  descriptorOutput.startCell();
  running = { request, id: ++nextId, failed: false };
  publish(request.header, "status", { execution_state: "busy" });
  publish(request.header, "execute_input", { code, execution_count: executionCount });
  executor.send({ type: "execute", id: running.id, code } satisfies ToExecutor);
}

const streams = new StreamCoalescer<JupyterMessage["header"]>((parent, chunk) =>
  publish(parent, "stream", { name: chunk.name, text: chunk.text }),
);

/** The cell that ran last: what the executor sends between cells came from it (a timer, a rejection). */
let lastParent: JupyterMessage["header"] | undefined;

/**
 * What cells write to fd 1 and 2, bounded per cell as the executor bounds its own output (the
 * head, the tail and a count of what was left out between them). A message is taken as sent once
 * iopub has sent it: until then the budget holds the tail and trims it.
 */
const descriptorOutput = new OutputBudget(
  outputLimitsFrom(process.env[outputLimitsVariable]),
  (message, sent) => {
    onOutput(message);
    // After the stream coalescer's turn, which publishes the text.
    setImmediate(() => void outbox.iopub.drained().then(sent));
  },
);

const pipes = new ExecutorPipes(executor, markKey, (name, text) => descriptorOutput.stream(name, text));

/** Replies to the running cell, whose output has all been published, and starts the next. */
function finishCell(current: Running, status: "ok" | "error"): void {
  const parent = current.request.header;
  // The fd output held for the cell goes out under it, then the text before its end.
  descriptorOutput.flushAll();
  streams.flush();
  running = undefined;
  lastParent = parent;
  // Calls still in flight (a tool() the cell did not await) keep their routes: their replies
  // come after the cell's end, and the executor waits for them.
  reply("shell", current.request, "execute_reply", {
    status,
    execution_count: executionCount,
    ...(status === "ok"
      ? { user_expressions: {}, payload: [] }
      : { ename: "Error", evalue: "", traceback: [] }),
  });
  publish(parent, "status", { execution_state: "idle" });
  startNext();
}

executor.on("message", (message: FromExecutor) => {
  // As the executor's own budget does: what is held of the fd output goes out before a display,
  // an error, a bridged call — as far as it has been read by then.
  if (message.type !== "stream" && message.type !== "activity") descriptorOutput.flushAll();
  onOutput(message);
});

/** A message of the executor, or of the fd output's budget: published under its cell. */
function onOutput(message: FromExecutor): void {
  const current = running;
  if (!current) {
    if (message.type === "input") {
      // A timer's tool() after its cell ended: no cell to run it for; it fails at once.
      executor.send({
        type: "input_reply",
        id: message.id,
        value: lateInputReply(message.prompt, "javascript"),
      } satisfies ToExecutor);
      return;
    }
    // Output after its cell ended goes out under that cell; the client keeps it for the next.
    if (lastParent !== undefined) publishLate(lastParent, message);
    return;
  }
  const parent = current.request.header;
  if (message.type === "stream") {
    streams.write(parent, message);
    return;
  }
  if (message.type === "activity") {
    // Output held in the executor: the client takes any message under the cell as activity.
    publish(parent, "status", { execution_state: "busy" });
    return;
  }
  // The cell's text written before this message goes out before it.
  streams.flush();
  switch (message.type) {
    case "display": {
      const metadata = message.cut ? { [cutMetadata]: true } : {};
      if (message.kind === "result") {
        publish(parent, "execute_result", { data: message.data, metadata, execution_count: executionCount });
      } else {
        publish(parent, "display_data", { data: message.data, metadata, transient: {} });
      }
      return;
    }
    case "omitted":
      // Our own message: what the executor left out of the output here to bound it.
      publish(parent, "output_omitted", {
        chars: message.chars,
        lines: message.lines,
        ...(message.images ? { images: message.images } : {}),
        ...(message.largeImages ? { largeImages: message.largeImages } : {}),
      });
      return;
    case "error":
      current.failed = true;
      publish(parent, "error", {
        ename: message.ename,
        evalue: message.evalue,
        traceback: message.traceback,
      });
      return;
    case "input": {
      // The client answers with this header as the reply's parent: that routes the reply back.
      const header = codec.header("input_request");
      bridgeCalls.set(header.msg_id, message.id);
      outbox.stdin.send(
        codec.encode({
          identities: current.request.identities,
          header,
          parentHeader: parent,
          content: { prompt: message.prompt, password: false },
        }),
      );
      return;
    }
    case "done": {
      if (message.id !== current.id) return;
      // What the cell wrote to fd 1 and 2 is its output, not late output for the next call.
      pipes.marks.afterMarks(message.id, message.marked ?? [], () => finishCell(current, message.status));
      return;
    }
  }
}

/** Output of a cell that has ended, published under it: streams, displays, errors, counts. */
function publishLate(parent: JupyterMessage["header"], message: FromExecutor): void {
  if (message.type === "stream") {
    streams.write(parent, message);
    return;
  }
  streams.flush();
  if (message.type === "display") {
    publish(parent, "display_data", { data: message.data, metadata: {}, transient: {} });
  } else if (message.type === "omitted") {
    publish(parent, "output_omitted", {
      chars: message.chars,
      lines: message.lines,
      ...(message.images ? { images: message.images } : {}),
      ...(message.largeImages ? { largeImages: message.largeImages } : {}),
    });
  } else if (message.type === "error") {
    publish(parent, "error", { ename: message.ename, evalue: message.evalue, traceback: message.traceback });
  }
}

function onShell(request: JupyterMessage): void {
  switch (request.header.msg_type) {
    case "execute_request":
      queue.push(request);
      // Not before the loop has polled once more: a SIGINT sent before this request (for the
      // cell before, ended by now) is taken first, and dropped. Its signal is ready by then, not
      // always in the poll that read the request.
      setImmediate(() => setImmediate(startNext));
      return;
    case "kernel_info_request":
      publish(request.header, "status", { execution_state: "busy" });
      reply("shell", request, "kernel_info_reply", kernelInfo);
      publish(request.header, "status", { execution_state: "idle" });
      return;
    case "is_complete_request":
      reply("shell", request, "is_complete_reply", { status: "unknown" });
      return;
    case "complete_request":
      reply("shell", request, "complete_reply", {
        status: "ok",
        matches: [],
        cursor_start: 0,
        cursor_end: 0,
        metadata: {},
      });
      return;
    case "inspect_request":
      reply("shell", request, "inspect_reply", { status: "ok", found: false, data: {}, metadata: {} });
      return;
    case "comm_info_request":
      reply("shell", request, "comm_info_reply", { status: "ok", comms: {} });
      return;
    case "history_request":
      reply("shell", request, "history_reply", { status: "ok", history: [] });
      return;
    default:
      return;
  }
}

function onControl(request: JupyterMessage): void {
  if (request.header.msg_type === "interrupt_request") {
    interrupt();
    reply("control", request, "interrupt_reply", { status: "ok" });
  } else if (request.header.msg_type === "shutdown_request") {
    reply("control", request, "shutdown_reply", { status: "ok", restart: request.content.restart === true });
    setImmediate(() => shutdown(0));
  } else if (request.header.msg_type === "kernel_info_request") {
    reply("control", request, "kernel_info_reply", kernelInfo);
  }
}

function onStdin(message: JupyterMessage): void {
  if (message.header.msg_type !== "input_reply") return;
  // A frontend that leaves the reply's parent empty answers the oldest request.
  const parentId = message.parentHeader.msg_id ?? bridgeCalls.keys().next().value;
  const id = parentId === undefined ? undefined : bridgeCalls.get(parentId);
  if (parentId === undefined || id === undefined) return;
  bridgeCalls.delete(parentId);
  executor.send({
    type: "input_reply",
    id,
    value: typeof message.content.value === "string" ? message.content.value : "",
  } satisfies ToExecutor);
}

async function serve(socket: Router, handle: (message: JupyterMessage) => void): Promise<void> {
  for await (const frames of socket) {
    const message = codec.decode(frames);
    if (message) handle(message);
  }
}

async function beat(): Promise<void> {
  for await (const frames of heartbeat) await heartbeat.send(frames);
}

await Promise.all([
  shell.bind(endpoint(info, "shell")),
  control.bind(endpoint(info, "control")),
  stdin.bind(endpoint(info, "stdin")),
  iopub.bind(endpoint(info, "iopub")),
  heartbeat.bind(endpoint(info, "hb")),
]);
await Promise.all([serve(shell, onShell), serve(control, onControl), serve(stdin, onStdin), beat()]);
