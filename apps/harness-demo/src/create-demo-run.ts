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

/**
 * One package's contribution to the demo run: its tools, the resources it wires into the run and
 * the result wrappers it adds (diagnostics-on-write). Each package that lands adds one entry to
 * {@link toolPackages}.
 */
export interface ToolPackage {
  readonly name: string;
  readonly tools: readonly Tool[];
  /** Wires the package's resources (supervisors, ports) into a fresh run. */
  readonly wire?: (run: Run) => void;
  readonly resultWrappers?: readonly ResultWrapper[];
}

/** The packages wired into every demo run, in order. Adding a package is one line here. */
export const toolPackages: readonly ToolPackage[] = [{ name: "harness", tools: harnessTools }];

/** Said when a write or exec call is denied because nobody can approve it. */
export const noApproverHint =
  "The demo harness has no approver attached in this mode: start it with --approval auto to allow " +
  "every call the surface permits (a worker's write and exec calls still ask), or use the interactive " +
  "mode once @tools/ask lands.";

/** Options of {@link createDemoRun}. */
export interface DemoRunOptions {
  /** The run's working directory (must exist). */
  workingDirectory: string;
  /** `ask` (default): write and exec calls go to the approver. `auto`: allowed when the surface permits. */
  approval?: ApprovalPolicy;
  /** Who answers approval requests; none means fail closed under `ask`. */
  approver?: Approver;
  conversationId?: string;
  /** Replaces the fail-closed hint (see {@link noApproverHint}). */
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
  const registry = createRegistry({
    tools: packages.flatMap((pkg) => pkg.tools),
    resultWrappers: packages.flatMap((pkg) => pkg.resultWrappers ?? []),
    approval: options.approval ?? "ask",
    approver: options.approver,
    noApproverHint: options.noApproverHint ?? noApproverHint,
  });
  const run = createRun({
    workingDirectory: options.workingDirectory,
    conversationId: options.conversationId,
  });
  for (const pkg of packages) pkg.wire?.(run);
  return { registry, run, dispose: () => run.dispose() };
}
