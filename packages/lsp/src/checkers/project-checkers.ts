import { existsSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { tsconfigCovers } from "./tsconfig-covers.js";
import { readTextFile } from "../files/file-texts.js";
import type { BinaryLookup } from "../servers/find-binary.js";
import { findPythonEnvironment } from "../servers/python-environment.js";
import { checkCompileDatabase, defaultCSyntaxCheckLimits } from "./c-syntax-check.js";
import { compileDatabaseFolders, readCompileDatabase } from "./compile-commands.js";
import type { Finding } from "./finding.js";
import { parseCargoCheck } from "./parse-cargo-check.js";
import { parseDartAnalyze } from "./parse-dart-analyze.js";
import { parseGoVet } from "./parse-go-vet.js";
import { withUtf16Columns } from "./byte-columns.js";
import { cargoLockPath, makeCargoLock } from "./cargo-lock.js";
import {
  outputTail,
  runCommand,
  type CommandOutput,
  type ProcessOwner,
  type RunOptions,
} from "./run-command.js";
import { buildInfoRedirect, writesBuildInfo } from "./tsc-build-info.js";

/** What a checker gets for one root. */
export interface CheckContext {
  readonly root: string;
  /** The run's working directory (a Python environment is looked for up to it). */
  readonly workingDirectory?: string;
  /** A path as shown to the model. */
  readonly display: (path: string) => string;
  /** Finds a command project-locally, then on the supervisor's PATH. */
  readonly findTool: (command: string) => BinaryLookup;
  readonly signal: AbortSignal;
  readonly progress: (message: string) => void;
  readonly env: NodeJS.ProcessEnv;
  /** Owns each process a checker starts, so the run's end kills it. */
  readonly own: ProcessOwner;
  /** When the whole diagnostics("*") call must be done (epoch ms): no check runs past it. */
  readonly deadline: number;
}

/** What a checker did for one root. */
export type CheckOutcome =
  | {
      readonly ran: true;
      /** What ran, as shown: "tsc --noEmit --pretty false -p .". */
      readonly label: string;
      readonly findings: readonly Finding[];
      /** What else to know: bounds hit, an exit code with nothing parsed. */
      readonly notes: readonly string[];
    }
  | {
      readonly ran: false;
      /** Why nothing ran and what would make it run: "not checked: no tsconfig.json in the root". */
      readonly text: string;
    };

/** The whole-project check of one language. */
export interface ProjectChecker {
  check(context: CheckContext): Promise<CheckOutcome>;
  /** True when a check at `root` also covers the roots of this language nested in it. */
  coversNested?(root: string): boolean;
  /**
   * True when a check at a workspace root (see `ServerSpec.workspaceMarkers`) covers `member`, a
   * root inside it that belongs to it: tsc -p at the tsconfig.json that owns a package.json-only
   * package, when that tsconfig.json's include takes the package's folder.
   */
  coversMember?(workspace: string, member: string): boolean;
}

/** What a checker set up before its command (see `CommandChecker.prepare`). */
interface Preparation {
  /** Appended to the command's arguments. */
  readonly args: readonly string[];
  /** Those arguments as shown. */
  readonly shown: readonly string[];
  /** Undoes the setup, once the command ended (whether it ran or not). */
  readonly remove: () => void;
  /** What to say of the setup after `remove` (a file left in place). */
  readonly notes?: () => readonly string[];
}

/** A checker that is one command run in the root, its output parsed. */
interface CommandChecker {
  readonly command: string;
  readonly args: (root: string, context: CheckContext) => string[];
  /**
   * Set up before the command runs, by running the tool first: arguments decided by asking it
   * (tsc --showConfig), a file it needs made (a Cargo.lock). Rejecting, the command is not run
   * and the check says why. `options` gives the run options with the time left now.
   */
  readonly prepare?: (
    binary: string,
    root: string,
    options: () => RunOptions,
  ) => Promise<Preparation | undefined>;
  /** Why it cannot run in this root, if it cannot. */
  readonly missing?: (root: string) => string | undefined;
  readonly parse: (output: CommandOutput, root: string) => Finding[];
  /** What else to say of what was found (a checker that stops early). */
  readonly notes?: (findings: readonly Finding[]) => string[];
}

/** Longest one checker command may run, whatever is left of the call's bound. */
export const checkerTimeoutMs = 180_000;

/** What is left of the call's bound, capped at `cap`; never below 1 ms. */
function timeLeft(context: CheckContext, cap: number): number {
  return Math.max(1, Math.min(cap, context.deadline - Date.now()));
}

function commandChecker(checker: CommandChecker): ProjectChecker["check"] {
  return async (context) => {
    const { root } = context;
    const problem = checker.missing?.(root);
    if (problem) return { ran: false, text: `not checked: ${problem}` };
    const binary = context.findTool(checker.command);
    if (!binary.found) return { ran: false, text: `not checked: ${binary.reason}` };
    const args = checker.args(root, context);
    const options = (): RunOptions => ({
      cwd: root,
      signal: context.signal,
      timeoutMs: timeLeft(context, checkerTimeoutMs),
      env: context.env,
      own: context.own,
      name: checker.command,
    });
    const shown = (arg: string): string => (isAbsolute(arg) ? context.display(arg) : arg);
    let label: string;
    let output: CommandOutput;
    let prepared: Preparation | undefined;
    try {
      prepared = await checker.prepare?.(binary.path, root, options);
      label = [checker.command, ...args.map(shown), ...(prepared?.shown ?? [])].join(" ");
      context.progress(`running ${label} in ${context.display(root)}…`);
      output = await runCommand(binary.path, [...args, ...(prepared?.args ?? [])], options());
    } catch (error) {
      if (context.signal.aborted) throw error;
      return { ran: false, text: `not checked: ${(error as Error).message}` };
    } finally {
      prepared?.remove();
    }
    let findings: Finding[];
    try {
      findings = checker.parse(output, root);
    } catch (error) {
      // A wrapper that prints its own messages (an installer, a version notice) instead of the
      // report: say so, with what it printed, rather than throw a parser's error at the model.
      return {
        ran: false,
        text: `not checked: ${label} exited with code ${output.exitCode} but its output is not the report it should print (${(error as Error).message}); its output ends with: ${outputTail(output)}`,
      };
    }
    const notes: string[] = [...(checker.notes?.(findings) ?? []), ...(prepared?.notes?.() ?? [])];
    if (output.exitCode !== 0 && !findings.some((f) => f.severity === "error" || f.severity === "warning")) {
      notes.push(
        `${checker.command} exited with code ${output.exitCode} but reported no problem in a form read here; its output ends with: ${outputTail(output)}`,
      );
    }
    return { ran: true, label, findings, notes };
  };
}

const typescript: ProjectChecker = {
  coversMember: tsconfigCovers,
  check: commandChecker({
    command: "tsc",
    args: (root) => ["--noEmit", "--pretty", "false", "-p", root],
    missing: (root) => (existsSync(join(root, "tsconfig.json")) ? undefined : "no tsconfig.json in the root"),
    // composite / incremental make tsc write a .tsbuildinfo into the project even with --noEmit.
    prepare: async (tsc, root, options) =>
      (await writesBuildInfo(tsc, root, options())) ? buildInfoRedirect() : undefined,
    parse: ({ stdout }, root) =>
      [...stdout.matchAll(/^(.+?)\((\d+),(\d+)\): (error|warning) (TS\d+): (.*)$/gm)].map((m) => ({
        file: isAbsolute(m[1]!) ? m[1]! : join(root, m[1]!),
        line: Number(m[2]),
        column: Number(m[3]),
        severity: m[4]!,
        code: m[5]!,
        message: m[6]!,
      })),
  }),
};

interface PyrightReport {
  generalDiagnostics?: {
    file: string;
    severity: string;
    message: string;
    rule?: string;
    range?: { start: { line: number; character: number } };
  }[];
}

const python: ProjectChecker = {
  // pyright checks every file below the folder it runs in.
  coversNested: () => true,
  check: commandChecker({
    command: "pyright",
    // The project's environment, as the language server gets it (otherwise import errors flood).
    args: (root, context) => {
      const environment = findPythonEnvironment(root, {
        workingDirectory: context.workingDirectory,
        env: context.env,
      });
      return ["--outputjson", ...(environment ? ["--pythonpath", environment.python] : [])];
    },
    parse: ({ stdout }) => {
      const report = JSON.parse(stdout) as PyrightReport;
      return (report.generalDiagnostics ?? []).map((d) => ({
        file: d.file,
        line: (d.range?.start.line ?? 0) + 1,
        column: (d.range?.start.character ?? 0) + 1,
        severity: d.severity,
        code: d.rule ?? "",
        message: d.message,
      }));
    },
  }),
};

const go: ProjectChecker = {
  check: commandChecker({
    command: "go",
    args: () => ["vet", "./..."],
    // vet counts columns in bytes; servers (and so lsp diagnostics) in UTF-16 units.
    parse: ({ stdout, stderr }, root) => withUtf16Columns(parseGoVet(`${stdout}\n${stderr}`, root)),
    notes: (findings) =>
      findings.some((finding) => finding.severity === "error")
        ? [
            "go vet stops at a package's first type errors (and runs no analyzer there): there may be more; lsp diagnostics on a file lists all of its errors",
          ]
        : [],
  }),
};

const rust: ProjectChecker = {
  // `cargo check` at a workspace root checks its members.
  coversNested: (root) => isCargoWorkspace(root),
  check: commandChecker({
    command: "cargo",
    // A check never writes the project's Cargo.lock (a read-tier call): always --locked; where
    // there is none, one is made for the check and removed after (see `makeCargoLock`).
    args: () => ["check", "--message-format=json", "--quiet", "--locked"],
    prepare: async (cargo, root, options) => {
      // Unknown (a broken manifest): the check says what is wrong, and --locked writes nothing.
      const path = await cargoLockPath(cargo, root, options());
      const made = path === undefined ? undefined : await makeCargoLock(cargo, path, options);
      if (!made) return undefined;
      let left = false;
      return {
        args: [],
        shown: [],
        remove: () => {
          left = !made.remove();
        },
        notes: () =>
          left ? ["another process wrote the Cargo.lock made for the check while it ran: left in place"] : [],
      };
    },
    parse: ({ stdout }, root) => parseCargoCheck(stdout, root),
  }),
};

/** Whether the Cargo.toml in `folder` declares a workspace. */
function isCargoWorkspace(folder: string): boolean {
  try {
    return /^\s*\[workspace\]/m.test(readTextFile(join(folder, "Cargo.toml"), 4 * 1024 * 1024));
  } catch {
    return false;
  }
}

const dart: ProjectChecker = {
  check: commandChecker({
    command: "dart",
    args: () => ["analyze", "--format=machine"],
    parse: ({ stdout, stderr }) => parseDartAnalyze(`${stdout}\n${stderr}`),
  }),
};

const c: ProjectChecker = {
  async check(context) {
    const { root, display } = context;
    let database;
    try {
      database = readCompileDatabase(root);
    } catch (error) {
      return { ran: false, text: `not checked: ${(error as Error).message}` };
    }
    if (!database) {
      const where = compileDatabaseFolders.map((folder) => display(join(root, folder))).join(" or ");
      return {
        ran: false,
        text: `no project checker: C/C++ has no standard one, and no compile_commands.json is in ${where} to compile each file with its own flags. Generate one (cmake -B build -DCMAKE_EXPORT_COMPILE_COMMANDS=ON, or bear -- make) and call again; meanwhile use diagnostics on single files (clangd)`,
      };
    }
    const shownDb = display(database.path);
    if (database.entries.length === 0)
      return { ran: false, text: `not checked: ${shownDb} lists no C/C++ source` };
    context.progress(`compiling ${database.entries.length} files of ${shownDb} with -fsyntax-only…`);
    const result = await checkCompileDatabase(
      database,
      { signal: context.signal, env: context.env, findTool: context.findTool, own: context.own },
      {
        ...defaultCSyntaxCheckLimits,
        totalMs: timeLeft(context, defaultCSyntaxCheckLimits.totalMs),
      },
    );
    const compilers = result.compilers.length > 0 ? result.compilers.join(", ") : "the compiler";
    return {
      ran: true,
      label: `${compilers} -fsyntax-only for ${result.checked} of ${result.total} files of ${shownDb}`,
      findings: result.findings,
      notes: result.notes,
    };
  },
};

/** The project checker per language (the `language` of the server table). */
export const projectCheckers: Readonly<Record<string, ProjectChecker>> = {
  typescript,
  python,
  go,
  rust,
  c,
  dart,
};
