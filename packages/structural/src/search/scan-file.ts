import { createHash } from "node:crypto";
import { isUtf8 } from "node:buffer";
import type { LanguageSpec } from "../grammars/languages.js";
import { findMatches, type StructuralMatch } from "../match/find-matches.js";
import type { StructuralParser } from "../parser/structural-parser.js";
import type { CompiledPattern } from "../pattern/pattern-node.js";

/** What scanning one file found; plain data, so it crosses a worker boundary. */
export interface FileScan {
  readonly path: string;
  /** The decoded text; only kept when there are matches. */
  readonly text: string;
  /** sha256 of the bytes read; only computed when there are matches. */
  readonly hash: string;
  /** The bytes are not valid UTF-8 (decoded with replacement characters: not safe to rewrite). */
  readonly notUtf8: boolean;
  readonly matches: readonly StructuralMatch[];
  readonly exhausted: number;
}

/** A file's size and mtime, the tree cache's key. */
export interface FileStamp {
  readonly size: number;
  readonly mtimeMs: number;
}

/** The pattern's literal tokens as bytes, for a prefilter that runs before decoding. */
export function literalBytes(pattern: CompiledPattern): Buffer[] {
  return pattern.literals.map((literal) => Buffer.from(literal, "utf8"));
}

/** Whether the bytes hold every literal (a file lacking one cannot match). */
export function hasLiterals(bytes: Buffer, literals: readonly Buffer[]): boolean {
  for (const literal of literals) if (bytes.indexOf(literal) < 0) return false;
  return true;
}

/**
 * Decodes, parses (through the tree cache) and matches one file that passed the prefilter. The
 * text keeps a byte-order mark as U+FEFF so a rewrite writes it back.
 */
export async function scanBytes(
  parser: StructuralParser,
  spec: LanguageSpec,
  pattern: CompiledPattern,
  path: string,
  bytes: Buffer,
  stamp: FileStamp,
): Promise<FileScan> {
  const text = bytes.toString("utf8");
  const tree = await parser.fileTree(path, spec, text, stamp);
  const found = findMatches(pattern, tree, text);
  if (found.matches.length === 0) {
    return { path, text: "", hash: "", notUtf8: false, matches: [], exhausted: found.exhausted };
  }
  return {
    path,
    text,
    hash: createHash("sha256").update(bytes).digest("hex"),
    notUtf8: !isUtf8(bytes),
    matches: found.matches,
    exhausted: found.exhausted,
  };
}
