import { existsSync } from "node:fs";
import {
  appendText,
  errorMessage,
  stateKey,
  type CallInfo,
  type ResultWrapper,
  type ToolResult,
} from "@tools/registry";
import type { Diagnostic } from "vscode-languageserver-protocol";
import { errorsAndWarnings } from "../format/diagnostics.js";
import { explainMissing } from "../supervisor/status-report.js";
import { lspSupervisorKey, type LspSupervisor, type SentSnapshot } from "../supervisor/supervisor.js";
import type { LanguageClient } from "../client/language-client.js";
import {
  diagnosticsLedgerKey,
  diagnosticsLooksKey,
  forgetDiagnostics,
  forgetLooks,
  noteLook,
  recordDiagnostics,
} from "./diagnostics-ledger.js";
import {
  checkAlongside,
  lookBefore,
  openImporters,
  releaseImporters,
  type Before,
} from "./files-alongside.js";
import { checkedText, earlierLines } from "./look-lines.js";
import { touchedNames } from "./touched-names.js";
import { readTextFile } from "../files/file-texts.js";
import { oneSpellingEach } from "../files/canonical-path.js";
import { FileKeyedMap } from "../files/file-keyed.js";
import { preEditDiagnosticsKey } from "../rename/pre-edit-diagnostics.js";
import { BoundReached, linkedSignal, untilAborted, withBound } from "./with-bound.js";
import { writeDiagnosticsSection, type WriteCheck } from "./write-diagnostics-section.js";

/** Options of {@link diagnosticsOnWrite}. */
export interface DiagnosticsOnWriteOptions {
  /** The longest a write is held for its diagnostics, in milliseconds; default 8 000. */
  boundMs?: number;
  /** Most new diagnostics listed per file; default 20. */
  perFileLimit?: number;
  /** Most new diagnostics listed across all the files of one write; default 50. */
  totalLimit?: number;
  /** Most files whose new diagnostics are listed for one write; default 10. */
  fileLimit?: number;
  /** Most files open alongside the changed ones checked again after a write; default 20. */
  alongsideLimit?: number;
  /**
   * The longest the look at what the files alongside had before a write holds the write back
   * (it is taken before the write is sent to the servers), in milliseconds; default the smaller
   * of 2 000 and a quarter of `boundMs`, and never more than that quarter. Past it, what they had
   * before is not known, and what they show after the write is listed saying so.
   */
  lookBeforeMs?: number;
}

/**
 * A registry result wrapper: for every file in `result.changedFiles` that a language server can
 * check, syncs it (didOpen/didChange + didSave), waits for fresh diagnostics by that server's
 * rule, and appends only the errors and warnings new to the run's ledger, saying how many earlier
 * ones are still present. Files with new diagnostics are listed first, most first, within
 * `perFileLimit`, `totalLimit` and `fileLimit`; what is left out is counted and stays out of the
 * ledger, so the next write or lsp diagnostics reports it. Clean files and files with nothing new
 * share one summary line (a lone file keeps its own). Then the other files open on the same
 * servers (a file importing a written one, opened by a question or a search), and the files not
 * open that a server checking the whole workspace published for (gopls), are checked again:
 * errors and warnings they did not have before the write are listed as new in a file the write
 * did not change, and those reported earlier and now gone are counted; what they had before is
 * never reported (read before the write is sent: see `LanguageClient.currentDiagnostics`).
 * Format: {@link writeDiagnosticsSection}.
 * Files of no server's language are skipped silently; a file of a language whose server cannot
 * start there (no root marker, or no binary) gets a "not checked" line saying why, once per
 * language in the run. The run must have an LSP supervisor wired, or the
 * wrapper does nothing. From a write tool's start (`begin`) the files it names are left to its
 * own check by the checks of writes running beside it; a harness filtering which tools are
 * wrapped forwards `begin` for the same calls as `wrap`.
 */
export function diagnosticsOnWrite(options: DiagnosticsOnWriteOptions = {}): ResultWrapper {
  const boundMs = options.boundMs ?? 8_000;
  const perFileLimit = options.perFileLimit ?? 20;
  const totalLimit = options.totalLimit ?? 50;
  const fileLimit = options.fileLimit ?? 10;
  const alongsideLimit = options.alongsideLimit ?? 20;
  const lookBeforeMs = Math.min(options.lookBeforeMs ?? 2_000, boundMs / 4);
  // The files each write tool still running names (see `begin`), until its wrap ends.
  const named = new WeakMap<CallInfo, Begun>();
  return {
    name: "diagnostics-on-write",
    /**
     * A write tool starting (its result, and so its check, still to come) holds the files it names
     * from then on: a parallel call's check, telling the servers of the other changes on disk,
     * would otherwise send them and take this write's break for the state before it.
     */
    begin(call: CallInfo): void {
      // Told twice (the wrapper registered twice, or forwarded to as well): held once.
      if (named.has(call) || call.tool.tier !== "write" || !call.run.get(lspSupervisorKey)) return;
      const supervisor = call.run.get(lspSupervisorKey)!;
      const files = oneSpellingEach([...(call.resolvedPaths?.values() ?? [])]);
      holdFiles(call.run.state(writesInFlightKey), files);
      // What the servers have now, for every file the tool changes, named or not (a tool may
      // change files it does not declare in `paths`). lsp_rename sends its files itself (it opens the one it asks about, and its edits
      // must reach the server): what it sends is its own doing, not a read call's.
      const snapshot = call.tool.name === syncingTool ? undefined : supervisor.sentSnapshot();
      // It reads what its files had before its edit for this check (see `preEditDiagnosticsKey`).
      if (call.tool.name === syncingTool) call.run.state(preEditDiagnosticsKey).set(call.callId, new Map());
      // Made by this write (absent as it began): all they have is its doing.
      const absent = files.filter((file) => !existsSync(file));
      named.set(call, { files, snapshot, startedAt: performance.now(), absent, texts: textsBefore(files) });
    },
    async wrap(result: ToolResult, call): Promise<ToolResult> {
      const begun = named.get(call);
      named.delete(call);
      try {
        return await wrapWrite(result, call, begun);
      } finally {
        call.run.state(preEditDiagnosticsKey).delete(call.callId);
        // The write's own check holds its changed files from its start: no gap between the two.
        if (begun) releaseFiles(call.run.state(writesInFlightKey), begun.files);
      }
    },
  };

  /** `begun`: what the tool named as it began (held until the wrap ends), if it was told. */
  async function wrapWrite(
    result: ToolResult,
    call: CallInfo,
    begun: Begun | undefined,
  ): Promise<ToolResult> {
    const supervisor = call.run.get(lspSupervisorKey);
    if (!supervisor || result.changedFiles.length === 0) return result;
    // A file written under two paths (a symlinked folder or file) is checked once.
    const changed = oneSpellingEach(result.changedFiles);
    // Cancelled (the harness stopped the call): the write stands, its check is left off at once,
    // and nothing the check finds later is recorded as reported.
    const cancelled = appendText(
      result,
      "LSP diagnostics after this write: not checked (the call was cancelled); lsp diagnostics checks the files",
    );
    if (call.signal.aborted) return cancelled;
    // The bound holds whatever the check waits on (a server, a walk of a large tree): at the
    // bound the write returns, and what the check finds later is neither reported nor recorded.
    const overBound = appendText(
      result,
      `LSP diagnostics after this write: not checked within the ${boundMs} ms bound (its servers were still busy); lsp diagnostics checks the files`,
    );
    // Ends with the call (cancelled), at the bound, or when the check is done.
    const ended = linkedSignal(call.signal);
    let onAbort: () => void = () => undefined;
    let timer: NodeJS.Timeout | undefined;
    const stopped = new Promise<ToolResult>((resolve) => {
      onAbort = () => resolve(cancelled);
      call.signal.addEventListener("abort", onAbort, { once: true });
      timer = setTimeout(() => resolve(overBound), boundMs);
    });
    // Until this check has synced them, the files of this write are nobody's "other change".
    const inFlight = call.run.state(writesInFlightKey);
    holdFiles(inFlight, changed);
    const checking = check(result, changed, call, supervisor, ended.signal, begun);
    void checking.catch(() => undefined).finally(() => releaseFiles(inFlight, changed));
    try {
      return await Promise.race([checking, stopped]);
    } finally {
      ended.end();
      clearTimeout(timer);
      call.signal.removeEventListener("abort", onAbort);
    }
  }

  /**
   * The check of one write of `changed` (its changed files, one path each). `signal` aborts when
   * the call is cancelled or the bound is reached (the write has returned): from then on nothing
   * is recorded.
   */
  async function check(
    result: ToolResult,
    changed: readonly string[],
    call: CallInfo,
    supervisor: LspSupervisor,
    signal: AbortSignal,
    begun: Begun | undefined,
  ): Promise<ToolResult> {
    // The check's own waits end a little before the bound, leaving time to say what they found.
    const deadline = Date.now() + boundMs - Math.min(250, boundMs / 10);
    // Publishes from before the tool ran tell the state before (a server reading the written
    // file from disk on its own may publish its new state while the tool still runs).
    const started = begun?.startedAt ?? performance.now();
    const ledger = call.run.state(diagnosticsLedgerKey);
    const looks = call.run.state(diagnosticsLooksKey);
    const unique = [...changed];
    // What the written files had before the write, to tell the names it changed.
    const textsBefore = new Map(
      unique.map((file) => [
        file,
        begun?.texts.get(file) ?? supervisor.runningClientFor(file)?.syncedText(supervisor.uriOf(file)),
      ]),
    );
    const unfinished = call.run.state(unfinishedChecksKey);
    // Files whose diagnostics the run has never seen: what they have was not caused by this
    // write alone (read from their servers before it is sent where it can be; see `writtenBefore`).
    // So is one whose earlier write's check did not finish, whatever was looked at since.
    const unseen = new Set(
      unique.filter((file) => !ledger.has(file) && (unfinished.has(file) || !looks.files.has(file))),
    );
    // A tool sending its edit itself had it sent before this check could look: what its files had
    // before is what it read before its edit, or unknown.
    const preEdit =
      call.tool.name === syncingTool
        ? (call.run.state(preEditDiagnosticsKey).get(call.callId) ?? new Map())
        : undefined;
    const deleted = unique.filter((path) => !existsSync(path));
    for (const file of deleted) {
      // Gone with its diagnostics: made again with the same error, the error is new.
      recordDiagnostics(ledger, file, []);
      unfinished.delete(file);
      forgetLooks(looks, file);
      looks.everLooked.delete(file);
      looks.lastSeen.delete(file);
      looks.lastLines.delete(file);
    }
    // Their servers' other files are checked too (an importer of a deleted file breaks).
    const deletedServed = deleted.filter((file) => supervisor.runningClientFor(file) !== undefined);
    // A file of a language whose server cannot start there (no root marker, no binary) is not
    // checked: said once per language in the run, not on every write.
    const unserved: WriteCheck[] = [];
    const told = call.run.state(unservedToldKey);
    const files = unique.filter((file) => {
      if (!existsSync(file)) return false;
      const spec = supervisor.specFor(file);
      if (!spec) return false;
      const detection = supervisor.detect(spec, file);
      if (detection.root !== undefined && detection.binary.found) return true;
      if (!told.has(spec.language)) {
        told.add(spec.language);
        const display = supervisor.display(file);
        const why = explainMissing(detection, display);
        unserved.push({ kind: "not-checked", file, display, reason: `${why} (said once in this run)` });
      }
      return false;
    });
    // Until a check of them ends with an answer, what they had before this write stays their
    // baseline (read below): what their server has by the next write may hold this write's break.
    const baselined = files.filter((file) => unseen.has(file) && !unfinished.has(file));
    for (const file of baselined) unfinished.set(file, undefined);
    // Their looks from before this write stay until a check of them ends with an answer (which
    // takes a new look): a look taken meanwhile (another write's) could hold this write's break.
    for (const file of files) looks.pending.add(file);
    let before: Before | undefined;
    try {
      // What the files a write did not change had before it: only what the write adds is reported.
      before = await lookBefore(supervisor, [...files, ...deletedServed], looks, {
        started,
        boundMs: lookBeforeMs,
        limit: alongsideLimit,
        signal,
        // Writes checked at the same time (a batch of parallel calls): their files are theirs to
        // send, or one check would take another write's break as the state before it.
        holdBack: () => [...call.run.state(writesInFlightKey).keys()],
        sentAlready: () => sentWhileWritten(supervisor, unique, begun),
      });
      for (const file of baselined) {
        if (begun?.absent.includes(file)) unfinished.set(file, []);
        else if (preEdit) unfinished.set(file, preEdit.get(file));
        else unfinished.set(file, before.written.get(file));
      }
      // A deleted file must not stay open on its server (its old text would keep answering), and
      // the server is told before the other files are checked (gopls's pass for it is awaited).
      // The files of the other writes being made or checked (read when needed): this check never
      // sends them, or it would take their breaks for its own (and theirs would find none).
      const own = new Set([...unique, ...(begun?.files ?? [])]);
      const othersInFlight = () =>
        [...call.run.state(writesInFlightKey).keys()].filter((file) => !own.has(file));
      const others = othersInFlight();
      await Promise.all(deleted.map((file) => supervisor.closeDeleted(file, others).catch(() => undefined)));
      const checked = await Promise.all(
        files.map(async (file) => {
          const remaining = deadline - Date.now();
          try {
            const fresh = await withBound(
              supervisor.diagnostics(file, {
                save: true,
                timeoutMs: Math.max(500, remaining - 200),
                holdBack: othersInFlight,
              }),
              remaining,
              boundMs,
            );
            return { file, fresh, error: undefined };
          } catch (error) {
            return { file, fresh: undefined, error };
          }
        }),
      );
      if (signal.aborted) return result;
      const around = [
        ...checked.flatMap(({ file, fresh }) => (fresh?.fresh ? [file] : [])),
        ...deletedServed,
      ];
      // A server this write started had no importers opened before it: opened now, first checks.
      const opening = linkedSignal(signal, deadline - Date.now());
      await untilAborted(
        openImporters(supervisor, around, looks, {
          ...before,
          signal: opening.signal,
          holdBack: othersInFlight,
        }),
        opening.signal,
      ).finally(() => opening.end());
      const alongside = await checkAlongside(supervisor, around, {
        ledger,
        looks,
        marks: before.marks,
        carried: before.carried,
        unsettled: before.unsettled,
        written: unique,
        deadline,
        boundMs,
        limit: alongsideLimit,
        signal,
        holdBack: othersInFlight,
        touched: namesChanged(supervisor, unique, textsBefore),
      });
      // Cancelled or over the bound meanwhile: nothing is recorded as reported (the result the
      // call returned says not checked).
      if (signal.aborted) return result;
      const checks = unserved.concat(
        checked.map(({ file, fresh, error }): WriteCheck => {
          const display = supervisor.display(file);
          if (!fresh)
            return { kind: "not-checked", file, display, reason: whyNotChecked(supervisor, file, error) };
          // Never record or report a stale list as fresh.
          if (!fresh.fresh) return { kind: "not-confirmed", file, display };
          const current = errorsAndWarnings(fresh.diagnostics);
          let text: string | undefined;
          const checked = () => (text ??= checkedText(supervisor, file));
          // Where its diagnostics stood at the last look: which of a key's occurrences are new.
          const previous = looks.lastLines.get(file);
          noteLook(looks, file, current, supervisor.changesMark(file), checked);
          // Never seen before: what it had before the write is no news (known from its server),
          // or, not known, all it has is listed, saying some may predate the write. After a
          // write whose check did not finish, what it had before that one.
          const had = unseen.has(file) ? unfinished.get(file) : undefined;
          unfinished.delete(file);
          if (had) recordDiagnostics(ledger, file, had);
          const now = previous && current.length > 0 && !had ? checked() : undefined;
          const delta = recordDiagnostics(
            ledger,
            file,
            current,
            previous && now !== undefined ? earlierLines(previous, now) : undefined,
          );
          return {
            kind: "checked",
            file,
            display,
            ...delta,
            ...(had ? { hadBefore: true as const } : {}),
            ...(unseen.has(file) && !had ? { firstLook: true as const } : {}),
            ...(fresh.incomplete ? { partial: fresh.incomplete } : {}),
          };
        }),
      );
      checks.push(...alongside);
      for (const { files: cutFiles, bound } of before.cut) {
        const display = cutFiles.map((file) => supervisor.display(file)).join(", ");
        checks.push({ kind: "importers-cut", display, bound });
      }
      const section = writeDiagnosticsSection(checks, {
        perFile: perFileLimit,
        total: totalLimit,
        files: fileLimit,
        boundMs,
        workingDirectory: supervisor.workingDirectory,
      });
      // What is not listed is not reported: the next write, or lsp diagnostics, lists it.
      // The looks keep them: a later write reports what it changes, not these again as its own.
      for (const [file, diagnostics] of section.unlisted) forgetDiagnostics(ledger, file, diagnostics);
      return section.text === undefined ? result : appendText(result, section.text);
    } finally {
      // Not awaited: what is recorded above is returned in the same turn, so a bound reached
      // while the importers are let go of cannot drop a result already recorded as reported.
      if (before) void releaseImporters(before);
    }
  }
}

/**
 * The files of the run's writes being made (named by a write tool still running) or checked,
 * with how many such writes each.
 */
const writesInFlightKey = stateKey<Map<string, number>>("LSP writes being checked", () => new Map());

/**
 * Per run, the written files the run had never seen whose check has not ended with an answer
 * (over the bound, cancelled, or no answer for the written version), with what they had before
 * that write when known: their next check compares with that, never with what their server has
 * by then, which may hold the unchecked write's break (it would pass for what the file had).
 */
const unfinishedChecksKey = stateKey<Map<string, readonly Diagnostic[] | undefined>>(
  "LSP written files whose check did not finish",
  () => new FileKeyedMap(),
);

/** The write tool of this package that syncs the files it changes to their servers itself. */
const syncingTool = "lsp_rename";

/** What a write tool named as it began (see `diagnosticsOnWrite`'s `begin`). */
interface Begun {
  readonly files: readonly string[];
  /** What the servers had then (none for a tool that syncs its own files). */
  readonly snapshot: SentSnapshot | undefined;
  /** When (performance.now()) the tool began. */
  readonly startedAt: number;
  /** The files it names that did not exist as it began. */
  readonly absent: readonly string[];
  /** The texts of the files it names as it began (those readable, at most 1 MB each). */
  readonly texts: ReadonlyMap<string, string>;
}

/** Most characters of a written file read to tell the names a write changed. */
const largestCompared = 1024 * 1024;

/** The texts of `files` on disk now, those readable within {@link largestCompared}. */
function textsBefore(files: readonly string[]): Map<string, string> {
  const texts = new Map<string, string>();
  for (const file of files) {
    try {
      texts.set(file, readTextFile(file, largestCompared));
    } catch {
      // Absent, or too large: its changed names are not told.
    }
  }
  return texts;
}

/**
 * The names the write changed in the files it wrote (see `touchedNames`): each file's text
 * before (as its tool began, else its server's copy before the check sent it) against its text
 * now (none for a file deleted). A file whose text before is not known adds none.
 */
function namesChanged(
  supervisor: LspSupervisor,
  written: readonly string[],
  before: ReadonlyMap<string, string | undefined>,
): Set<string> {
  const names = new Set<string>();
  for (const file of written) {
    const old = before.get(file);
    const language = supervisor.specFor(file)?.language;
    if (old === undefined || language === undefined) continue;
    const now = existsSync(file) ? checkedText(supervisor, file) : "";
    if (now === undefined || now.length > largestCompared) continue;
    for (const name of touchedNames(old, now, language)) names.add(name);
  }
  return names;
}

/**
 * The servers sent a written file's new text (or told of its change on disk) while its tool ran,
 * before its check: a read call of the same batch (a hover, lsp diagnostics) syncs what it asks
 * about. What their other files have now may already be the write's doing.
 */
function sentWhileWritten(
  supervisor: LspSupervisor,
  written: readonly string[],
  begun: Begun | undefined,
): Set<LanguageClient> {
  const sent = new Set<LanguageClient>();
  if (!begun?.snapshot) return sent;
  for (const file of written) {
    const client = supervisor.sentSince(begun.snapshot, file);
    if (client) sent.add(client);
  }
  return sent;
}

/** Counts `files` as held by one more write (see {@link writesInFlightKey}). */
function holdFiles(inFlight: Map<string, number>, files: readonly string[]): void {
  for (const file of files) inFlight.set(file, (inFlight.get(file) ?? 0) + 1);
}

/** Undoes one {@link holdFiles} of `files`. */
function releaseFiles(inFlight: Map<string, number>, files: readonly string[]): void {
  for (const file of files) {
    const left = (inFlight.get(file) ?? 1) - 1;
    if (left > 0) inFlight.set(file, left);
    else inFlight.delete(file);
  }
}

/** The languages whose files a write could not check (no server can start) already said so in the run. */
const unservedToldKey = stateKey<Set<string>>("LSP languages said unchecked", () => new Set());

/**
 * Why a file's diagnostics were not checked. A bound reached while the file's server is still
 * starting (its first use in the run) is that, not a server that does not answer.
 */
function whyNotChecked(supervisor: LspSupervisor, file: string, error: unknown): string {
  if (!(error instanceof BoundReached)) return errorMessage(error);
  const spec = supervisor.specFor(file);
  const root = spec ? supervisor.detect(spec, file).root : undefined;
  const server = supervisor.processes().find((p) => p.language === spec?.language && p.root === root);
  if (server?.state === "starting") {
    return `${spec!.command} is still starting (its first use in this run) and did not answer within the bound; the next write, or lsp diagnostics, checks it`;
  }
  return error.message;
}
