import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { findPythonEnvironment } from "../servers/python-environment.js";
import type { ServerSpec } from "../servers/server-table.js";

/** Settings and initialization options one server gets, or why it cannot start. */
export type ServerSetup =
  | {
      readonly ok: true;
      readonly settings: Record<string, unknown>;
      readonly initializationOptions?: unknown;
    }
  | { readonly ok: false; readonly reason: string };

function ancestors(directory: string): string[] {
  const found: string[] = [];
  let current = directory;
  for (;;) {
    found.push(current);
    const parent = dirname(current);
    if (parent === current) return found;
    current = parent;
  }
}

/**
 * `typescript/lib/tsserver.js` resolvable from the root (walking up), else next to the server's
 * binary (`node_modules/.bin/../typescript`).
 */
export function findTsserver(root: string, binary: string): string | undefined {
  const candidates = [
    ...ancestors(root).map((directory) =>
      join(directory, "node_modules", "typescript", "lib", "tsserver.js"),
    ),
    join(dirname(binary), "..", "typescript", "lib", "tsserver.js"),
  ];
  return candidates.find((candidate) => existsSync(candidate));
}

/** The interpreter given to pyright in its settings (`python.pythonPath`), if any. */
export function pythonPathOf(settings: Record<string, unknown>): string | undefined {
  const python = (settings.python as { pythonPath?: unknown } | undefined)?.pythonPath;
  return typeof python === "string" ? python : undefined;
}

/**
 * Per-language settings: the project's Python environment for pyright (`findPythonEnvironment`:
 * the root and its parents up to `place.workingDirectory`, then `VIRTUAL_ENV` from this
 * process), tsserver's path for TypeScript, single-pass diagnostics for gopls. Not ok (with what
 * to do) when the server cannot work in this root although its binary is there: TypeScript
 * without a resolvable `typescript`. `place.display` is the root as shown to the model (default:
 * the path).
 */
export function serverSetup(
  spec: ServerSpec,
  root: string,
  binary: string,
  place: { readonly display?: string; readonly workingDirectory?: string } = {},
): ServerSetup {
  const display = place.display ?? root;
  if (spec.language === "typescript") {
    const tsserver = findTsserver(root, binary);
    if (!tsserver) {
      return {
        ok: false,
        reason: `typescript is not resolvable from ${display} (no node_modules/typescript/lib/tsserver.js there or in a parent folder, nor next to ${binary}); install it in the project (npm install --save-dev typescript, or pnpm add -D typescript), then call again`,
      };
    }
    return {
      ok: true,
      settings: {},
      initializationOptions: {
        tsserver: { path: tsserver, useSyntaxServer: "never" },
        // Off: tsserver otherwise renames a name where it is imported or destructured by adding
        // an alias there (`import { old as new }`, `{ old: new }`), leaving the declaration and
        // every other file as they were, and even breaking the build (a destructured dynamic import).
        preferences: { providePrefixAndSuffixTextForRename: false },
      },
    };
  }
  if (spec.language === "python") {
    const environment = findPythonEnvironment(root, { workingDirectory: place.workingDirectory });
    const python: Record<string, unknown> = {
      analysis: { diagnosticMode: "openFilesOnly", autoSearchPaths: true, useLibraryCodeForTypes: true },
    };
    if (environment) python.pythonPath = environment.python;
    return { ok: true, settings: { python } };
  }
  if (spec.language === "go") {
    // One diagnostics pass per change (parse, type check and analyses together; by default
    // gopls runs analyses such as printf in a second pass 250 ms later), each reported as
    // "diagnosing …" progress. Given at initialize and through workspace/configuration
    // (section "gopls"), as gopls reads both.
    const gopls = { diagnosticsDelay: "0s", verboseWorkDoneProgress: true };
    return { ok: true, settings: { gopls }, initializationOptions: gopls };
  }
  return { ok: true, settings: {} };
}
