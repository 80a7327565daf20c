import { availableParallelism } from "node:os";
import { isAbsolute, resolve } from "node:path";
import type { BinaryLookup } from "../servers/find-binary.js";
import { withUtf16Columns, type ByteColumnReading } from "./byte-columns.js";
import { syntaxOnlyCommand, type CompileDatabase } from "./compile-commands.js";
import type { Finding } from "./finding.js";
import { parseCompilerOutput } from "./parse-compiler-output.js";
import { runCommand, type ProcessOwner } from "./run-command.js";

/** Bounds of {@link checkCompileDatabase}. */
export interface CSyntaxCheckLimits {
  /** Most translation units compiled; default 100. */
  readonly maxFiles: number;
  /** Total milliseconds for all of them; a compile still running then is stopped. Default 60 000. */
  readonly totalMs: number;
  /** Compilers run at once; default min(4, cores). */
  readonly concurrency: number;
}

/** The default bounds: 100 files, 60 s, up to 4 at once. */
export const defaultCSyntaxCheckLimits: CSyntaxCheckLimits = {
  maxFiles: 100,
  totalMs: 60_000,
  concurrency: Math.max(1, Math.min(4, availableParallelism())),
};

/** What {@link checkCompileDatabase} did. */
export interface CSyntaxCheck {
  readonly findings: Finding[];
  /** Compilers that ran to the end. */
  readonly checked: number;
  /** Entries of the database (C/C++ sources). */
  readonly total: number;
  /** Why some entries were not checked, one phrase each ("40 files over the 100-file bound"). */
  readonly notes: string[];
  /** The compilers used (as written in the database). */
  readonly compilers: string[];
}

/** What {@link checkCompileDatabase} needs from the caller. */
export interface CSyntaxCheckContext {
  readonly signal: AbortSignal;
  readonly env: NodeJS.ProcessEnv;
  /** Finds a compiler named without a path (on the supervisor's PATH). */
  readonly findTool: (command: string) => BinaryLookup;
  /** Owns each compiler process, so the run's end kills it. */
  readonly own: ProcessOwner;
}

/**
 * gcc (11 and later) counts columns in display columns by default: a tab to the next multiple
 * of 8, a CJK character as 2. Asked for bytes, it counts as clang (and gcc before 11) always
 * does, and bytes turn into UTF-16 units, as servers count, by the line's text.
 */
const byteColumns = "-fdiagnostics-column-unit=byte";

/** Whether a compiler's output says it does not know {@link byteColumns} (clang, gcc before 11). */
function refusesByteColumns(stderr: string): boolean {
  return stderr.includes(byteColumns) && /unrecognized|unknown|unsupported/i.test(stderr);
}

/**
 * How gcc reads a file, for its positions: a lone `\r` ends a line (as `\n` and `\r\n` do), and a
 * leading byte order mark is dropped before columns are counted.
 */
const gccReading: ByteColumnReading = { lineBreaks: ["\r"], dropsByteOrderMark: true };

/** How clang reads a file: a lone `\r` ends a line; a byte order mark is counted (its 3 bytes). */
const clangReading: ByteColumnReading = { lineBreaks: ["\r"], dropsByteOrderMark: false };

/** Whether a compiler's `--version` output is gcc's (else clang's, or unknown: taken as clang's). */
function isGcc(versionOutput: string): boolean {
  if (/clang/i.test(versionOutput)) return false;
  return /Free Software Foundation|\bg(?:cc|\+\+)\b/.test(versionOutput);
}

/**
 * diagnostics("*") for C/C++: each entry's own compiler command (gcc or clang) with
 * `-fsyntax-only` (see `syntaxOnlyCommand`: nothing is written), run in the entry's folder,
 * bounded by number of files and total time; its diagnostics parsed like the servers', columns
 * in UTF-16 units (gcc is asked for byte columns, which clang gives anyway; see {@link byteColumns})
 * and lines as the user counts them (the compilers also end a line at a lone `\r`; gcc drops a
 * byte order mark, clang counts it).
 */
export async function checkCompileDatabase(
  database: CompileDatabase,
  context: CSyntaxCheckContext,
  limits: CSyntaxCheckLimits = defaultCSyntaxCheckLimits,
): Promise<CSyntaxCheck> {
  const deadline = Date.now() + limits.totalMs;
  const entries = database.entries.slice(0, limits.maxFiles);
  const findings: Finding[] = [];
  const compilers = new Set<string>();
  const notes: string[] = [];
  const failures: string[] = [];
  let notCompiler = 0;
  let timedOut = 0;
  let checked = 0;
  // Aborted at the time bound or when the caller cancels; every running compiler is then killed.
  const stop = new AbortController();
  const signal = stop.signal;
  const cancel = (): void => stop.abort();
  context.signal.addEventListener("abort", cancel, { once: true });
  if (context.signal.aborted) stop.abort();
  const timer = setTimeout(cancel, limits.totalMs);
  const env = { ...context.env, LC_ALL: "C" }; // plain quotes in messages, whatever the locale
  // Compilers (as found) that refused the byte-column option: run without it from then on.
  const byteColumnsRefused = new Set<string>();
  // Per compiler, whether it is gcc, asked of the ones that refused the byte-column option (gcc
  // from 11 takes it, clang does not) only when a finding is on a line 1 (the byte order mark's).
  const gccAsked = new Map<string, Promise<boolean>>();
  const readingOf = async (
    compiler: string,
    findings: readonly Finding[],
    cwd: string,
  ): Promise<ByteColumnReading> => {
    if (!byteColumnsRefused.has(compiler) || !findings.some((finding) => finding.line === 1))
      return gccReading;
    let asked = gccAsked.get(compiler);
    if (asked === undefined) {
      asked = runCommand(compiler, ["--version"], {
        cwd,
        signal,
        timeoutMs: Math.max(1, deadline - Date.now()),
        env,
        own: context.own,
      }).then(
        (output) => isGcc(output.stdout),
        () => false,
      );
      gccAsked.set(compiler, asked);
    }
    return (await asked) ? gccReading : clangReading;
  };
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < entries.length) {
      const entry = entries[next++]!;
      const command = syntaxOnlyCommand(entry);
      if (!command) {
        notCompiler += 1;
        continue;
      }
      let compiler = command.compiler;
      if (!compiler.includes("/")) {
        const found = context.findTool(compiler);
        if (!found.found) {
          failures.push(found.reason);
          continue;
        }
        compiler = found.path;
      } else if (!isAbsolute(compiler)) compiler = resolve(entry.directory, compiler);
      compilers.add(command.compiler);
      const remaining = deadline - Date.now();
      if (remaining <= 0 || signal.aborted) {
        timedOut += 1;
        continue;
      }
      try {
        const compile = (args: readonly string[]) =>
          runCommand(compiler, [...args], {
            cwd: entry.directory,
            signal,
            timeoutMs: Math.max(1, deadline - Date.now()),
            env,
            own: context.own,
          });
        let output;
        if (byteColumnsRefused.has(compiler)) output = await compile(command.args);
        else {
          output = await compile([...command.args, byteColumns]);
          if (output.exitCode !== 0 && refusesByteColumns(output.stderr)) {
            byteColumnsRefused.add(compiler);
            output = await compile(command.args);
          }
        }
        const parsed = parseCompilerOutput(output.stderr, entry.directory);
        findings.push(...withUtf16Columns(parsed, await readingOf(compiler, parsed, entry.directory)));
        checked += 1;
      } catch (error) {
        if (context.signal.aborted) throw error;
        if (signal.aborted || Date.now() >= deadline) timedOut += 1;
        else failures.push(`${command.compiler} for ${entry.file}: ${(error as Error).message}`);
      }
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.max(1, limits.concurrency) }, () => worker()));
  } finally {
    clearTimeout(timer);
    context.signal.removeEventListener("abort", cancel);
  }
  const over = database.entries.length - entries.length;
  if (over > 0) notes.push(`${over} files over the ${limits.maxFiles}-file bound not checked`);
  if (timedOut > 0) notes.push(`${timedOut} files not checked within the ${limits.totalMs / 1000} s bound`);
  if (notCompiler > 0) notes.push(`${notCompiler} files skipped: their compiler is not gcc or clang`);
  if (failures.length > 0)
    notes.push(`${failures.length} compiles failed to run (${failures.slice(0, 3).join("; ")})`);
  return { findings, checked, total: database.entries.length, notes, compilers: [...compilers] };
}
