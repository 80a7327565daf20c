import { existsSync, rmSync } from "node:fs";
import { dirname, isAbsolute, join } from "node:path";
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
import { runCommand, type CommandOutput, type ProcessOwner, type RunOptions } from "./run-command.js";
import { buildInfoRedirect, writesBuildInfo, type BuildInfoRedirect } from "./tsc-build-info.js";

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
}

/** A checker that is one command run in the root, its output parsed. */
interface CommandChecker {
  readonly command: string;
  readonly args: (root: string, context: CheckContext) => string[];
  /**
   * Arguments decided by asking the tool first (tsc --showConfig), appended to `args`; their
   * `remove` runs once the command ended.
   */
  readonly extraArgs?: (
    binary: string,
    root: string,
    options: RunOptions,
  ) => Promise<BuildInfoRedirect | undefined>;
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
    let extra: BuildInfoRedirect | undefined;
    try {
      extra = await checker.extraArgs?.(binary.path, root, options());
      label = [checker.command, ...args.map(shown), ...(extra?.shown ?? [])].join(" ");
      context.progress(`running ${label} in ${context.display(root)}…`);
      output = await runCommand(binary.path, [...args, ...(extra?.args ?? [])], options());
    } catch (error) {
      if (context.signal.aborted) throw error;
      return { ran: false, text: `not checked: ${(error as Error).message}` };
    } finally {
      extra?.remove();
    }
    let findings: Finding[];
    try {
      findings = checker.parse(output, root);
    } catch (error) {
      // A wrapper that prints its own messages (an installer, a version notice) instead of the
      // report: say so, with what it printed, rather than throw a parser's error at the model.
      return {
        ran: false,
        text: `not checked: ${label} exited with code ${output.exitCode} but its output is not the report it should print (${(error as Error).message}); its output ends with: ${tail(output)}`,
      };
    }
    const notes: string[] = [...(checker.notes?.(findings) ?? [])];
    if (output.exitCode !== 0 && !findings.some((f) => f.severity === "error" || f.severity === "warning")) {
      notes.push(
        `${checker.command} exited with code ${output.exitCode} but reported no problem in a form read here; its output ends with: ${tail(output)}`,
      );
    }
    return { ran: true, label, findings, notes };
  };
}

function tail(output: CommandOutput): string {
  const lines = `${output.stderr}\n${output.stdout}`.split("\n").filter((line) => line.trim() !== "");
  return lines.slice(-5).join(" | ") || "(nothing)";
}

const typescript: ProjectChecker = {
  check: commandChecker({
    command: "tsc",
    args: (root) => ["--noEmit", "--pretty", "false", "-p", root],
    missing: (root) => (existsSync(join(root, "tsconfig.json")) ? undefined : "no tsconfig.json in the root"),
    // composite / incremental make tsc write a .tsbuildinfo into the project even with --noEmit.
    extraArgs: async (tsc, root, options) =>
      (await writesBuildInfo(tsc, root, options)) ? buildInfoRedirect() : undefined,
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
  async check(context) {
    // A check never writes the project's Cargo.lock (a read-tier call): with one there, --locked;
    // without, cargo creates one (in the crate or its workspace's root), which is removed again.
    const absent = cargoLockPlaces(context.root).filter((path) => !existsSync(path));
    try {
      return await cargoCheck(context);
    } finally {
      for (const path of absent) if (existsSync(path)) rmSync(path, { force: true });
    }
  },
};

const cargoCheck = commandChecker({
  command: "cargo",
  args: (root) => [
    "check",
    "--message-format=json",
    "--quiet",
    ...(cargoLockInUse(root) ? ["--locked"] : []),
  ],
  parse: ({ stdout }, root) => parseCargoCheck(stdout, root),
});

/** Whether the Cargo.toml in `folder` declares a workspace. */
function isCargoWorkspace(folder: string): boolean {
  try {
    return /^\s*\[workspace\]/m.test(readTextFile(join(folder, "Cargo.toml"), 4 * 1024 * 1024));
  } catch {
    return false;
  }
}

/**
 * Whether `cargo check` in `root` would update an existing Cargo.lock: the crate's own, or a
 * member's workspace lock (beside the nearest Cargo.toml above that declares a workspace).
 */
function cargoLockInUse(root: string): boolean {
  if (existsSync(join(root, "Cargo.lock"))) return true;
  // A workspace of its own (cargo-fuzz's `fuzz/`): its lock would be its own, not one above.
  if (isCargoWorkspace(root)) return false;
  for (let folder = dirname(root); dirname(folder) !== folder; folder = dirname(folder)) {
    if (isCargoWorkspace(folder)) return existsSync(join(folder, "Cargo.lock"));
  }
  return false;
}

/** Where `cargo check` in `root` may write a Cargo.lock: the crate and each folder above it. */
function cargoLockPlaces(root: string): string[] {
  const places: string[] = [];
  for (let folder = root; ; folder = dirname(folder)) {
    places.push(join(folder, "Cargo.lock"));
    if (dirname(folder) === folder) return places;
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
