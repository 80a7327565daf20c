import { z } from "zod";
import { adapterIds } from "../adapters/detect-adapter.js";
import { DebugError } from "../errors/debug-error.js";
import { limits } from "../session/limits.js";

// The `debug` tool's arguments: the schema the model reads, which op reads which argument, and
// the refusals of an argument an op does not read or lacks.

const ops = [
  "adapters",
  "status",
  "breakpoints",
  "launch",
  "attach",
  "continue",
  "pause",
  "step_over",
  "step_in",
  "step_out",
  "threads",
  "stack",
  "scopes",
  "variables",
  "evaluate",
  "output",
  "terminate",
] as const;

/** The `debug` tool's arguments (one schema for every op; `argumentsOf` says which op reads which). */
export const debugInput = z.object({
  op: z.enum(ops).describe("The operation."),
  file: z.string().optional().describe("breakpoints: the source file, relative to the working directory."),
  lines: z
    .array(z.number().int().positive())
    .optional()
    .describe(
      `breakpoints: 1-based lines (at most ${limits.breakpointsPerFile}); an empty list clears the file.`,
    ),
  program: z
    .string()
    .optional()
    .describe("launch: the program (.py file, Go package dir or .go file, binary, .dart file)."),
  args: z.array(z.string()).optional().describe("launch: the program's arguments."),
  adapter: z.enum(adapterIds).optional().describe("launch/attach: force an adapter instead of inferring it."),
  port: z
    .number()
    .int()
    .min(1)
    .max(65535)
    .optional()
    .describe("attach: the local port the debuggee listens on."),
  thread_id: z
    .number()
    .int()
    .optional()
    .describe("continue/pause/steps/stack: default the last stopped thread."),
  start_frame: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(
      `stack: the index of the first frame to list, default 0 (${limits.frames} frames a page; a page says where the next starts).`,
    ),
  frame_id: z
    .number()
    .int()
    .optional()
    .describe("scopes (required), evaluate: a frame id from any 'stack' page of the current stop."),
  reference: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("variables: a reference from 'scopes' or 'variables'."),
  expression: z.string().optional().describe("evaluate: the expression."),
  cursor: z
    .number()
    .int()
    .min(0)
    .optional()
    .describe(
      "output: read from this cursor (the 'next cursor' of the previous read); default the oldest output kept.",
    ),
});

/** The parsed arguments of one `debug` call. */
export type DebugInput = z.output<typeof debugInput>;

/** The arguments each op reads; any other one given is refused, not silently ignored. */
const argumentsOf: Readonly<Record<DebugInput["op"], readonly Exclude<keyof DebugInput, "op">[]>> = {
  adapters: [],
  status: [],
  breakpoints: ["file", "lines"],
  launch: ["program", "args", "adapter"],
  attach: ["port", "adapter"],
  continue: ["thread_id"],
  pause: ["thread_id"],
  step_over: ["thread_id"],
  step_in: ["thread_id"],
  step_out: ["thread_id"],
  threads: [],
  stack: ["thread_id", "start_frame"],
  scopes: ["frame_id"],
  variables: ["reference"],
  evaluate: ["expression", "frame_id"],
  output: ["cursor"],
  terminate: [],
};

/** An argument really given: strict-schema callers fill the fields they do not mean with "" or []. */
function given(value: unknown): boolean {
  return value !== undefined && value !== "" && !(Array.isArray(value) && value.length === 0);
}

/** Refuses arguments `args.op` does not read, naming the ops that do (a breakpoint given to launch). */
export function refuseStrayArguments(args: DebugInput): void {
  const takes = argumentsOf[args.op];
  const stray = (Object.keys(args) as (keyof DebugInput)[]).filter(
    (key) => key !== "op" && given(args[key]) && !(takes as readonly string[]).includes(key),
  );
  if (stray.length === 0) return;
  const where = stray.map((key) => {
    const users = ops.filter((op) => (argumentsOf[op] as readonly string[]).includes(key));
    return `'${key}' (${users.join(", ")})`;
  });
  throw new DebugError(
    "DEBUG_BAD_ARGUMENTS",
    `op '${args.op}' does not take ${where.join(", ")}; it takes ${
      takes.length === 0 ? "nothing else" : takes.join(", ")
    }. Make each op its own call, e.g. {"op":"breakpoints","file":"app.py","lines":[12]} then {"op":"launch","program":"app.py"}`,
  );
}

/** The argument `key` of `args`, refused when it is not given (an empty list is: it clears). */
export function need<K extends keyof DebugInput>(args: DebugInput, key: K): NonNullable<DebugInput[K]> {
  const value = args[key];
  // "" is not given (see given()); an empty list is: `lines: []` clears a file.
  if (value === undefined || value === null || value === "") {
    throw new DebugError("DEBUG_BAD_ARGUMENTS", `op '${args.op}' needs '${String(key)}'`);
  }
  return value as NonNullable<DebugInput[K]>;
}
