import { readdirSync, realpathSync, statSync } from "node:fs";
import { delimiter, dirname, isAbsolute, join } from "node:path";

/** The names of the folders in `folder`; none when it cannot be listed. */
function subfolders(folder: string): string[] {
  try {
    return readdirSync(folder, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() || entry.isSymbolicLink())
      .map((entry) => entry.name);
  } catch {
    return [];
  }
}

/**
 * The folders a C or C++ compiler (clangd's built-in driver, gcc) searches for a `<…>` include
 * after the compile flags' own: the C library's (`/usr/include`, its multiarch folder), the C++
 * library's of each version installed, the compilers' built-in headers (clangd's resource folder
 * beside `binary`), and macOS's SDKs. Every version present counts: a name one of them holds is
 * taken as a system header (see `IncludeRoot.systemFolders`). Only those that are folders now
 * (looked at once per server: a walk would otherwise look for each missing one again).
 */
export function systemIncludeFolders(binary: string | undefined): string[] {
  const folders = ["/usr/local/include"];
  const multiarch = subfolders("/usr/include").filter((name) => name.includes("-linux-"));
  for (const version of subfolders("/usr/include/c++")) {
    folders.push(join("/usr/include/c++", version));
    for (const arch of multiarch) folders.push(join("/usr/include", arch, "c++", version));
    folders.push(join("/usr/include/c++", version, "backward"));
  }
  for (const lib of ["/usr/lib/gcc", "/usr/lib64/gcc"])
    for (const triple of subfolders(lib))
      for (const version of subfolders(join(lib, triple))) {
        folders.push(join(lib, triple, version, "include"), join(lib, triple, version, "include-fixed"));
      }
  const llvm = [
    "/usr",
    "/usr/local",
    ...subfolders("/usr/lib")
      .filter((name) => name.startsWith("llvm"))
      .map((name) => join("/usr/lib", name)),
  ];
  if (binary !== undefined && isAbsolute(binary)) {
    try {
      llvm.unshift(dirname(dirname(realpathSync(binary))));
    } catch {
      // Not there: its resource folder is not known.
    }
  }
  for (const prefix of new Set(llvm)) {
    folders.push(join(prefix, "include/c++/v1"));
    for (const version of subfolders(join(prefix, "lib/clang")))
      folders.push(join(prefix, "lib/clang", version, "include"));
  }
  for (const arch of multiarch) folders.push(join("/usr/include", arch));
  folders.push("/usr/include");
  for (const sdk of [
    "/Library/Developer/CommandLineTools/SDKs/MacOSX.sdk/usr/include",
    "/Library/Developer/CommandLineTools/usr/include/c++/v1",
    "/Applications/Xcode.app/Contents/Developer/Platforms/MacOSX.platform/Developer/SDKs/MacOSX.sdk/usr/include",
    "/Applications/Xcode.app/Contents/Developer/Toolchains/XcodeDefault.xctoolchain/usr/include/c++/v1",
  ])
    folders.push(sdk);
  return [...new Set(folders)].filter((folder) => {
    try {
      return statSync(folder).isDirectory();
    } catch {
      return false;
    }
  });
}

/**
 * The include folders the environment adds ahead of the compiler's own (`CPATH`, as `-I`;
 * `C_INCLUDE_PATH`, `CPLUS_INCLUDE_PATH`, `OBJC_INCLUDE_PATH`, as `-isystem`); undefined when one
 * is relative or empty (the compile command's folder, not known here).
 */
export function environmentIncludeFolders(env: NodeJS.ProcessEnv): string[] | undefined {
  const folders: string[] = [];
  for (const name of ["CPATH", "C_INCLUDE_PATH", "CPLUS_INCLUDE_PATH", "OBJC_INCLUDE_PATH"]) {
    const value = env[name];
    if (value === undefined || value === "") continue;
    for (const folder of value.split(delimiter)) {
      if (!isAbsolute(folder)) return undefined;
      folders.push(folder);
    }
  }
  return folders;
}
