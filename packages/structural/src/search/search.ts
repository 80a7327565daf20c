import { createHash } from "node:crypto";
import { readFile, stat } from "node:fs/promises";
import { relative, sep } from "node:path";
import type { LanguageSpec } from "../grammars/languages.js";
import { findMatches, type StructuralMatch } from "../match/find-matches.js";
import type { StructuralParser } from "../parser/structural-parser.js";
import type { CompiledPattern } from "../pattern/pattern-node.js";
import { outerIgnoreLayers, walkFiles } from "./walk-files.js";

/** Files larger than this are skipped (reported), default 2 MiB. */
export const defaultMaxFileBytes = 2 * 1024 * 1024;

/** The matches of one file, with what was read (for staging edits against it). */
export interface FileMatches {
  /** Absolute path. */
  readonly path: string;
  /** Relative to the working directory, `/`-separated. */
  readonly relativePath: string;
  readonly text: string;
  /** sha256 of the bytes read. */
  readonly hash: string;
  readonly matches: readonly StructuralMatch[];
}

/** What a search saw. */
export interface SearchOutcome {
  /** Files with at least one match, by path. */
  readonly files: FileMatches[];
  /** Files of the language considered (after .gitignore). */
  readonly considered: number;
  /** Files parsed (the rest lacked one of the pattern's literal tokens). */
  readonly parsed: number;
  readonly skippedBinary: number;
  readonly skippedLarge: number;
  /** Match attempts abandoned at the `$$$` step budget. */
  readonly exhausted: number;
}

/** Options of {@link searchFiles}. */
export interface SearchOptions {
  readonly parser: StructuralParser;
  readonly spec: LanguageSpec;
  readonly pattern: CompiledPattern;
  readonly workingDirectory: string;
  /** Absolute file or directory to search. */
  readonly target: string;
  readonly signal?: AbortSignal;
  readonly maxFileBytes?: number;
}

function isBinary(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, 8000);
  for (let index = 0; index < end; index++) if (bytes[index] === 0) return true;
  return false;
}

/**
 * Searches a file or a directory tree for the pattern: only files of the language, .gitignore
 * honoured, binary and large files skipped, files lacking a literal token of the pattern never
 * parsed. Results are ordered by path, then position.
 */
export async function searchFiles(options: SearchOptions): Promise<SearchOutcome> {
  const { parser, spec, pattern, workingDirectory, target, signal } = options;
  const maxBytes = options.maxFileBytes ?? defaultMaxFileBytes;
  const info = await stat(target);
  const paths = info.isDirectory()
    ? await walkFiles(
        target,
        (name) => spec.extensions.some((extension) => name.toLowerCase().endsWith(extension)),
        signal,
        await outerIgnoreLayers(workingDirectory, target),
      )
    : [target];
  const files: FileMatches[] = [];
  let parsed = 0;
  let skippedBinary = 0;
  let skippedLarge = 0;
  let exhausted = 0;
  for (const path of paths) {
    signal?.throwIfAborted();
    let fileStat;
    try {
      fileStat = await stat(path);
    } catch {
      continue;
    }
    if (fileStat.size > maxBytes) {
      skippedLarge++;
      continue;
    }
    const bytes = await readFile(path);
    if (isBinary(bytes)) {
      skippedBinary++;
      continue;
    }
    const text = bytes.toString("utf8");
    if (!pattern.literals.every((literal) => text.includes(literal))) continue;
    parsed++;
    const tree = await parser.fileTree(path, spec, text, fileStat);
    const found = findMatches(pattern, tree, text);
    exhausted += found.exhausted;
    if (found.matches.length === 0) continue;
    files.push({
      path,
      relativePath: relative(workingDirectory, path).split(sep).join("/"),
      text,
      hash: createHash("sha256").update(bytes).digest("hex"),
      matches: found.matches,
    });
  }
  files.sort((a, b) => (a.relativePath < b.relativePath ? -1 : a.relativePath > b.relativePath ? 1 : 0));
  return { files, considered: paths.length, parsed, skippedBinary, skippedLarge, exhausted };
}
