import { fileURLToPath } from "node:url";
import {
  askUserTool,
  createCardApprover,
  MemoryQuestionPort,
  questionPortKey,
  targetSpaceKey,
  type QuestionPort,
} from "@tools/ask";
import { createDebugSupervisor, debugSupervisorKey, debugTool } from "@tools/debug";
import { createKernelFactory, evalTool, kernelFactoryKey } from "@tools/kernel";
import { createLspSupervisor, diagnosticsOnWrite, lspRenameTool, lspTool } from "@tools/lsp";
import { createStructuralParser, structuralParserKey, structuralTools } from "@tools/structural";
import { createVibeList, vibeListKey, vibeTools, type WorkerBackend } from "@tools/vibe";
import {
  createRegistry,
  createRun,
  type ApprovalPolicy,
  type Approver,
  type DisposeReport,
  type Registry,
  type ResultWrapper,
  type Run,
  type Tool,
} from "@tools/registry";
import { harnessTools } from "./tools/index.js";

/** The app's own node_modules/.bin: typescript-language-server and pyright are its dependencies. */
export const appBinDirectory = fileURLToPath(new URL("../node_modules/.bin", import.meta.url));

/** The tools whose changed files get diagnostics-on-write. */
const diagnosedTools = new Set(["write", "edit", "apply_patch", "resolve", "lsp_rename"]);

/** Diagnostics-on-write of @tools/lsp, on the write tools only (begin and wrap for the same calls). */
function diagnosticsOnWriteTools(): ResultWrapper {
  const inner = diagnosticsOnWrite();
  return {
    name: inner.name,
    begin: (call) => {
      if (diagnosedTools.has(call.tool.name)) inner.begin?.(call);
    },
    wrap: (result, call) => (diagnosedTools.has(call.tool.name) ? inner.wrap(result, call) : result),
  };
}

/** What a package's `wire` gets besides the run: the registry and the run's options. */
export interface WireContext {
  readonly registry: Registry;
  readonly options: DemoRunOptions;
}

/**
 * One package's contribution to the demo run: its tools, the resources it wires into the run and
 * the result wrappers it adds (diagnostics-on-write). Each package that lands adds one entry to
 * {@link toolPackages}.
 */
export interface ToolPackage {
  readonly name: string;
  readonly tools: readonly Tool[];
  /** Wires the package's resources (supervisors, ports) into a fresh run. */
  readonly wire?: (run: Run, context: WireContext) => void;
  readonly resultWrappers?: readonly ResultWrapper[];
}

/** Where nobody is attached: ask_user answers `no_human` at once, never blocks. */
function nobodyPort(): QuestionPort {
  return new MemoryQuestionPort({ attached: false });
}

/** The packages wired into every demo run, in order. Adding a package is one entry here. */
export const toolPackages: readonly ToolPackage[] = [
  { name: "harness", tools: harnessTools },
  {
    name: "@tools/structural",
    tools: structuralTools,
    wire: (run) => run.wire(structuralParserKey, createStructuralParser()),
  },
  {
    name: "@tools/ask",
    tools: [askUserTool],
    wire: (run, { options }) => {
      run.wire(questionPortKey, options.questionPort ?? nobodyPort());
      run.wire(targetSpaceKey, { id: run.conversationId, label: `conversation ${run.conversationId}` });
    },
  },
  {
    name: "@tools/kernel",
    tools: [evalTool],
    wire: (run, { options }) =>
      run.wire(
        kernelFactoryKey,
        createKernelFactory({
          // A spare kernel per language doubles the start-up work on a small machine.
          warmSpare: false,
          ...(options.pythonPath === undefined ? {} : { pythonPath: options.pythonPath }),
        }),
      ),
  },
  {
    name: "@tools/debug",
    tools: [debugTool],
    wire: (run) => run.wire(debugSupervisorKey, createDebugSupervisor()),
  },
  {
    name: "@tools/vibe",
    tools: vibeTools,
    // Vibe mode is on only when a worker backend is given.
    wire: (run, { registry, options }) => {
      if (options.vibeBackend !== undefined) {
        run.wire(vibeListKey, createVibeList({ registry, run, backend: options.vibeBackend }));
      }
    },
  },
  {
    name: "@tools/lsp",
    tools: [lspTool, lspRenameTool],
    // The servers the app depends on are found on a fresh machine; PATH is searched after them.
    wire: (run) => {
      createLspSupervisor(run, { binDirectories: [appBinDirectory] });
    },
    resultWrappers: [diagnosticsOnWriteTools()],
  },
];

/**
 * Said by `serve` under `--approval ask` when a write or exec call is denied because nobody can
 * approve it (under `auto`, a worker's denied call gets a hint of its own: auto is already on).
 * Other modes get their own (see {@link noApproverHintFor}).
 */
export const noApproverHint =
  "The demo harness has no approver attached in this mode: start it with --approval auto to allow " +
  "every call the surface permits (a worker's write and exec calls still ask), or run " +
  "`harness-demo interactive` to answer permission cards in a terminal, or `harness-demo serve " +
  "--operator jsonl` to answer them as JSON lines.";

/**
 * Said under `--approval auto` when a worker's write or exec call is denied: auto is already on
 * and a worker's calls still ask, so only someone to answer the card helps.
 */
const noApproverHintUnderAuto =
  "The demo harness runs with --approval auto, but a background worker's write and exec calls " +
  "still ask, and no approver is attached to answer: run `harness-demo serve --operator jsonl` to " +
  "answer permission cards as JSON lines, or `harness-demo interactive` to answer them in a terminal.";

/** Where a demo run is driven from: its fail-closed hint depends on it. */
export type DemoMode =
  | { readonly mode: "serve"; readonly approval: ApprovalPolicy }
  /** `notTerminal`: which of stdin and stdout is not a terminal (cards need both). */
  | { readonly mode: "interactive"; readonly notTerminal: readonly ("stdin" | "stdout")[] }
  /** `approval`: under auto, only a background worker's write and exec calls can lack an approver. */
  | { readonly mode: "model"; readonly approval: ApprovalPolicy };

/**
 * The fail-closed hint that fits the mode: `serve` names the flags that attach an approver;
 * `interactive` (where cards are drawn in the terminal) names the real cause, stdin or stdout not
 * being a terminal; `--model` speaks to the model, which cannot restart the harness: not to retry,
 * and to tell the user what would allow the call.
 */
export function noApproverHintFor(mode: DemoMode): string {
  switch (mode.mode) {
    case "serve":
      return mode.approval === "auto" ? noApproverHintUnderAuto : noApproverHint;
    case "interactive": {
      const what = mode.notTerminal.length === 0 ? "the session's input" : mode.notTerminal.join(" and ");
      const verb = mode.notTerminal.length > 1 ? "are" : "is";
      return (
        `Permission cards are answered in the terminal, but ${what} ${verb} not a terminal here ` +
        "(piped or redirected), so no card can be shown: run `harness-demo interactive` with a " +
        "terminal as its input and output to answer cards, or add --approval auto to allow every " +
        "call the surface permits (a worker's write and exec calls still ask)."
      );
    }
    case "model":
      if (mode.approval === "auto") {
        // Auto is on already: the denied call is a background worker's (--vibe), which still asks.
        return (
          "Nobody can approve it: a background worker's write and exec calls ask for approval even " +
          "under --approval auto, and the harness's input is not a terminal, so no permission card " +
          "can be shown to the user. Do not retry this call; go on with read tools where you can, " +
          "and say in your answer which calls were denied and that running the harness in a " +
          "terminal would let the user approve them."
        );
      }
      return (
        "Nobody can approve it: the harness was started with --approval ask and its input is not a " +
        "terminal, so no permission card can be shown to the user. Do not retry this call; go on " +
        "with read tools where you can, and say in your answer which calls were denied and that " +
        "running the harness in a terminal, or with --approval auto, would allow them."
      );
  }
}

/** Options of {@link createDemoRun}. */
export interface DemoRunOptions {
  /** The run's working directory (must exist). */
  workingDirectory: string;
  /** `ask` (default): write and exec calls go to the approver. `auto`: allowed when the surface permits. */
  approval?: ApprovalPolicy;
  /**
   * Who answers approval requests; none means fail closed under `ask`. Default: the permission
   * card on {@link questionPort} when one is given.
   */
  approver?: Approver;
  /** Where ask_user's cards (and, by default, permission cards) render; default nobody attached. */
  questionPort?: QuestionPort;
  /** The Python interpreter of `eval` (default the working directory's `.venv`, then PATH). */
  pythonPath?: string;
  /** Turns vibe mode on: the backend background workers run on. */
  vibeBackend?: WorkerBackend;
  conversationId?: string;
  /** Replaces the fail-closed hint (default serve's: see {@link noApproverHintFor}). */
  noApproverHint?: string;
  /** Packages to wire; default {@link toolPackages}. */
  packages?: readonly ToolPackage[];
}

/** A registry and the one run it serves. */
export interface DemoRun {
  readonly registry: Registry;
  readonly run: Run;
  /** Ends the run and everything it started (idempotent). */
  dispose(): Promise<DisposeReport>;
}

/** Builds the demo harness's registry with every wired package, and a run for the working directory. */
export function createDemoRun(options: DemoRunOptions): DemoRun {
  const packages = options.packages ?? toolPackages;
  const approver =
    options.approver ??
    (options.questionPort === undefined ? undefined : createCardApprover(options.questionPort));
  const registry = createRegistry({
    tools: packages.flatMap((pkg) => pkg.tools),
    resultWrappers: packages.flatMap((pkg) => pkg.resultWrappers ?? []),
    approval: options.approval ?? "ask",
    approver,
    noApproverHint:
      options.noApproverHint ?? noApproverHintFor({ mode: "serve", approval: options.approval ?? "ask" }),
  });
  const run = createRun({
    workingDirectory: options.workingDirectory,
    conversationId: options.conversationId,
  });
  for (const pkg of packages) pkg.wire?.(run, { registry, options });
  return { registry, run, dispose: () => run.dispose() };
}
