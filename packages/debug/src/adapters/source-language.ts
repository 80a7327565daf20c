import { extname } from "node:path";
import type { AdapterId } from "./detect-adapter.js";

/** A source file's language, and the adapters that can stop in it. */
export interface SourceLanguage {
  /** As a reply names it: "Go", "Python", "C". */
  readonly name: string;
  /** The adapters that take its breakpoints, the usual one first. */
  readonly adapters: readonly AdapterId[];
}

const c: SourceLanguage = { name: "C", adapters: ["lldb", "delve"] };
const cpp: SourceLanguage = { name: "C++", adapters: ["lldb"] };

/** By extension; delve takes C files too (cgo). */
const languages: Readonly<Record<string, SourceLanguage>> = {
  ".py": { name: "Python", adapters: ["debugpy"] },
  ".pyw": { name: "Python", adapters: ["debugpy"] },
  ".go": { name: "Go", adapters: ["delve"] },
  ".dart": { name: "Dart", adapters: ["dart"] },
  ".rs": { name: "Rust", adapters: ["lldb"] },
  ".c": c,
  ".h": c,
  ".cc": cpp,
  ".cpp": cpp,
  ".cxx": cpp,
  ".hh": cpp,
  ".hpp": cpp,
  ".hxx": cpp,
  ".m": { name: "Objective-C", adapters: ["lldb"] },
  ".mm": { name: "Objective-C++", adapters: ["lldb"] },
  ".swift": { name: "Swift", adapters: ["lldb"] },
};

/**
 * The language of a source file by its extension, or undefined when the extension names none
 * of the adapters' languages (such a file's breakpoints go to every adapter: it may be one the
 * adapter knows, a `.pyx`, a generated source).
 */
export function sourceLanguage(file: string): SourceLanguage | undefined {
  return languages[extname(file).toLowerCase()];
}

/** Why a file's breakpoints are not for a session: its language, and the adapter it is for. */
export interface OtherLanguage {
  /** "a Go file, not for this lldb session" */
  readonly why: string;
  /** The adapter whose session its breakpoints are sent to. */
  readonly target: AdapterId;
}

/**
 * Why `file`'s breakpoints are not for a session of `adapter` (its language is another
 * adapter's), or undefined when they are, or when its language is unknown.
 */
export function otherLanguage(file: string, adapter: AdapterId): OtherLanguage | undefined {
  const language = sourceLanguage(file);
  if (!language || language.adapters.includes(adapter)) return undefined;
  const article = /^[AEIOU]/.test(language.name) ? "an" : "a";
  return {
    why: `${article} ${language.name} file, not for this ${adapter} session`,
    target: language.adapters[0]!,
  };
}
