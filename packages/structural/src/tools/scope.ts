import { stat } from "node:fs/promises";
import type { ToolContext } from "@tools/registry";
import { StructuralError } from "../errors/structural-error.js";
import { languageForPath, languageIds, type LanguageSpec } from "../grammars/languages.js";
import type { CompiledPattern } from "../pattern/pattern-node.js";
import type { StructuralParser } from "../parser/structural-parser.js";

/** What a search covers: the grammar and the absolute file or folder. */
export interface SearchScope {
  readonly spec: LanguageSpec;
  readonly target: string;
  readonly isFile: boolean;
}

/**
 * Resolves `path` (default the working directory) and the language: the given id, or the one the
 * file's extension names.
 */
export async function resolveScope(
  parser: StructuralParser,
  context: ToolContext,
  path: string | undefined,
  language: string | undefined,
): Promise<SearchScope> {
  const target = path === undefined ? context.run.workingDirectory : context.resolvePath(path);
  let isFile: boolean;
  let isFolder: boolean;
  try {
    const info = await stat(target);
    isFile = info.isFile();
    isFolder = info.isDirectory();
  } catch {
    throw new StructuralError({
      code: "PATH_NOT_FOUND",
      message: `path '${path ?? "."}' does not exist in the working directory; give an existing file or folder`,
    });
  }
  if (!isFile && !isFolder) {
    throw new StructuralError({
      code: "PATH_NOT_FOUND",
      message: `path '${path ?? "."}' is a FIFO, socket or device, not a file or folder; give a source file or a folder`,
    });
  }
  if (language !== undefined) return { spec: parser.spec(language), target, isFile };
  const inferred = isFile ? languageForPath(target) : undefined;
  if (!inferred) {
    throw new StructuralError({
      code: "LANGUAGE_REQUIRED",
      message:
        (isFile
          ? `cannot tell the language of '${path}' from its extension`
          : "language is required when path is a folder") +
        `; give language, one of: ${languageIds().join(", ")}`,
    });
  }
  return { spec: inferred, target, isFile };
}

/** A count with its noun: "1 file", "3 files". */
export function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/**
 * Compiles the pattern for the scope's grammar. A `.h` file read as C (its language inferred)
 * where the pattern does not parse as C may be C++: the error then says to pass language "cpp".
 */
export async function compileInScope(
  parser: StructuralParser,
  scope: SearchScope,
  source: string,
  language: string | undefined,
): Promise<CompiledPattern> {
  try {
    return await parser.compile(scope.spec, source);
  } catch (error) {
    const header =
      scope.isFile && language === undefined && scope.spec.id === "c" && /\.h$/i.test(scope.target);
    if (!header || !(error instanceof StructuralError) || error.code !== "PATTERN_INVALID") throw error;
    throw new StructuralError({
      code: "PATTERN_INVALID",
      message: `${error.message}\nA .h file is read as C; if this header is C++, pass language "cpp".`,
      cause: error,
    });
  }
}
