import { defineTool, textResult, type ToolContext, type ToolResult } from "@tools/registry";
import { z } from "zod";
import type { ActionContext } from "../actions/action-context.js";
import { codeActions } from "../actions/code-actions.js";
import { fileDiagnostics } from "../actions/file-diagnostics.js";
import { hover } from "../actions/hover.js";
import { navigate } from "../actions/navigation.js";
import { projectDiagnostics } from "../actions/project-diagnostics.js";
import { symbols } from "../actions/symbols.js";
import {
  diagnosticsLedgerKey,
  diagnosticsLooksKey,
  noteLook,
  recordDiagnostics,
} from "../diagnostics/diagnostics-ledger.js";
import { checkedText } from "../diagnostics/look-lines.js";
import { LspError } from "../errors/lsp-error.js";
import { requireExistingFile } from "../files/missing-file.js";
import { lspSupervisorKey, type LspSupervisor } from "../supervisor/supervisor.js";
import { CallBound } from "../actions/call-bound.js";

const actions = [
  "diagnostics",
  "definition",
  "type_definition",
  "implementation",
  "references",
  "hover",
  "symbols",
  "code_actions",
  "status",
  "reload",
] as const;

const input = z.object({
  action: z.enum(actions).describe("What to ask the language server."),
  file: z
    .string()
    .optional()
    .describe(
      'File the question is about, relative to the working directory; "*" with diagnostics runs the project checker.',
    ),
  line: z.number().int().min(1).optional().describe("1-based line of the symbol (navigation actions)."),
  symbol: z
    .string()
    .min(1)
    .max(1000)
    .optional()
    .describe("Substring of that line naming the symbol; required for navigation actions. Never a column."),
  query: z
    .string()
    .max(1000)
    .optional()
    .describe("Name to search across the whole workspace (symbols); file, if given, only picks the server."),
});

/** The actions that ask a server a question about code (bounded as one call: see `CallBound`). */
const asksServer: ReadonlySet<string> = new Set([
  "definition",
  "type_definition",
  "implementation",
  "references",
  "hover",
  "code_actions",
  "symbols",
]);

/**
 * The `lsp` tool (read tier): ask the project's language server. Navigation is addressed by
 * `line` + `symbol`; locations come back as `path:line:col  text`.
 */
export const lspTool = defineTool({
  name: "lsp",
  tier: "read",
  parallelSafe: true,
  description: [
    "Ask the project's language server (TypeScript, Python, Go, Rust, C/C++, Dart).",
    'Actions: diagnostics (file, or "*" for the project checker), definition, type_definition, implementation,',
    "references (≤50), hover, code_actions — each with file, line (1-based) and symbol (a substring of that line",
    "naming it; never a column); symbols (query: whole-workspace search ≤100 by the running servers, or before any runs by those of the working directory's projects; file, if given, picks the server; or file alone: its outline ≤200);",
    "status (which servers run or why not); reload (restart the server of file's root; without file, every running server).",
    'Example: {"action":"definition","file":"src/app.ts","line":12,"symbol":"parseConfig"}',
  ].join(" "),
  input,
  requires: [lspSupervisorKey],
  paths: (args) => (args.file && args.file !== "*" ? [args.file] : []),
  summarize: (args) =>
    `lsp ${args.action}${args.file ? ` ${args.file}` : ""}${args.line ? `:${args.line}` : ""}${args.symbol ? ` '${args.symbol}'` : ""}`,
  async execute(args, ctx) {
    const supervisor = ctx.run.require(lspSupervisorKey);
    // A question to a server ends within one request bound, whatever it waits on (see CallBound).
    const bound = asksServer.has(args.action)
      ? new CallBound(supervisor.requestTimeoutMs, `lsp ${args.action}`, ctx.signal)
      : undefined;
    try {
      return await answer(args, ctx, supervisor, bound);
    } finally {
      bound?.end();
    }
  },
});

/** Runs one action of the lsp tool. */
async function answer(
  args: z.infer<typeof input>,
  ctx: ToolContext,
  supervisor: LspSupervisor,
  bound: CallBound | undefined,
): Promise<ToolResult> {
  const context: ActionContext = {
    supervisor,
    resolvePath: (path) => ctx.resolvePath(path),
    progress: (message) => ctx.progress(message),
    signal: bound?.signal ?? ctx.signal,
    ...(bound ? { bound } : {}),
    recordShown: (file, shown, all) => {
      recordDiagnostics(ctx.run.state(diagnosticsLedgerKey), file, shown);
      // A write that breaks the file later reports only what it caused (not what was left out).
      const looks = ctx.run.state(diagnosticsLooksKey);
      if (all) {
        noteLook(looks, file, all, supervisor.changesMark(file), () => checkedText(supervisor, file));
      } else {
        // What was reported is newer than the lines of the file's last look: not compared with them.
        looks.lastLines.delete(file);
      }
    },
  };
  // A file that does not exist is said so before a server is started for it (or its missing
  // root marker reported); status and reload are about its folder's server, which may be there.
  if (args.file !== undefined && args.file !== "*" && args.action !== "status" && args.action !== "reload")
    requireExistingFile(ctx.resolvePath(args.file), (path) => supervisor.display(path));
  /** Within the call's bound, failing with the step it waited on when the bound is reached. */
  const bounded = <T>(work: Promise<T>): Promise<T> => (bound ? bound.run(work) : work);
  switch (args.action) {
    case "definition":
    case "type_definition":
    case "implementation":
    case "references":
      return textResult(await bounded(navigate({ ...args, action: args.action }, context)));
    case "hover":
      return textResult(await bounded(hover(args, context)));
    case "code_actions":
      return textResult(await bounded(codeActions(args, context)));
    case "symbols":
      // A search of several servers bounds each on its own (one that does not answer fails alone).
      return textResult(
        await (args.query?.trim() ? symbols(args, context) : bounded(symbols(args, context))),
      );
    case "diagnostics":
      if (args.file === undefined) {
        throw new LspError({
          code: "LSP_BAD_ARGUMENTS",
          message: 'action "diagnostics" needs file: a path, or "*" to run the project\'s checker',
        });
      }
      return textResult(
        args.file === "*" ? await projectDiagnostics(context) : await fileDiagnostics(args.file, context),
      );
    case "status":
      return textResult(supervisor.status(args.file === undefined ? undefined : ctx.resolvePath(args.file)));
    case "reload": {
      const done = await supervisor.reload(args.file === undefined ? undefined : ctx.resolvePath(args.file));
      return textResult(done.length > 0 ? done.join("\n") : "no server was running; nothing to reload");
    }
  }
}
