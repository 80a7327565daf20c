import { basename, dirname, isAbsolute, join, resolve } from "node:path";
import { compileDatabaseBytes, splitCommand } from "../checkers/compile-commands.js";
import { DerivedFromFiles, isFile, readTextFile } from "../files/file-texts.js";

/** What the compile flags clangd reads for a root's files tell about what those files include. */
export interface CompileFlagFacts {
  /**
   * Some flag may include a file into every file without an `#include` line (`-include`,
   * `-imacros`, `/FI`), or a flag file could not be read or names another file of flags (a
   * response file `@…`): a change to any header may reach every file.
   */
  readonly forcesIncludes: boolean;
  /** The folders searched for included files (`-I`, `-isystem`, `-iquote`, `-idirafter`, `/I`), absolute. */
  readonly includeDirs: readonly string[];
  /**
   * Some flag moves the compiler's own include folders or adds folders not among
   * {@link includeDirs} (a sysroot, a toolchain, frameworks: see `systemMoving`): a `<…>` include
   * of a name `/usr/include` holds may then be a file of the root (a sysroot in the tree).
   */
  readonly movesSystemFolders: boolean;
}

/** A flag forcing an include: `-include`/`--include`, `-imacros`/`--imacros`, clang-cl's `/FI`. */
const forcing = /(?:^|[\s"',[=])(?:--?include|--?imacros|[-/]FI)/m;

/**
 * A flag moving the compiler's own include folders or adding folders {@link searchFlag} does not
 * read: a sysroot (`--sysroot`, `-isysroot`, `/winsysroot`), a toolchain (`--gcc-toolchain`,
 * `--gcc-install-dir`, `-resource-dir`), folders under a prefix or the sysroot (`-iwithprefix`,
 * `-iwithsysroot`), `-isystem-after`, MSVC's `-imsvc`, frameworks (`-F`, `-iframework`).
 */
const systemMoving =
  /(?:^|[\s"',[=])(?:--?sysroot|-isysroot|[-/]winsysroot|--gcc-toolchain|--gcc-install-dir|-resource-dir|-iwithprefix|-iwithsysroot|-iprefix|-isystem-after|[-/]imsvc|-iframework|-F(?=[\s"',\]/.]|$))/m;

/** A response file (`@flags.rsp`), whose flags clangd reads as if written in its place. */
const responseFile = /(?:^|[\s"',[])@[^\s"',\]]/m;

/** A flag naming a folder searched for included files, with its folder joined or next. */
const searchFlag =
  /^(?:-I|-isystem(?!-after)|-iquote|-idirafter|--include-directory=?|-cxx-isystem|[-/]I|\/external:I)(.*)$/;

/** The files of flags clangd reads for a file under `root`, as paths with the folder their relative paths start from. */
function flagFiles(
  root: string,
  watched: Iterable<string>,
): { path: string; kind: "database" | "flags" | "config" }[] {
  const found: { path: string; kind: "database" | "flags" | "config" }[] = [];
  // clangd takes the compilation database (or compile_flags.txt) of the nearest folder holding
  // one, from the file's up: the root's, or an ancestor's when the root was found by its .clangd.
  let databaseFound = false;
  for (let folder = root; ; folder = dirname(folder)) {
    if (!databaseFound) {
      for (const [name, kind] of [
        ["compile_commands.json", "database"],
        ["build/compile_commands.json", "database"],
        ["compile_flags.txt", "flags"],
      ] as const) {
        const path = join(folder, name);
        if (isFile(path)) {
          found.push({ path, kind });
          databaseFound = true;
        }
      }
    }
    // Every .clangd of an ancestor applies.
    if (folder !== root && isFile(join(folder, ".clangd")))
      found.push({ path: join(folder, ".clangd"), kind: "config" });
    if (dirname(folder) === folder) break;
  }
  for (const file of watched) if (basename(file) === ".clangd") found.push({ path: file, kind: "config" });
  return found;
}

/** The folders `args` (a compile command's words) name for included files, resolved from `directory`. */
function searchedFolders(args: readonly string[], directory: string, into: Set<string>): void {
  for (let i = 0; i < args.length; i++) {
    const match = searchFlag.exec(args[i]!);
    if (!match) continue;
    const folder = match[1] !== "" ? match[1]! : args[++i];
    if (folder !== undefined && folder !== "")
      into.add(isAbsolute(folder) ? resolve(folder) : resolve(directory, folder));
  }
}

/** Compile commands of a compilation database's text; undefined when it is not one. */
function databaseCommands(text: string): { directory: string; args: string[] }[] | undefined {
  let entries: unknown;
  try {
    entries = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(entries)) return undefined;
  const commands: { directory: string; args: string[] }[] = [];
  for (const entry of entries as { directory?: unknown; arguments?: unknown; command?: unknown }[]) {
    if (typeof entry?.directory !== "string") continue;
    const args = Array.isArray(entry.arguments)
      ? entry.arguments.filter((arg): arg is string => typeof arg === "string")
      : typeof entry.command === "string"
        ? splitCommand(entry.command)
        : [];
    commands.push({ directory: entry.directory, args });
  }
  return commands;
}

/** What one compilation database or compile_flags.txt tells: see {@link CompileFlagFacts}. */
interface FlagFileFacts {
  readonly forcesIncludes: boolean;
  readonly includeDirs: readonly string[];
  readonly movesSystemFolders: boolean;
}

/** Most compilation databases and flag files whose facts are kept (see {@link flagFileFacts}). */
const flagFilesKept = 64;

/** Per path of a compilation database or compile_flags.txt: its facts, while it is unchanged on disk. */
const flagFileCache = new DerivedFromFiles<FlagFileFacts>(flagFilesKept);

/**
 * What the compilation database or compile_flags.txt at `path` tells; undefined when it is gone.
 * Kept per file and read again only when its identity on disk changed: a database generated for
 * a large tree (tens of MB) would otherwise be read and parsed again at each header change.
 */
function flagFileFacts(
  path: string,
  kind: "database" | "flags",
  read: (path: string, maxBytes: number) => string,
): FlagFileFacts | undefined {
  try {
    // Bounded as for the project check: a larger one (hundreds of MB for a large tree) would
    // stall the event loop for seconds and take GBs to parse; its folders then count as unknown.
    return flagFileCache.get(path, () => factsOfText(read(path, compileDatabaseBytes), path, kind));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    return { forcesIncludes: true, includeDirs: [], movesSystemFolders: true };
  }
}

/** What the text of a compilation database or compile_flags.txt at `path` tells. */
function factsOfText(text: string, path: string, kind: "database" | "flags"): FlagFileFacts {
  if (forcing.test(text) || responseFile.test(text))
    return { forcesIncludes: true, includeDirs: [], movesSystemFolders: true };
  const folder = dirname(path);
  const folders = new Set<string>();
  if (kind === "database") {
    const commands = databaseCommands(text);
    if (!commands) return { forcesIncludes: true, includeDirs: [], movesSystemFolders: true };
    for (const { directory, args } of commands) searchedFolders(args, resolve(folder, directory), folders);
  } else {
    searchedFolders(
      text.split(/\r?\n/).map((line) => line.trim()),
      folder,
      folders,
    );
  }
  return { forcesIncludes: false, includeDirs: [...folders], movesSystemFolders: systemMoving.test(text) };
}

/**
 * What the compile flags clangd reads for the files under `root` tell (see
 * {@link CompileFlagFacts}): its compilation database or compile_flags.txt (the root's, or the
 * nearest ancestor's), and every .clangd of the root (`watched`: its files) and its ancestors.
 * A compilation database or compile_flags.txt is read again only when it changed on disk, and
 * not when over `compileDatabaseBytes` (then everything may be included: too large to tell).
 * `read` reads a file's text, up to a size; tests count its calls.
 */
export function compileFlagFacts(
  root: string,
  watched: Iterable<string>,
  read: (path: string, maxBytes?: number) => string = readTextFile,
): CompileFlagFacts {
  const folders = new Set<string>();
  let movesSystemFolders = false;
  const files = flagFiles(root, watched);
  for (let index = 0; index < files.length; index++) {
    const { path, kind } = files[index]!;
    if (kind !== "config") {
      const facts = flagFileFacts(path, kind, read);
      if (!facts) continue;
      if (facts.forcesIncludes) return { forcesIncludes: true, includeDirs: [], movesSystemFolders: true };
      for (const folder of facts.includeDirs) folders.add(folder);
      if (facts.movesSystemFolders) movesSystemFolders = true;
      continue;
    }
    let text: string;
    try {
      text = read(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") continue;
      return { forcesIncludes: true, includeDirs: [], movesSystemFolders: true };
    }
    if (forcing.test(text) || responseFile.test(text))
      return { forcesIncludes: true, includeDirs: [], movesSystemFolders: true };
    if (systemMoving.test(text)) movesSystemFolders = true;
    const folder = dirname(path);
    // A .clangd's flags (YAML: `Add: [-I../lib]`, `- -I../lib`): relative paths start from the
    // compile command's folder, here taken as the .clangd's and the root.
    const words = text.split(/[\s,[\]"']+/).filter((word) => word !== "");
    searchedFolders(words, folder, folders);
    searchedFolders(words, root, folders);
    // Its own compilation database (`CompilationDatabase: out`) is read too.
    const database = /^\s*CompilationDatabase:\s*["']?([^\s"'#]+)/m.exec(text)?.[1];
    if (database !== undefined && database !== "None" && database !== "Ancestors") {
      const databaseFolder = resolve(folder, database);
      for (const [name, fileKind] of [
        ["compile_commands.json", "database"],
        ["compile_flags.txt", "flags"],
      ] as const) {
        const candidate = join(databaseFolder, name);
        if (!files.some((file) => file.path === candidate) && isFile(candidate))
          files.push({ path: candidate, kind: fileKind });
      }
    }
  }
  return { forcesIncludes: false, includeDirs: [...folders], movesSystemFolders };
}
