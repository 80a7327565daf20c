import type { Diagnostic } from "vscode-languageserver-protocol";
import { byPosition, formatDiagnostic } from "../format/diagnostics.js";
import { someOf } from "../format/some-of.js";

/** What diagnostics-on-write found for one changed file. */
export type WriteCheck =
  | {
      readonly kind: "checked";
      /** The absolute path: the ledger's key. */
      readonly file: string;
      /** The path as the model sees it. */
      readonly display: string;
      /** Errors and warnings new to the ledger (already recorded in it). */
      readonly introduced: readonly Diagnostic[];
      /** How many of the file's current errors and warnings were reported earlier. */
      readonly stillPresent: number;
      /** What the check lacks (a checker run after the save that did not finish in time). */
      readonly partial?: string;
      /**
       * Set when the run had never seen its diagnostics and what it had before the write was not
       * known: `introduced` is all it has, some of which may predate the write.
       */
      readonly firstLook?: true;
      /**
       * Set when the run had never seen its diagnostics and its server had them before the write:
       * `stillPresent` counts those it had then, not ones reported earlier.
       */
      readonly hadBefore?: true;
    }
  | { readonly kind: "not-checked"; readonly file: string; readonly display: string; readonly reason: string }
  | { readonly kind: "not-confirmed"; readonly file: string; readonly display: string }
  | {
      /** A file open on the same server that the write did not change, checked again after it. */
      readonly kind: "alongside";
      readonly file: string;
      readonly display: string;
      /** Errors and warnings it did not have before the write (already recorded in the ledger). */
      readonly introduced: readonly Diagnostic[];
      /** How many of its diagnostics reported earlier are gone. */
      readonly gone: number;
      /**
       * Set when it was not looked at before the write (what it had then is not known):
       * `introduced` is only what names something the write changed (see `touchedNames`), none
       * of it known to be caused by the write; `unattributed` counts the rest, not listed.
       */
      readonly firstLook?: true;
      /** With `firstLook`: how many of its errors and warnings are neither listed nor recorded. */
      readonly unattributed?: number;
      /**
       * Set when the run had looked at it earlier but had no look from before this write (its
       * server was sent other changes first): `introduced` is what was not reported before, some
       * of which may predate the write.
       */
      readonly uncompared?: true;
      /**
       * Set when its server was still checking changes made outside the tools (a shell command)
       * as the write came: some of `introduced` may come from those.
       */
      readonly unsettled?: true;
    }
  /** A file open alongside whose check did not end within the bound. */
  | { readonly kind: "alongside-unchecked"; readonly file: string; readonly display: string }
  /**
   * A server checking the whole workspace (gopls) whose pass after the write had not ended
   * within the bound: the files not open on it were not checked again. `display`: its command.
   */
  | { readonly kind: "alongside-pending"; readonly display: string }
  /**
   * Written files (`display`: their paths as shown, joined) whose importers (direct, or through
   * re-exports or includes) were opened and checked only up to `bound`.
   */
  | { readonly kind: "importers-cut"; readonly display: string; readonly bound: string };

/** Bounds of {@link writeDiagnosticsSection}. */
export interface WriteSectionLimits {
  /** Most new diagnostics listed for one file. */
  readonly perFile: number;
  /** Most new diagnostics listed across all files. */
  readonly total: number;
  /** Most files whose new diagnostics are listed. */
  readonly files: number;
  /** The wrapper's bound, in milliseconds, named in "not confirmed" lines. */
  readonly boundMs: number;
  /** Paths under it in messages are shown relative to it (see formatDiagnostic). */
  readonly workingDirectory?: string;
}

/** The section and what it left out. */
export interface WriteSection {
  /** "LSP diagnostics after this write:" and its lines; undefined when there is nothing to say. */
  readonly text: string | undefined;
  /**
   * Per file (absolute path), the new diagnostics recorded in the ledger but not listed. The
   * caller takes them back out of the ledger, so the next write or lsp diagnostics reports them.
   */
  readonly unlisted: ReadonlyMap<string, readonly Diagnostic[]>;
}

/** Most paths named in one summary line; the rest are counted. */
const namedPaths = 5;
/** Most distinct "not checked" reasons given a line each; the rest share one line. */
const notCheckedReasons = 3;

/**
 * Builds the section diagnostics-on-write appends to a write's result, from its per-file checks.
 * Pure: it reads no server and no ledger.
 *
 * - Files with new diagnostics come first, most new diagnostics first (ties in path order), so
 *   the file a write broke most is the one listed when the bounds cut. Each lists at most
 *   `perFile` diagnostics by position, within `total` across files and `files` files; what is
 *   left out is counted, its files named, and returned in `unlisted`.
 * - Files open alongside that the write did not change follow, with their new diagnostics ("2
 *   new diagnostics in main.ts, which this write did not change:"), in the same bounds; those
 *   whose diagnostics reported earlier are gone share one line, those not checked in time another.
 * - Clean files and files with no new diagnostics collapse into one line ("58 files clean; 2 with
 *   no new diagnostics (3 reported earlier still present): a.ts, b.ts"); a lone such file keeps
 *   its own line ("a.ts: clean (no errors or warnings)").
 * - "Not checked" files share a line per reason, "not confirmed" files one line; a lone file
 *   keeps its own wording. Each line names at most 5 paths and counts the others.
 */
export function writeDiagnosticsSection(
  checks: readonly WriteCheck[],
  limits: WriteSectionLimits,
): WriteSection {
  const sorted = [...checks].sort((a, b) => compareText(a.display, b.display));
  const checked = sorted.flatMap((check) => (check.kind === "checked" ? [check] : []));
  const unlisted = new Map<string, readonly Diagnostic[]>();
  const lines: string[] = [];

  // Files the write changed first, then those it broke without changing them.
  const alongside = sorted.flatMap((check) => (check.kind === "alongside" ? [check] : []));
  const mostFirst = (a: { introduced: readonly Diagnostic[] }, b: { introduced: readonly Diagnostic[] }) =>
    b.introduced.length - a.introduced.length;
  const withNew = [
    ...checked.filter((check) => check.introduced.length > 0).sort(mostFirst),
    ...alongside.filter((check) => check.introduced.length > 0).sort(mostFirst),
  ];
  let budget = limits.total;
  let listedFiles = 0;
  const omitted: string[] = [];
  let omittedCount = 0;
  for (const check of withNew) {
    const all = byPosition(check.introduced);
    if (budget <= 0 || listedFiles >= limits.files) {
      omitted.push(check.display);
      omittedCount += all.length;
      unlisted.set(check.file, all);
      continue;
    }
    const shown = all.slice(0, Math.min(limits.perFile, budget));
    budget -= shown.length;
    listedFiles += 1;
    if (check.kind === "alongside" && check.firstLook) {
      const others = check.unattributed ?? 0;
      lines.push(
        others === 0
          ? `${count(all.length, "diagnostic")} in ${check.display}, which this write did not change (checked for the first time: not known to be caused by this write):`
          : `${all.length} of the ${all.length + others} diagnostics in ${check.display}, which this write did not change, ${all.length === 1 ? "names" : "name"} what it changed (checked for the first time: not known to be caused by this write; the other ${others} are not listed, lsp diagnostics on ${check.display} lists them):`,
      );
    } else if (check.kind === "alongside" && check.uncompared) {
      lines.push(
        `${count(all.length, "diagnostic")} not reported before in ${check.display}, which this write did not change (what it had just before this write was not known: some may predate this write):`,
      );
    } else if (check.firstLook) {
      lines.push(
        `${count(all.length, "diagnostic")} in ${check.display} (checked for the first time in this run: some may predate this write):`,
      );
    } else if (check.kind === "alongside" && check.unsettled) {
      lines.push(
        `${count(all.length, "new diagnostic")} in ${check.display}, which this write did not change (some may come from changes made outside the tools, which its server was still checking):`,
      );
    } else {
      const where =
        check.kind === "alongside"
          ? `${check.display}, which this write did not change`
          : `${check.display}${stillPresentNote(check)}`;
      lines.push(`${count(all.length, "new diagnostic")} in ${where}:`);
    }
    lines.push(
      ...shown.map((diagnostic) => formatDiagnostic(check.display, diagnostic, limits.workingDirectory)),
    );
    if (shown.length < all.length) {
      lines.push(`… ${count(all.length - shown.length, "more new diagnostic")}`);
      unlisted.set(check.file, all.slice(shown.length));
    }
  }
  if (omitted.length > 0) {
    lines.push(
      `… and ${count(omittedCount, "more new diagnostic")} in ${count(omitted.length, "more file")} (${named(omitted)}); lsp diagnostics lists them`,
    );
  }

  // Looked at for the first time, none of what they have naming what the write changed: what
  // they had before is not known, so nothing is listed as the write's (never their whole list).
  const unknownBefore = alongside.filter(
    (check) => check.firstLook && check.introduced.length === 0 && (check.unattributed ?? 0) > 0,
  );
  const [lone] = unknownBefore;
  if (lone && unknownBefore.length === 1) {
    lines.push(
      `${lone.display}, which this write did not change, has ${count(lone.unattributed ?? 0, "error or warning", "errors or warnings")} not known to be caused by it (checked for the first time: what it had before is not known); lsp diagnostics on ${lone.display} lists them`,
    );
  } else if (unknownBefore.length > 1) {
    const total = unknownBefore.reduce((sum, check) => sum + (check.unattributed ?? 0), 0);
    lines.push(
      `${unknownBefore.length} files this write did not change have ${total} errors or warnings not known to be caused by it (checked for the first time: what they had before is not known): ${named(unknownBefore.map((check) => `${check.display} (${check.unattributed ?? 0})`))}; lsp diagnostics on each lists them`,
    );
  }

  // A file whose check lacks a part is not called clean: it gets its own line, below.
  const quiet = checked.filter((check) => check.introduced.length === 0 && check.partial === undefined);
  const clean = quiet.filter((check) => check.stillPresent === 0);
  const known = quiet.filter((check) => check.stillPresent > 0);
  const [only] = quiet;
  if (only && quiet.length === 1) {
    lines.push(
      only.stillPresent > 0
        ? `no new diagnostics in ${only.display}${stillPresentNote(only)}`
        : `${only.display}: clean (no errors or warnings)`,
    );
  } else if (quiet.length > 1) {
    const parts: string[] = [];
    if (clean.length > 0) parts.push(`${count(clean.length, "file")} clean`);
    if (known.length > 0) {
      const earlier = known.reduce((sum, check) => sum + check.stillPresent, 0);
      const files = clean.length > 0 ? String(known.length) : count(known.length, "file");
      parts.push(
        `${files} with no new diagnostics (${earlier} ${known.some((check) => check.hadBefore) ? "from before" : "reported earlier"} still present): ${named(known.map((check) => check.display))}`,
      );
    }
    lines.push(parts.join("; "));
  }

  const mended = alongside.filter((check) => check.gone > 0);
  if (mended.length > 0) {
    const gone = mended.reduce((sum, check) => sum + check.gone, 0);
    lines.push(
      `${gone === 1 ? "1 diagnostic reported earlier is" : `${gone} diagnostics reported earlier are`} gone from ${named(mended.map((check) => (mended.length === 1 ? check.display : `${check.display} (${check.gone})`)))}, which this write did not change`,
    );
  }

  const byLack = new Map<string, string[]>();
  for (const check of checked) {
    if (check.partial === undefined) continue;
    byLack.set(check.partial, [...(byLack.get(check.partial) ?? []), check.display]);
  }
  for (const [lack, displays] of byLack) {
    lines.push(
      `diagnostics for ${displays.length === 1 ? displays[0] : `${displays.length} files (${named(displays)})`} incomplete: ${lack}; lsp diagnostics lists them later`,
    );
  }

  const byReason = new Map<string, string[]>();
  for (const check of sorted) {
    if (check.kind !== "not-checked") continue;
    byReason.set(check.reason, [...(byReason.get(check.reason) ?? []), check.display]);
  }
  const reasons = [...byReason];
  for (const [reason, displays] of reasons.slice(0, notCheckedReasons)) {
    lines.push(
      displays.length === 1
        ? `diagnostics for ${displays[0]} not checked: ${reason}`
        : `diagnostics for ${displays.length} files not checked (${named(displays)}): ${reason}`,
    );
  }
  const otherReasons = reasons.slice(notCheckedReasons).flatMap(([, displays]) => displays);
  if (otherReasons.length > 0) {
    lines.push(
      `diagnostics for ${count(otherReasons.length, "more file")} not checked (${named(otherReasons)}) for other reasons; check with lsp diagnostics`,
    );
  }

  const unconfirmed = sorted.flatMap((check) => (check.kind === "not-confirmed" ? [check.display] : []));
  // No answer for the written version: not "clean", and nothing listed from an older answer.
  if (unconfirmed.length === 1) {
    lines.push(
      `diagnostics for ${unconfirmed[0]} not known yet: its server did not answer for the written version within ${limits.boundMs} ms; ask again with lsp diagnostics`,
    );
  } else if (unconfirmed.length > 1) {
    lines.push(
      `diagnostics for ${unconfirmed.length} files not known yet (${named(unconfirmed)}): their servers did not answer for the written versions within ${limits.boundMs} ms; ask again with lsp diagnostics`,
    );
  }

  const unchecked = sorted.flatMap((check) => (check.kind === "alongside-unchecked" ? [check.display] : []));
  if (unchecked.length > 0) {
    lines.push(
      `${count(unchecked.length, "other open file")} not checked again within ${limits.boundMs} ms (${named(unchecked)}); lsp diagnostics checks them`,
    );
  }

  for (const check of sorted) {
    if (check.kind !== "alongside-pending") continue;
    lines.push(
      `${check.display} had not finished checking the files this write affects within ${limits.boundMs} ms: files not open were not checked again; lsp diagnostics "*" checks the whole project`,
    );
  }

  for (const check of sorted) {
    if (check.kind !== "importers-cut") continue;
    lines.push(
      `files importing ${check.display} (directly, or through re-exports or includes) were checked only up to ${check.bound}: others may be broken too; lsp diagnostics "*" checks the whole project`,
    );
  }

  return {
    text: lines.length > 0 ? `LSP diagnostics after this write:\n${lines.join("\n")}` : undefined,
    unlisted,
  };
}

function stillPresentNote(check: { stillPresent: number; hadBefore?: true }): string {
  if (check.stillPresent === 0) return "";
  return check.hadBefore
    ? ` (${check.stillPresent} it had before this write still present)`
    : ` (${check.stillPresent} reported earlier still present)`;
}

/** "1 file", "3 files" (or `plural` when given). */
function count(n: number, noun: string, plural = `${noun}s`): string {
  return `${n} ${n === 1 ? noun : plural}`;
}

/** "a, b, c" or, past the limit, "a, b, c, d, e and 3 more". */
function named(displays: readonly string[]): string {
  return someOf(displays, namedPaths);
}

/** Code-unit order: the same on every machine, unlike localeCompare. */
function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
