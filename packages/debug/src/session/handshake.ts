import type { DebugProtocol } from "@vscode/debugprotocol";
import type { AdapterId } from "../adapters/detect-adapter.js";
import { identifyAdapter } from "../adapters/identify-adapter.js";
import { otherLanguage } from "../adapters/source-language.js";
import { DebugError, type DebugErrorCode } from "../errors/debug-error.js";
import { lineRanges } from "../internal/line-ranges.js";
import { childrenOf } from "../internal/process-tree.js";
import type { BreakpointResult } from "./breakpoint-store.js";
import { lastLines } from "./output-text.js";
import { displayPath } from "./source-lines.js";
import type { SessionCore } from "./session-core.js";
import type { Outcome } from "./session-state.js";

/** The session as another adapter than the one it started as: what it becomes. */
export interface Relabel {
  readonly adapterId: AdapterId;
  readonly description: string;
  readonly args: Record<string, unknown>;
  readonly evaluateContext: string;
}

/**
 * Called when `initialize` shows another adapter than the session's (an attach to a port the
 * root marker guessed wrong): the session as that adapter, or a throw to refuse it (a
 * DebugError DEBUG_BAD_ARGUMENTS reaches the caller as it is, once the adapter is ended).
 */
export type OnOtherAdapter = (found: AdapterId) => Relabel;

/**
 * The handshake that works with every adapter: initialize → launch/attach (not awaited) →
 * `initialized` → breakpoints → configurationDone → the launch response; then the first stop,
 * the exit, or `firstStopMs` passes. With `onOtherAdapter`, an initialize answer that names
 * another adapter relabels the session before anything adapter-specific is sent.
 */
export async function handshake(
  core: SessionCore,
  request: "launch" | "attach",
  args: Record<string, unknown>,
  timeouts: { initializeMs: number; launchMs: number; firstStopMs: number },
  onOtherAdapter?: OnOtherAdapter,
): Promise<Outcome> {
  const { connection } = core.options.adapter;
  try {
    const init = await connection.request<DebugProtocol.InitializeResponse>(
      "initialize",
      {
        clientID: "tools-debug",
        clientName: "@tools/debug",
        adapterID: core.adapterId,
        pathFormat: "path",
        linesStartAt1: true,
        columnsStartAt1: true,
        supportsVariableType: true,
        supportsRunInTerminalRequest: false,
        supportsStartDebuggingRequest: false,
        locale: "en",
      } satisfies DebugProtocol.InitializeRequestArguments,
      timeouts.initializeMs,
    );
    core.capabilities = init.body ?? {};
    const found = onOtherAdapter ? identifyAdapter(core.capabilities) : undefined;
    if (found && found !== core.adapterId) {
      const relabel = onOtherAdapter!(found);
      core.adapterId = relabel.adapterId;
      core.description = relabel.description;
      core.options = { ...core.options, evaluateContext: relabel.evaluateContext };
      args = relabel.args;
    }
    const launched = connection.request(request, args, timeouts.launchMs);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`the adapter sent no 'initialized' event within ${timeouts.launchMs} ms`)),
        timeouts.launchMs,
      );
      core.whenInitialized(() => {
        clearTimeout(timer);
        resolve();
      });
      launched.catch((error: unknown) => {
        clearTimeout(timer);
        reject(error as Error);
      });
    });
    await configure(core);
    if (core.capabilities.supportsConfigurationDoneRequest !== false) {
      await connection.request("configurationDone", {}, timeouts.initializeMs);
    }
    await launched;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const recent =
      core.output.tail(1500, "op 'output' reads them").trim() ||
      lastLines(core.options.adapter.stderrTail().trim(), 1500);
    await core.terminate(`${request} failed: ${message}`);
    // A refusal (onOtherAdapter: the port serves another adapter) is no failed launch.
    if (error instanceof DebugError && error.code === "DEBUG_BAD_ARGUMENTS") throw error;
    throw new DebugError(
      "DEBUG_LAUNCH_FAILED",
      `${request} of ${core.description} failed: ${message}` +
        (recent ? `\nrecent output:\n${recent}` : "\n(the program wrote no output)"),
      { cause: error },
    );
  }
  if (core.state === "starting") core.state = "running";
  core.rememberTree();
  // delve sends no `process` event: its program is its child (started before launch answers).
  if (core.adapterId === "delve" && core.options.terminateDebuggee && core.debuggeePids.size === 0) {
    const dlv = core.options.adapter.adapterPid();
    if (dlv) for (const pid of childrenOf(dlv)) core.learnDebuggee(pid);
  }
  const outcome = await core.waitOutcome(timeouts.firstStopMs);
  core.rememberTree();
  return outcome;
}

/**
 * Sends one file's breakpoints (the session is configured) and stores the answer; a file of
 * another language than the adapter's is not sent but marked as waiting for a session of its
 * own (undefined): lldb would only answer "not verified" for a Python file. `earlier`: the lines
 * of the file the session may hold before this request; when it fails, the adapter may still
 * hold them, and status names them.
 */
export async function sendBreakpoints(
  core: SessionCore,
  file: string,
  earlier: readonly number[] = [],
): Promise<BreakpointResult[] | undefined> {
  const other = otherLanguage(file, core.adapterId);
  if (other) {
    core.options.breakpoints.skip(file, `${other.why}; sent to a ${other.target} session`);
    return undefined;
  }
  const entry = core.options.breakpoints.files.get(file);
  const lines = entry?.lines ?? [];
  let answered: DebugProtocol.Breakpoint[];
  try {
    answered = await setBreakpoints(core, file, lines);
  } catch (error) {
    // The adapter may hold them or not: they are not pending (status said "sent at launch").
    const why = error instanceof Error ? error.message : String(error);
    const kept = earlier.filter((line) => !lines.includes(line));
    const mayHold =
      kept.length === 0
        ? ""
        : `, so the program may stop at them or at line${kept.length === 1 ? "" : "s"} ${lineRanges(kept)}, set before`;
    core.options.breakpoints.fail(
      file,
      `not confirmed in this session: setting them failed (${why})${mayHold}; op 'breakpoints' sends them again`,
      kept.length === 0 ? undefined : [...new Set([...lines, ...kept])].sort((a, b) => a - b),
    );
    throw error;
  }
  let results = lines.map((requested, index): BreakpointResult => {
    const breakpoint = answered[index];
    const verified = breakpoint?.verified ?? false;
    return {
      requested,
      line: breakpoint?.line,
      verified,
      message: breakpoint?.message ?? (verified ? undefined : unverifiedWhy(core.adapterId)),
      id: breakpoint?.id,
    };
  });
  if (results.some(noStatement)) results = await withNearestStatements(core, file, lines, results);
  return core.options.breakpoints.store(file, results);
}

function setBreakpoints(
  core: SessionCore,
  file: string,
  lines: readonly number[],
): Promise<DebugProtocol.Breakpoint[]> {
  return core
    .request<DebugProtocol.SetBreakpointsResponse>("setBreakpoints", {
      source: { path: file },
      breakpoints: lines.map((line) => ({ line })),
      lines: [...lines],
    } satisfies DebugProtocol.SetBreakpointsArguments)
    .then((response) => response.body?.breakpoints ?? []);
}

/** delve's refusal of a line without code (it does not move a breakpoint, as the others do). */
function noStatement(result: BreakpointResult): boolean {
  return !result.verified && /could not find statement/.test(result.message ?? "");
}

/** How far from a line without code its nearest lines with code are looked for, each way. */
const statementSearch = 5;

/**
 * delve's refusals of lines without code, each with the nearest lines within
 * {@link statementSearch} above and below that have code, as delve itself says: it is asked
 * once with those lines added, then the file's own lines are set again (the answer kept is that
 * one's). Only while the program cannot run into the added lines: a launched one before
 * configurationDone, or one stopped; a running program's refusals stay as delve gave them.
 */
async function withNearestStatements(
  core: SessionCore,
  file: string,
  lines: readonly number[],
  results: BreakpointResult[],
): Promise<BreakpointResult[]> {
  // A launched program is held until configurationDone; an attached one may run meanwhile.
  const halted = core.state === "stopped" || (core.state === "starting" && core.options.terminateDebuggee);
  if (core.adapterId !== "delve" || !halted) return results;
  const asked = new Set(lines);
  const candidates = new Set<number>();
  for (const result of results.filter(noStatement)) {
    for (let distance = 1; distance <= statementSearch; distance++) {
      for (const line of [result.requested - distance, result.requested + distance])
        if (line >= 1 && !asked.has(line)) candidates.add(line);
    }
  }
  const probe = [...new Set([...lines, ...candidates])].sort((a, b) => a - b);
  let withCode: number[];
  try {
    const answered = await setBreakpoints(core, file, probe);
    withCode = probe.filter((line, index) => answered[index]?.verified === true && !asked.has(line));
  } catch {
    withCode = [];
  }
  // The added lines go again whatever happened: the program must not stop at them. The answer
  // of the file's own lines is the one kept (its ids are the breakpoints that stay).
  const refused = results.filter(noStatement).map((result) => result.requested);
  const answered = await restoreLines(core, file, lines, refused, withCode);
  return results.map((result, index) => {
    const now = answered[index];
    const kept = now
      ? {
          ...result,
          verified: now.verified,
          line: now.line,
          message: now.message ?? result.message,
          id: now.id,
        }
      : result;
    if (!noStatement(kept)) return kept;
    const above = withCode.filter((line) => line < result.requested).at(-1);
    const below = withCode.find((line) => line > result.requested);
    const near = [above, below].filter((line): line is number => line !== undefined);
    const hint =
      near.length === 0
        ? `no line within ${statementSearch} of it has one`
        : near.length === 1
          ? `the nearest line with one is ${near[0]}`
          : `the nearest lines with one are ${near[0]} and ${near[1]}`;
    return { ...kept, message: `${kept.message}; ${hint}` };
  });
}

/**
 * Sets the file's own `lines` again after lines near those delve `refused` were set a moment
 * (`added`: those delve verified): a refusal is asked once more (setBreakpoints replaces the
 * file's whole set, so asking again is safe); a second one clears the file, so that the program
 * stops at no line the user did not ask for, and throws an error that says what is set. When
 * the clear fails too, the session may hold the added lines: the error and status name them.
 */
async function restoreLines(
  core: SessionCore,
  file: string,
  lines: readonly number[],
  refused: readonly number[],
  added: readonly number[],
): Promise<DebugProtocol.Breakpoint[]> {
  try {
    return await setBreakpoints(core, file, lines);
  } catch {
    try {
      return await setBreakpoints(core, file, lines);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      const cleared = await setBreakpoints(core, file, []).then(
        () => true,
        () => false,
      );
      const near = `within ${statementSearch} of line${refused.length === 1 ? "" : "s"} ${refused.join(", ")}`;
      const where = displayPath(file, core.options.root);
      const failure = `setting them again failed (${why}) after lines ${near} were set a moment to find lines with code`;
      // What the session may hold when nothing went through: the lines set a moment, by number
      // (a stop at one of them is no line the user asked for).
      const mayHold =
        added.length === 0
          ? "the lines near them"
          : `line${added.length === 1 ? "" : "s"} ${lineRanges(added)}, set a moment to find lines with code`;
      if (cleared) {
        core.options.breakpoints.fail(
          file,
          `cleared in this session, so the program stops at none of them: ${failure}; op 'breakpoints' sets them again`,
        );
      } else {
        core.options.breakpoints.fail(
          file,
          `not known in this session: the program may stop at them or at ${mayHold}; ${failure}, and clearing them failed too; ` +
            "op 'breakpoints' sets them again (it replaces them), or op 'terminate'",
          [...new Set([...lines, ...added])].sort((a, b) => a - b),
        );
      }
      throw new DebugError(
        error instanceof DebugError ? (error.code as DebugErrorCode) : "DEBUG_ADAPTER_ERROR",
        `setting the breakpoints of ${where} failed after lines ${near} were set a moment to find lines with code (${why}); ` +
          (cleared
            ? "the file's breakpoints are cleared, so the program stops at none of those lines: set them again with op 'breakpoints'"
            : `clearing them failed too, so the program may stop at ${mayHold}: ` +
              "set this file's breakpoints again with op 'breakpoints' (it replaces them), or op 'terminate'"),
        { cause: error },
      );
    }
  }
}

/**
 * Why a breakpoint is not verified, for an adapter that says nothing (lldb-dap gives no message):
 * it found no code for the line in the program's debug info, which is where to look.
 */
function unverifiedWhy(adapter: AdapterId): string | undefined {
  return adapter === "lldb"
    ? "lldb found no code for this line in the program's debug info so far: is the program built with -g from this file, " +
        "at this path, and does the line hold code (a library loaded later verifies it then)?"
    : undefined;
}

/** Every file's breakpoints and the exception filters; then the session counts as configured. */
export async function configure(core: SessionCore): Promise<void> {
  // Sent back to back and awaited together: one round trip instead of one per file.
  const files = [...core.options.breakpoints.files.keys()].map((file) =>
    sendBreakpoints(core, file).catch((error: unknown) => {
      const entry = core.options.breakpoints.files.get(file);
      if (!entry) return;
      const message = error instanceof Error ? error.message : String(error);
      entry.results = entry.lines.map((requested) => ({
        requested,
        line: undefined,
        verified: false,
        message,
        id: undefined,
      }));
    }),
  );
  const filters = core.capabilities.exceptionBreakpointFilters;
  // Uncaught exceptions stop the program with its stack alive (plus whatever the adapter enables by default).
  const exceptions =
    filters && filters.length > 0
      ? core.request("setExceptionBreakpoints", {
          filters: filters
            .filter((filter) => filter.default === true || filter.filter === "uncaught")
            .map((filter) => filter.filter),
        })
      : Promise.resolve();
  await Promise.all([...files, exceptions]);
  core.configured = true;
}
