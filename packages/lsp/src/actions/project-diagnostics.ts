import { boundList } from "@tools/registry";
import { findingsAsUserSees } from "../positions/finding-positions.js";
import { formatFinding, isCounted, type Finding } from "../checkers/finding.js";
import { projectCheckers } from "../checkers/project-checkers.js";
import { isInside } from "../servers/find-root.js";
import { describeRootSearch } from "../servers/project-folders.js";
import { missingMarker } from "../supervisor/status-report.js";
import type { ActionContext } from "./action-context.js";

/** Most project diagnostics listed, over all checkers. */
export const projectDiagnosticsLimit = 200;

/** Most roots checked in one call; the others are listed as not checked. */
export const projectRootsLimit = 20;

/** Longest one diagnostics("*") call runs over all its roots; roots left are listed as not checked. */
export const projectCheckBudgetMs = 300_000;

/**
 * diagnostics("*"): runs the project's own checker for every root found below the working
 * directory (bounded search, see `findProjectRoots`): tsc --noEmit -p, pyright --outputjson
 * (with the project's Python environment), go vet ./..., cargo check --message-format=json, dart analyze, and for
 * C/C++ each compile_commands.json entry with -fsyntax-only — parsed into the same one-line format
 * as server diagnostics, errors and warnings only, bounded. A root nested in one whose check
 * covers it (pyright, a cargo workspace, the tsconfig.json owning a package.json-only package
 * when its include takes the package's folder) is not checked twice.
 */
export async function projectDiagnostics(
  context: ActionContext,
  budgetMs: number = projectCheckBudgetMs,
): Promise<string> {
  const { supervisor } = context;
  const deadline = Date.now() + budgetMs;
  const { roots, search } = supervisor.projectRoots();
  // Languages whose files were found with no root of theirs at all: what marker to make.
  const unrooted = supervisor.servers.flatMap((spec) => {
    const file = search.unrooted.get(spec);
    if (file === undefined || roots.some((found) => found.spec === spec)) return [];
    return [
      `${spec.language}: not checked: ${missingMarker(supervisor.detect(spec, file), supervisor.display(file))}`,
    ];
  });
  if (roots.length === 0) {
    return [
      `no project root found ${describeRootSearch(search)} (no root marker of any language); nothing to check`,
      ...unrooted,
    ].join("\n");
  }
  const order = new Map(supervisor.servers.map((spec, index) => [spec.language, index]));
  roots.sort(
    (a, b) =>
      (order.get(a.spec.language) ?? 0) - (order.get(b.spec.language) ?? 0) || a.root.localeCompare(b.root),
  );
  const sections: string[] = [];
  // Each root's findings, in the order of the roots (see the listing below).
  const found: Finding[][] = [];
  const env = {
    ...process.env,
    ...(supervisor.searchPath !== undefined ? { PATH: supervisor.searchPath } : {}),
  };
  let checkedRoots = 0;
  for (const { spec, root, workspace } of roots) {
    const where = supervisor.display(root);
    const label = `${spec.language} (${where})`;
    const checker = projectCheckers[spec.language];
    if (!checker) {
      sections.push(
        `${label}: no project checker for ${spec.language}; build with the project's build system`,
      );
      continue;
    }
    const outer = roots.find(
      (other) =>
        other.spec === spec &&
        other.root !== root &&
        isInside(other.root, root) &&
        (checker.coversNested?.(other.root) ||
          (other.root === workspace && checker.coversMember?.(other.root, root) === true)),
    );
    if (outer) {
      sections.push(
        `${label}: checked with ${supervisor.display(outer.root)} (its check covers this folder)`,
      );
      continue;
    }
    if (checkedRoots >= projectRootsLimit) {
      sections.push(`${label}: not checked: over the bound of ${projectRootsLimit} roots per call`);
      continue;
    }
    if (Date.now() >= deadline) {
      sections.push(
        `${label}: not checked: the ${budgetMs / 1000} s bound of one diagnostics("*") call was reached; use diagnostics on this root's files`,
      );
      continue;
    }
    checkedRoots += 1;
    const outcome = await checker.check({
      root,
      display: (path) => supervisor.display(path),
      workingDirectory: supervisor.workingDirectory,
      findTool: (command) => supervisor.findTool(command, root),
      own: (child) => supervisor.ownProcess(child),
      signal: context.signal,
      progress: context.progress,
      env,
      deadline,
    });
    if (!outcome.ran) {
      sections.push(`${label}: ${outcome.text}`);
      continue;
    }
    const counted = findingsAsUserSees(outcome.findings.filter(isCounted), spec.text, supervisor.texts);
    const notes = outcome.notes.length > 0 ? `; ${outcome.notes.join("; ")}` : "";
    sections.push(
      `${spec.language} (${outcome.label} in ${where}): ${counted.length === 1 ? "1 problem" : `${counted.length} problems`}${notes}`,
    );
    found.push(counted);
  }
  sections.push(...unrooted);
  if (search.truncated) sections.push(`(roots searched ${describeRootSearch(search)})`);
  // Every root's errors before any root's warnings (a root's many warnings never push another's
  // errors past the bound), each severity by root, then by file, line and column: a checker
  // working on packages in parallel (go vet) prints them in an order that varies. A finding two
  // checkers report (a file of two roots) is listed once.
  const ordered = [
    ...found.flatMap((findings) => findings.filter(isError).sort(byPlace)),
    ...found.flatMap((findings) => findings.filter((finding) => !isError(finding)).sort(byPlace)),
  ];
  const lines = new Set(
    ordered.map((finding) =>
      formatFinding(finding, (path) => supervisor.display(path), supervisor.workingDirectory),
    ),
  );
  const { items, note } = boundList([...lines], projectDiagnosticsLimit, "problems");
  return [...sections, ...items, ...(note ? [note] : [])].join("\n");
}

function isError(finding: Finding): boolean {
  return finding.severity === "error";
}

/** Code-unit order of paths, then line, then column: the same on every run. */
function byPlace(a: Finding, b: Finding): number {
  if (a.file !== b.file) return a.file < b.file ? -1 : 1;
  return a.line - b.line || a.column - b.column;
}
