import { existsSync } from "node:fs";
import { basename, extname, isAbsolute, join, resolve } from "node:path";
import { DerivedFromFiles, readTextFile } from "../files/file-texts.js";

/** The largest compile_commands.json read, in bytes (here and for the include folders of its flags). */
export const compileDatabaseBytes = 64 * 1024 * 1024;

/** One translation unit of a compilation database. */
export interface CompileEntry {
  /** Absolute folder the compiler runs in. */
  readonly directory: string;
  /** Absolute path of the source. */
  readonly file: string;
  /** The compiler and its arguments, as the build runs them. */
  readonly arguments: readonly string[];
}

/** A compilation database found for a root. */
export interface CompileDatabase {
  /** Absolute path of the compile_commands.json read. */
  readonly path: string;
  /** C/C++ entries, one per source (the first entry of a file wins). */
  readonly entries: CompileEntry[];
  /** Entries left out: not a C/C++ source (assembler, …) or unreadable. */
  readonly skipped: number;
  /**
   * Entries whose `directory` is relative: the format wants it absolute, and clangd does not use
   * such an entry (it builds the file with guessed flags); read here relative to the database.
   */
  readonly relativeDirectories: number;
}

/** Folders of a root searched for compile_commands.json, in order (as clangd looks in build/). */
export const compileDatabaseFolders = [".", "build"] as const;

const sourceExtensions = new Set([".c", ".cc", ".cpp", ".cxx", ".c++", ".C", ".m", ".mm"]);

/**
 * The compile_commands.json of `root` or `root/build`, parsed; undefined when there is none.
 * A relative `directory` is taken relative to the database's folder. Throws when the file is not
 * a JSON array.
 */
export function readCompileDatabase(root: string): CompileDatabase | undefined {
  const path = compileDatabasePath(root);
  return path === undefined ? undefined : readCompileDatabaseAt(path);
}

/** The compile_commands.json clangd reads for `root` (its own, or that of `root/build`); undefined when none. */
function compileDatabasePath(root: string): string | undefined {
  return compileDatabaseFolders
    .map((folder) => join(root, folder, "compile_commands.json"))
    .find((candidate) => existsSync(candidate));
}

/** Per compile_commands.json: how many of its entries have a relative directory, while it is unchanged on disk. */
const relativeCounts = new DerivedFromFiles<number>(16);

/**
 * The compile_commands.json of `root` (see {@link readCompileDatabase}) and how many of its
 * entries have a relative `directory` (0 when it cannot be read); undefined when there is none.
 * Read again only when it changed on disk: `status` asks at each call, and a database generated
 * for a large tree takes a second to parse. `read` reads a file's text (tests count its calls).
 */
export function relativeDirectoriesOf(
  root: string,
  read: (path: string, maxBytes: number) => string = readTextFile,
): { path: string; count: number } | undefined {
  const path = compileDatabasePath(root);
  if (path === undefined) return undefined;
  const count = relativeCounts.get(path, () => {
    try {
      return readCompileDatabaseAt(path, read).relativeDirectories;
    } catch {
      return 0;
    }
  });
  return { path, count };
}

/** The compilation database at `path`, parsed (see {@link readCompileDatabase}). */
function readCompileDatabaseAt(
  path: string,
  read: (path: string, maxBytes: number) => string = readTextFile,
): CompileDatabase {
  // Bounded: generated for large trees it can reach hundreds of MB, parsed on the event loop.
  const parsed = JSON.parse(read(path, compileDatabaseBytes)) as unknown;
  if (!Array.isArray(parsed)) throw new Error(`${path} is not a JSON array of compile commands`);
  const base = resolve(path, "..");
  const entries: CompileEntry[] = [];
  const seen = new Set<string>();
  let skipped = 0;
  let relativeDirectories = 0;
  for (const raw of parsed as unknown[]) {
    const entry = raw as { directory?: unknown; file?: unknown; command?: unknown; arguments?: unknown };
    if (typeof entry.directory !== "string" || typeof entry.file !== "string") {
      skipped += 1;
      continue;
    }
    if (!isAbsolute(entry.directory)) relativeDirectories += 1;
    const directory = resolve(base, entry.directory);
    const file = resolve(directory, entry.file);
    const args = Array.isArray(entry.arguments)
      ? entry.arguments.filter((arg): arg is string => typeof arg === "string")
      : typeof entry.command === "string"
        ? splitCommand(entry.command)
        : [];
    if (args.length === 0 || !sourceExtensions.has(extname(file))) {
      skipped += 1;
      continue;
    }
    if (seen.has(file)) continue;
    seen.add(file);
    entries.push({ directory, file, arguments: args });
  }
  return { path, entries, skipped, relativeDirectories };
}

/** Splits a shell command line into words (single and double quotes, backslash escapes). */
export function splitCommand(command: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: "'" | '"' | undefined;
  for (let i = 0; i < command.length; i++) {
    const char = command[i]!;
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
    } else if (quote === '"') {
      if (char === '"') quote = undefined;
      else if (char === "\\" && i + 1 < command.length && '"\\$`'.includes(command[i + 1]!))
        word += command[++i];
      else word += char;
    } else if (char === "'" || char === '"') {
      quote = char;
      inWord = true;
    } else if (char === "\\" && i + 1 < command.length) {
      word += command[++i];
      inWord = true;
    } else if (/\s/.test(char)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += char;
      inWord = true;
    }
  }
  if (inWord) words.push(word);
  return words;
}

const wrappers = new Set(["ccache", "sccache", "distcc", "icecc"]);
const compilerName = /^(?:.*-)?(?:gcc|g\+\+|cc|c\+\+|clang|clang\+\+)(?:-\d+(?:\.\d+)*)?$/;
/** Options that write files (dependency files, output) or only print dependencies. */
const droppedWithValue = new Set(["-o", "-MF", "-MT", "-MQ"]);
const dropped = new Set(["-M", "-MM", "-MD", "-MMD", "-MP", "-MG"]);

/**
 * The entry's command turned into a syntax check that writes nothing: a compiler wrapper
 * (ccache …) dropped, output and dependency-file options removed, then `-fsyntax-only
 * -fdiagnostics-color=never` appended. Undefined when the compiler is not gcc or clang (their
 * flags would not be understood), e.g. MSVC's cl or nvcc.
 */
export function syntaxOnlyCommand(entry: CompileEntry): { compiler: string; args: string[] } | undefined {
  let args = [...entry.arguments];
  while (args.length > 1 && wrappers.has(basename(args[0]!))) args = args.slice(1);
  const compiler = args[0];
  if (compiler === undefined || !compilerName.test(basename(compiler))) return undefined;
  const kept: string[] = [];
  for (let i = 1; i < args.length; i++) {
    const arg = args[i]!;
    if (droppedWithValue.has(arg)) {
      i += 1;
      continue;
    }
    if (dropped.has(arg) || /^-M[FTQ]./.test(arg)) continue;
    kept.push(arg);
  }
  return { compiler, args: [...kept, "-fsyntax-only", "-fdiagnostics-color=never"] };
}
