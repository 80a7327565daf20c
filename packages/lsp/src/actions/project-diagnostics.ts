import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { boundList } from "@tools/registry";
import { findBinary } from "../servers/find-binary.js";
import type { ActionContext } from "./action-context.js";

/** Most project diagnostics listed, over all checkers. */
export const projectDiagnosticsLimit = 200;

/** One finding of a project checker, in the same shape as a server's diagnostic line. */
interface Finding {
  readonly file: string;
  readonly line: number;
  readonly column: number;
  readonly severity: string;
  readonly code: string;
  readonly message: string;
}

interface Checker {
  readonly command: string;
  readonly args: (root: string) => string[];
  /** Why it cannot run in this root, if it cannot. */
  readonly missing?: (root: string) => string | undefined;
  readonly parse: (stdout: string, stderr: string, root: string) => Finding[];
}

const checkers: Readonly<Record<string, Checker>> = {
  typescript: {
    command: "tsc",
    args: (root) => ["--noEmit", "--pretty", "false", "-p", root],
    missing: (root) => (existsSync(join(root, "tsconfig.json")) ? undefined : "no tsconfig.json in the root"),
    parse: (stdout, _stderr, root) =>
      [...stdout.matchAll(/^(.+?)\((\d+),(\d+)\): (error|warning) (TS\d+): (.*)$/gm)].map((m) => ({
        file: isAbsolute(m[1]!) ? m[1]! : join(root, m[1]!),
        line: Number(m[2]),
        column: Number(m[3]),
        severity: m[4]!,
        code: m[5]!,
        message: m[6]!,
      })),
  },
  python: {
    command: "pyright",
    args: () => ["--outputjson"],
    parse: (stdout) => {
      const report = JSON.parse(stdout) as {
        generalDiagnostics?: {
          file: string;
          severity: string;
          message: string;
          rule?: string;
          range?: { start: { line: number; character: number } };
        }[];
      };
      return (report.generalDiagnostics ?? []).map((d) => ({
        file: d.file,
        line: (d.range?.start.line ?? 0) + 1,
        column: (d.range?.start.character ?? 0) + 1,
        severity: d.severity,
        code: d.rule ?? "",
        message: d.message,
      }));
    },
  },
  go: {
    command: "go",
    args: () => ["vet", "./..."],
    parse: (stdout, stderr, root) =>
      [...`${stdout}\n${stderr}`.matchAll(/^(?:vet: )?(\S+?\.go):(\d+):(\d+): (.*)$/gm)].map((m) => ({
        file: isAbsolute(m[1]!) ? m[1]! : join(root, m[1]!),
        line: Number(m[2]),
        column: Number(m[3]),
        severity: "error",
        code: "",
        message: m[4]!,
      })),
  },
  rust: {
    command: "cargo",
    args: () => ["check", "--message-format=json", "--quiet"],
    parse: (stdout, _stderr, root) =>
      stdout.split("\n").flatMap((line): Finding[] => {
        if (!line.startsWith("{")) return [];
        const entry = JSON.parse(line) as {
          reason?: string;
          message?: {
            level: string;
            message: string;
            code?: { code: string } | null;
            spans: { file_name: string; line_start: number; column_start: number; is_primary: boolean }[];
          };
        };
        const span = entry.message?.spans.find((s) => s.is_primary);
        if (entry.reason !== "compiler-message" || !entry.message || !span) return [];
        return [
          {
            file: join(root, span.file_name),
            line: span.line_start,
            column: span.column_start,
            severity: entry.message.level,
            code: entry.message.code?.code ?? "",
            message: entry.message.message,
          },
        ];
      }),
  },
  dart: {
    command: "dart",
    args: () => ["analyze", "--format=machine"],
    parse: (stdout, stderr) =>
      `${stdout}\n${stderr}`.split("\n").flatMap((line): Finding[] => {
        const parts = line.split("|");
        if (parts.length < 8) return [];
        return [
          {
            file: parts[3]!,
            line: Number(parts[4]),
            column: Number(parts[5]),
            severity: parts[0]!.toLowerCase(),
            code: parts[2]!.toLowerCase(),
            message: parts.slice(7).join("|"),
          },
        ];
      }),
  },
};

function run(
  command: string,
  args: string[],
  cwd: string,
  signal: AbortSignal,
): Promise<{ stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    execFile(
      command,
      args,
      { cwd, signal, timeout: 180_000, maxBuffer: 64 * 1024 * 1024, encoding: "utf8" },
      (error, stdout, stderr) => {
        // Checkers exit non-zero when they find problems; only a failure to run is an error.
        if (error && (error as NodeJS.ErrnoException).code === "ENOENT") reject(error);
        else if (error && error.killed) reject(new Error(`${command} was stopped (timeout or cancel)`));
        else resolve({ stdout, stderr });
      },
    );
  });
}

/**
 * diagnostics("*"): runs the project's own checker for every root found (tsc --noEmit -p,
 * pyright --outputjson, go vet ./..., cargo check --message-format=json, dart analyze), parsed
 * into the same one-line format as server diagnostics, bounded. C/C++ has no standard checker:
 * it says so.
 */
export async function projectDiagnostics(context: ActionContext): Promise<string> {
  const { supervisor } = context;
  const roots = supervisor.projectRoots();
  if (roots.length === 0) {
    return `no project root found in the working directory (no root marker of any language); nothing to check`;
  }
  const sections: string[] = [];
  const findings: string[] = [];
  for (const { spec, root } of roots) {
    const where = supervisor.display(root);
    const checker = checkers[spec.language];
    if (!checker) {
      sections.push(
        `${spec.language} (${where}): no project checker for ${spec.language}; build with the project's build system`,
      );
      continue;
    }
    const problem = checker.missing?.(root);
    const binary = findBinary(
      checker.command,
      [root, supervisor.workingDirectory],
      supervisor.binDirectories,
    );
    if (problem || !binary.found) {
      sections.push(
        `${spec.language} (${where}): not checked: ${problem ?? (binary.found ? "" : binary.reason)}`,
      );
      continue;
    }
    const args = checker.args(root);
    context.progress(`running ${checker.command} ${args.join(" ")} in ${where}…`);
    try {
      const output = await run(binary.path, args, root, context.signal);
      const found = checker.parse(output.stdout, output.stderr, root).filter(isCounted);
      sections.push(
        `${spec.language} (${checker.command} ${args.join(" ")} in ${where}): ${found.length} problems`,
      );
      for (const f of found) {
        findings.push(
          `${supervisor.display(f.file)}:${f.line}:${f.column} ${f.severity}${f.code ? ` [${f.code}]` : ""} ${f.message.replace(/\s*\n\s*/g, " ")}`,
        );
      }
    } catch (error) {
      sections.push(
        `${spec.language} (${where}): ${checker.command} could not run: ${(error as Error).message}`,
      );
    }
  }
  const { items, note } = boundList(findings, projectDiagnosticsLimit, "problems");
  return [...sections, ...items, ...(note ? [note] : [])].join("\n");
}

function isCounted(finding: Finding): boolean {
  return finding.severity !== "information" && finding.severity !== "info" && finding.severity !== "note";
}
