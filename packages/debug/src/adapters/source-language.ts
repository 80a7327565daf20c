import { extname } from "node:path";
import type { AdapterId } from "./detect-adapter.js";

/** A source file's language, and the adapters that can stop in it. */
export interface SourceLanguage {
  /** As a reply names it: "Go", "Python", "C". */
  readonly name: string;
  /** The adapters that can take its breakpoints, the usual one first. */
  readonly adapters: readonly AdapterId[];
}

/**
 * Machine code with DWARF line tables, which both native debuggers read: lldb stops in a Go
 * binary built with DWARF, delve in the C, C++, Objective-C and assembly files cgo compiles
 * into a Go program (and in what a Go program links). Unusual pairs are still sent: the
 * adapter's verification says whether the program has the file.
 */
const native = (name: string, usual: AdapterId = "lldb"): SourceLanguage => ({
  name,
  adapters: usual === "lldb" ? ["lldb", "delve"] : ["delve", "lldb"],
});

const c = native("C");
const cpp = native("C++");
const assembly = native("assembly");

/**
 * By extension (lower-cased). A breakpoint is held back only where the adapter certainly
 * cannot use the file: Python source only debugpy runs, Dart source only dart, and neither
 * runs native code; lldb and delve take any native language.
 */
const languages: Readonly<Record<string, SourceLanguage>> = {
  ".py": { name: "Python", adapters: ["debugpy"] },
  ".pyw": { name: "Python", adapters: ["debugpy"] },
  ".dart": { name: "Dart", adapters: ["dart"] },
  ".go": native("Go", "delve"),
  ".rs": native("Rust"),
  ".swift": native("Swift"),
  ".c": c,
  ".h": c,
  ".cc": cpp,
  ".cpp": cpp,
  ".cxx": cpp,
  ".c++": cpp,
  ".hh": cpp,
  ".hpp": cpp,
  ".hxx": cpp,
  ".h++": cpp,
  ".m": native("Objective-C"),
  ".mm": native("Objective-C++"),
  ".s": assembly,
  ".sx": assembly,
  ".asm": assembly,
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
  /** "a Python file, not for this lldb session" */
  readonly why: string;
  /** The adapter whose session its breakpoints are sent to. */
  readonly target: AdapterId;
}

/**
 * Why `file`'s breakpoints are not for a session of `adapter` (no program it runs can have the
 * file: a Python file for lldb, a Go file for debugpy), or undefined when they may be, or when
 * its language is unknown.
 */
export function otherLanguage(file: string, adapter: AdapterId): OtherLanguage | undefined {
  const language = sourceLanguage(file);
  if (!language || language.adapters.includes(adapter)) return undefined;
  const article = /^[aeiou]/i.test(language.name) ? "an" : "a";
  return {
    why: `${article} ${language.name} file, not for this ${adapter} session`,
    target: language.adapters[0]!,
  };
}
