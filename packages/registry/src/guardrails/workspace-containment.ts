import { lstatSync, readlinkSync, realpathSync, type Stats } from "node:fs";
import { basename, dirname, isAbsolute, relative, resolve, sep } from "node:path";
import { ToolsError } from "../errors/tools-error.js";
import type { Guardrail } from "../invoke/guardrail.js";

/** The last root asked, normalised, and with one trailing separator for prefix checks. */
let lastRoot = "";
let lastNormalised = "";
let lastPrefix = "";

/**
 * Whether `candidate` (absolute and normalised: from `resolve` or `realpath`) is `root` or below
 * it. On POSIX a prefix check on the normalised root (one string comparison per call); on
 * Windows `path.relative`, which also folds case.
 */
function inside(root: string, candidate: string): boolean {
  if (candidate === root) return true;
  if (sep === "/") {
    if (root !== lastRoot) {
      lastNormalised = resolve(root);
      lastPrefix = lastNormalised.endsWith("/") ? lastNormalised : `${lastNormalised}/`;
      lastRoot = root;
    }
    return candidate === lastNormalised || candidate.startsWith(lastPrefix);
  }
  const rel = relative(root, candidate);
  return rel !== "" && !rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel);
}

function lstatEntry(current: string, path: string): Stats | undefined {
  try {
    return lstatSync(current, { throwIfNoEntry: false });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP") {
      throw new ToolsError({
        code: "GUARDRAIL_REFUSED",
        message: `path '${path}' goes through a symlink loop`,
      });
    }
    return undefined; // ENOTDIR and the like: nothing there, keep walking up
  }
}

/**
 * The real path of `path`, or of its nearest existing ancestor joined with the rest. A dangling
 * symlink on the way is followed to where it points (writing through it would land there).
 */
function realPathOfNearest(path: string, hops = 0): string {
  // One realpath for a path that exists (the common case: a file read or rewritten). A path
  // that does not exist yet walks up by one `lstat` per missing component, and only an entry
  // that is there is realpath'ed again: a failed realpath throws, and Node builds an error
  // with a stack for each (~30 µs), where a missing lstat returns undefined.
  let current = path;
  const rest: string[] = [];
  let real = realPathIfExists(current, path);
  let entry = real === undefined ? lstatEntry(current, path) : undefined;
  for (;;) {
    if (real !== undefined) return rest.length === 0 ? real : resolve(real, ...rest.reverse());
    if (entry?.isSymbolicLink()) {
      if (hops >= 40) {
        throw new ToolsError({
          code: "GUARDRAIL_REFUSED",
          message: `path '${path}' goes through a symlink loop`,
        });
      }
      const target = resolve(dirname(current), readlinkSync(current));
      return realPathOfNearest(resolve(target, ...rest.reverse()), hops + 1);
    }
    const parent = dirname(current);
    if (parent === current) return path;
    rest.push(basename(current));
    current = parent;
    entry = lstatEntry(current, path);
    real = entry === undefined ? undefined : realPathIfExists(current, path);
  }
}

/**
 * The real path of `current`, or undefined when it does not resolve (missing, a dangling link,
 * a file on the way). A symlink loop is refused.
 */
function realPathIfExists(current: string, path: string): string | undefined {
  try {
    return realpathSync.native(current);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ELOOP") {
      throw new ToolsError({
        code: "GUARDRAIL_REFUSED",
        message: `path '${path}' goes through a symlink loop`,
      });
    }
    return undefined;
  }
}

/**
 * Resolves a path argument against the working directory and refuses one that lands outside it,
 * by `..` or through a symlink. Paths that do not exist yet (a file about to be written) are
 * judged by their nearest existing ancestor. Returns the absolute path — its real path when only
 * that is inside (the working directory spelled through a symlink).
 */
export function resolveInside(workingDirectory: string, path: string): string {
  if (typeof path !== "string" || path.length === 0) {
    throw new ToolsError({ code: "GUARDRAIL_REFUSED", message: "a path argument is empty" });
  }
  if (path.includes("\0")) {
    throw new ToolsError({ code: "GUARDRAIL_REFUSED", message: "a path argument contains a NUL byte" });
  }
  const absolute = resolve(workingDirectory, path);
  if (!inside(workingDirectory, absolute)) {
    // The working directory is held as its real path: the same folder spelled through a symlink
    // (`/tmp` → `/private/tmp`, a linked home or code folder, the spelling the harness was
    // started with) is inside. Judged by where the path really lands, which is then handed on.
    const real = realPathOfNearest(absolute);
    if (inside(workingDirectory, real)) return real;
    throw new ToolsError({
      code: "GUARDRAIL_REFUSED",
      message: `path '${path}' resolves to ${real}, outside the working directory ${workingDirectory}; use a path inside it`,
      data: { path, resolved: real },
    });
  }
  const real = realPathOfNearest(absolute);
  if (!inside(workingDirectory, real)) {
    throw new ToolsError({
      code: "GUARDRAIL_REFUSED",
      message: `path '${path}' goes through a symlink to ${real}, outside the working directory ${workingDirectory}; use a path inside it`,
      data: { path, resolved: real },
    });
  }
  return absolute;
}

/**
 * The workspace-containment guardrail: every path a tool declares for a call (its `paths`) must
 * resolve inside the run's working directory. On by default in every registry.
 */
export function workspaceContainment(): Guardrail {
  return {
    name: "workspace-containment",
    check(call) {
      const paths: unknown = call.tool.paths?.(call.input, call.run) ?? [];
      // A tool's bug, told as one: a string would be checked letter by letter, a number as "empty".
      if (!Array.isArray(paths) || !paths.every((path) => typeof path === "string")) {
        throw new ToolsError({
          code: "INVALID_DEFINITION",
          message: `${call.tool.name} was not called: its paths(input) gave ${Array.isArray(paths) ? "a list with something other than paths in it" : typeof paths}, not a list of paths; this is a bug in the tool`,
        });
      }
      for (const path of paths as string[]) {
        // Resolve (and so check) first: `resolvedPaths?.set(…)` would skip the check when absent.
        const absolute = resolveInside(call.run.workingDirectory, path);
        call.resolvedPaths?.set(path, absolute);
      }
    },
  };
}
