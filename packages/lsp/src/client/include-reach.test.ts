import { describe, expect, it } from "vitest";
import {
  includedNames as namesIncluded,
  includedPaths,
  includeReach,
  includeReadLimit,
} from "./include-reach.js";

/** The names (last path part) of the files `text` includes; undefined for a macro include. */
const includedNames = (text: string): string[] | undefined =>
  includedPaths(text)?.map((path) => path.slice(path.lastIndexOf("/") + 1));

/** A root of `files` (path → text; undefined: unreadable) for {@link includeReach}. */
function root(files: Record<string, string | undefined>) {
  return { files: Object.keys(files), texts: (path: string) => [files[path]] };
}

describe("includedNames", () => {
  it("lists the names of the included files, whatever the folder, and none for other text", () => {
    expect(
      includedNames('#include "sub/a.h"\n  #  include <b.h>\n#import "c.h"\n#include_next <d/e.h>\nint x;\n'),
    ).toEqual(["a.h", "b.h", "c.h", "e.h"]);
    expect(includedNames("int x; /* # */\n")).toEqual([]);
    expect(includedNames('#inc\\\nlude "split.h"\n')).toEqual(["split.h"]);
  });

  it("finds a directive after a byte order mark or a comment, before a comment, or written with a digraph", () => {
    expect(includedNames('\uFEFF#include "bom.h"\n')).toEqual(["bom.h"]);
    expect(includedNames('/* lead */ #include "lead.h"\n')).toEqual(["lead.h"]);
    expect(includedNames('%:include "digraph.h"\n')).toEqual(["digraph.h"]);
    expect(includedNames('#include \\ \n"spaced.h"\r\n#include "cr.h"\r')).toEqual(["spaced.h", "cr.h"]);
    // A trailing comment or space is no macro: the file is known.
    expect(includedNames('#include "a.h"  // for a()\n#include <b.h> /* b */\n#include "c.h" \n')).toEqual([
      "a.h",
      "b.h",
      "c.h",
    ]);
    // Prose in a comment is no directive.
    expect(includedNames("/*\n   #include's protect themselves\n */\n")).toEqual([]);
  });

  it("finds a directive a comment splits, or on the line a comment of several lines ends on", () => {
    expect(includedNames('# /* c */ include "inside.h"\n')).toEqual(["inside.h"]);
    expect(includedNames('/* a\n b */ #include "after.h"\n')).toEqual(["after.h"]);
    expect(includedNames("/* a\n b */ #include HEADER\n")).toBeUndefined();
    // A `/*` in a string is no comment: the directive after it still counts.
    expect(includedNames('char *s = "/*";\n#include "real.h"\n/* */\n')).toEqual(["real.h"]);
  });

  it("reads a line of many comments in a time linear in its length", () => {
    const text = `#include "a.h"\n${"/**/ ".repeat(40)}int x;\n${"/* a */ ".repeat(5_000)}\n`;
    const start = performance.now();
    expect(includedNames(text)).toEqual(["a.h"]);
    expect(performance.now() - start).toBeLessThan(1_000);
  });

  it("is undefined when a directive names its file through a macro", () => {
    expect(includedNames('#include /* which */ "a.h"\n')).toBeUndefined();
    expect(includedNames("  %:  include_next CONFIG\n")).toBeUndefined();
    expect(includedNames('#include "a.h"\n#include HEADER\n')).toBeUndefined();
  });
});

describe("includeReach on many files", () => {
  it("reads each file of headers including each other once, and knows they reach nothing", () => {
    // 40 headers each including all the others (guarded, as system headers are).
    const names = Array.from({ length: 40 }, (_, i) => `h${i}.h`);
    const files = Object.fromEntries(
      names.map((name) => [`/r/${name}`, names.map((other) => `#include <${other}>\n`).join("")]),
    );
    let reads = 0;
    const reaches = includeReach(["/r/changed.h"], {
      files: Object.keys(files),
      texts: (path) => (reads++, [files[path]]),
    });
    expect(reaches('#include "h0.h"\n')).toBe(false);
    expect(reaches('#include "h7.h"\n')).toBe(false);
    expect(reads).toBe(40);
    files["/r/h39.h"] += '#include "changed.h"\n';
    expect(includeReach(["/r/changed.h"], root(files))('#include "h0.h"\n')).toBe(true);
  });

  it("follows a chain of thousands of headers without overflowing the stack", () => {
    const files = Object.fromEntries(
      Array.from({ length: 4_000 }, (_, i) => [
        `/r/c${i}.h`,
        i < 3_999 ? `#include "c${i + 1}.h"\n` : "int x;\n",
      ]),
    );
    expect(includeReach(["/r/changed.h"], root(files))('#include "c0.h"\n')).toBe(false);
    files["/r/c3999.h"] = '#include "changed.h"\n';
    expect(includeReach(["/r/changed.h"], root(files))('#include "c0.h"\n')).toBe(true);
  });
});

describe("includeReach", () => {
  const files = {
    "/r/h.h": "int h;\n",
    "/r/mid.h": '#include "h.h"\n',
    "/r/top.h": "#include <mid.h>\n",
    "/r/other.h": "#include <stdio.h>\n",
    "/r/x.h": '#include "y.h"\n#include "h.h"\n',
    "/r/y.h": '#include "x.h"\n',
  };

  it("reaches the changed file directly, through other files, and through a cycle", () => {
    const reaches = includeReach(["/r/h.h"], root(files));
    expect(reaches('#include "h.h"\n')).toBe(true);
    expect(reaches('#include "top.h"\n')).toBe(true);
    expect(reaches('#include "other.h"\n#include <stdlib.h>\n')).toBe(false);
    expect(reaches("int main(void) { return 0; }\n")).toBe(false);
    // y.h, followed from x.h, reaches h.h only through x.h, still being followed then.
    expect(reaches('#include "x.h"\n')).toBe(true);
    expect(reaches('#include "y.h"\n')).toBe(true);
  });

  it("counts a macro include, an unreadable file and a root past the read bound as reaching", () => {
    expect(includeReach(["/r/h.h"], root(files))("#include CONFIG\n")).toBe(true);
    expect(includeReach(["/r/h.h"], root({ ...files, "/r/gone.h": undefined }))('#include "gone.h"\n')).toBe(
      true,
    );
    const many: Record<string, string> = {};
    for (let i = 0; i <= includeReadLimit; i++) many[`/r/${i}/same.h`] = "int x;\n";
    expect(includeReach(["/r/h.h"], root(many))('#include "same.h"\n')).toBe(true);
  });

  it("follows a file the watch does not list, found from the including file's folder or an include folder", () => {
    const outside: Record<string, string> = {
      "/lib/kernel.h": '#include "port/port.h"\n',
      "/lib/port/port.h": '#include "kconfig.h"\n',
      "/lib/other.h": "#include <stdio.h>\n",
      "/r/.hidden/wrap.h": '#include "h.h"\n',
    };
    const tree = {
      files: Object.keys(files),
      texts: (path: string) => [files[path as keyof typeof files] ?? outside[path]],
      includeDirs: ["/lib"],
      isFile: (path: string) => path in outside,
    };
    const reaches = includeReach(["/r/kconfig.h"], tree);
    expect(reaches("#include <kernel.h>\n", "/r/main.c")).toBe(true);
    expect(reaches('#include "../lib/kernel.h"\n', "/r/main.c")).toBe(true);
    expect(reaches('#include "/lib/port/port.h"\n', "/r/main.c")).toBe(true);
    expect(reaches("#include <other.h>\n", "/r/main.c")).toBe(false);
    expect(includeReach(["/r/h.h"], tree)('#include ".hidden/wrap.h"\n', "/r/main.c")).toBe(true);
  });
});

describe("includedNames of open documents", () => {
  it("names what they include through other files, by name, include folder, or the including file's folder", () => {
    const files: Record<string, string | undefined> = {
      "/r/a.c": '#include "wrap.h"\n#include CONFIG\n',
      "/r/wrap.h": '#include_next <gen/table.def>\n#include "rel/local.h"\n',
      "/r/rel/local.h": '#include "items.inc"\n',
      "/r/unread.h": undefined,
      "/r/other.c": '#include "unrelated.txt"\n',
    };
    const extra: Record<string, string> = {
      "/out/gen/table.def": '#include "row.x"\n',
      "/r/rel/items.inc": '#include "deep.txt"\n',
    };
    const names = namesIncluded([{ text: files["/r/a.c"]!, path: "/r/a.c" }], {
      files: Object.keys(files),
      texts: (path) => [files[path] ?? extra[path]],
      includeDirs: ["/out"],
      isFile: (path) => path in extra,
    });
    // A directive naming its file through a macro names nothing here: the others are followed.
    expect([...names].sort()).toEqual(["deep.txt", "items.inc", "local.h", "row.x", "table.def", "wrap.h"]);
  });

  it("stops reading past the read limit", () => {
    const files: Record<string, string> = {};
    for (let i = 0; i <= includeReadLimit + 10; i++) files[`/r/h${i}.h`] = `#include "h${i + 1}.h"\n`;
    const names = namesIncluded([{ text: '#include "h0.h"\n', path: "/r/a.c" }], root(files));
    expect(names.size).toBe(includeReadLimit + 1);
  });
});

describe("files not listed, looked up in many include folders", () => {
  /** 200 include folders (one holding gen/table.def and up/Case.H), 100 headers of the root including each other and <stdio.h>. */
  function manyFolders() {
    const files: Record<string, string> = { "/r/a.c": '#include "h0.h"\n' };
    for (let i = 0; i < 100; i++) files[`/r/h${i}.h`] = `#include "h${i + 1}.h"\n#include <stdio.h>\n`;
    files["/r/h100.h"] = '#include <gen/table.def>\n#include "../up/case.h"\n';
    const includeDirs = Array.from({ length: 200 }, (_, i) => `/out/m${i}/include`);
    const extra: Record<string, string> = {
      "/out/m150/include/gen/table.def": '#include "row.x"\n',
      "/out/m150/up/Case.H": '#include "deep.txt"\n',
    };
    const folders: Record<string, string[]> = {
      "/out/m150/include": ["gen"],
      "/out/m150/include/gen": ["table.def"],
      "/out/m150/up": ["Case.H"],
    };
    let stats = 0;
    const tree = {
      ...root(files),
      texts: (path: string) => [files[path] ?? extra[path]],
      includeDirs,
      // A folder ignoring case (macOS): up/case.h is up/Case.H.
      isFile: (path: string) => (stats++, path in extra || path === "/out/m150/up/case.h"),
      entriesOf: (folder: string) => folders[folder] ?? [],
    };
    (extra as Record<string, string>)["/out/m150/up/case.h"] = extra["/out/m150/up/Case.H"]!;
    return { tree, stats: () => stats };
  }

  it("lists each folder once instead of a stat per folder and name (200 folders, 100 headers)", () => {
    const { tree, stats } = manyFolders();
    const names = namesIncluded([{ text: '#include "h0.h"\n', path: "/r/a.c" }], tree);
    expect(["table.def", "row.x", "case.h", "deep.txt"].every((name) => names.has(name))).toBe(true);
    // Before: 200 stats per name written (h1.h … h100.h, stdio.h, …), over 20 000.
    expect(stats()).toBeLessThan(10);
  });

  it("finds through the listings what a stat per folder finds", () => {
    const { tree } = manyFolders();
    expect(includeReach(["/elsewhere/deep.txt"], tree)('#include "h0.h"\n', "/r/a.c")).toBe(true);
    expect(includeReach(["/elsewhere/row.x"], tree)('#include "h0.h"\n', "/r/a.c")).toBe(true);
    expect(includeReach(["/elsewhere/none.x"], tree)('#include "h0.h"\n', "/r/a.c")).toBe(false);
  });
});

describe("a symlink outside the root to a root file of another name", () => {
  // /out/table.def (found through -I/out, not listed by the watch) leads to /r/data/real.src.
  const tree = {
    ...root({ "/r/a.c": "#include <table.def>\n", "/r/data/real.src": "int from_table(void);\n" }),
    texts: () => ["int from_table(void);\n"],
    includeDirs: ["/out"],
    isFile: (path: string) => path === "/out/table.def",
    realPath: (path: string) => (path === "/out/table.def" ? "/r/data/real.src" : path),
  };

  it("names the file it leads to as included, and counts its change as reaching", () => {
    expect(namesIncluded([{ text: "#include <table.def>\n", path: "/r/a.c" }], tree).has("real.src")).toBe(
      true,
    );
    expect(includeReach(["/r/data/real.src"], tree)("#include <table.def>\n", "/r/a.c")).toBe(true);
    expect(includeReach(["/r/data/other.src"], tree)("#include <table.def>\n", "/r/a.c")).toBe(false);
  });
});

describe("a path going up (`..`) out of a symlinked folder", () => {
  // /out/sub (found through -I/out) is a symlink to /lib/real: sub/../kernel.h is /lib/kernel.h,
  // as the compiler opens it, not /out/kernel.h.
  const tree = {
    ...root({ "/r/a.c": "#include <sub/../kernel.h>\n", "/r/kconfig.h": "int cfg(void);\n" }),
    texts: (path: string) => [path === "/lib/kernel.h" ? '#include "kconfig.h"\n' : undefined],
    includeDirs: ["/out"],
    isFile: (path: string) => path === "/lib/kernel.h",
    entriesOf: (folder: string) => ({ "/out": ["sub"], "/lib": ["kernel.h", "real"] })[folder] ?? [],
    realPath: (path: string) =>
      (path.startsWith("/out/sub") ? `/lib/real${path.slice(8)}` : path).replace(/\/[^/]+\/\.\.(?=\/|$)/, ""),
  };

  it("follows the folder the symlink leads to, as the compiler does", () => {
    expect(includeReach(["/r/kconfig.h"], tree)("#include <sub/../kernel.h>\n", "/r/a.c")).toBe(true);
    expect(
      namesIncluded([{ text: "#include <sub/../kernel.h>\n", path: "/r/a.c" }], tree).has("kconfig.h"),
    ).toBe(true);
  });
});

describe("folders listed in one walk", () => {
  it("lists an include folder once, though a file in it is looked up too", () => {
    // /out/a.h (not listed by the watch, found through -I/out) includes /out/b.h.
    const outside: Record<string, string> = { "/out/a.h": '#include "b.h"\n', "/out/b.h": "int b;\n" };
    const listings = new Map<string, number>();
    const tree = {
      ...root({ "/r/a.c": "#include <a.h>\n" }),
      texts: (path: string) => [outside[path]],
      includeDirs: ["/out"],
      isFile: (path: string) => path in outside,
      entriesOf: (folder: string) => {
        listings.set(folder, (listings.get(folder) ?? 0) + 1);
        return folder === "/out" ? ["a.h", "b.h"] : [];
      },
    };
    expect(namesIncluded([{ text: "#include <a.h>\n", path: "/r/a.c" }], tree).has("b.h")).toBe(true);
    // Before: twice, for the names the include folders hold and for the file looked up in it.
    expect(listings.get("/out")).toBe(1);
    expect([...listings.values()].every((count) => count === 1)).toBe(true);
    listings.clear();
    expect(includeReach(["/r/b.h"], tree)("#include <a.h>\n", "/r/a.c")).toBe(true);
    expect(listings.get("/out")).toBe(1);
  });
});

describe("a <…> include of a name the compiler's own folders hold", () => {
  // A build's executable named `vector` in the root and its build folder; /sys holds the C++ `vector`.
  const files = {
    "/r/a.cpp": "#include <vector>\n",
    "/r/vector": "\u007fELF",
    "/r/build/vector": "\u007fELF",
    "/r/inc/vector": "int mine;\n",
  };
  const folders: Record<string, string[]> = { "/sys": ["vector", "bits"], "/r": ["a.cpp", "vector"] };
  const tree = (includeDirs: string[]) => ({
    ...root(files),
    includeDirs,
    systemFolders: ["/sys"],
    isFile: () => false,
    entriesOf: (folder: string) => folders[folder] ?? (folder === "/r/inc" ? ["vector"] : []),
  });

  it("is the system header: no root file of that name is included through it", () => {
    expect(namesIncluded([{ text: files["/r/a.cpp"], path: "/r/a.cpp" }], tree([])).has("vector")).toBe(
      false,
    );
    expect(includeReach(["/r/vector", "/r/build/vector"], tree([]))(files["/r/a.cpp"], "/r/a.cpp")).toBe(
      false,
    );
  });

  it("is the include folder's file when one of the compile flags' folders, searched first, holds it", () => {
    expect(
      namesIncluded([{ text: files["/r/a.cpp"], path: "/r/a.cpp" }], tree(["/r/inc"])).has("vector"),
    ).toBe(true);
    expect(includeReach(["/r/inc/vector"], tree(["/r/inc"]))(files["/r/a.cpp"], "/r/a.cpp")).toBe(true);
  });

  it("is a root file as before when written in quotes, or when no system folder holds it", () => {
    expect(includeReach(["/r/vector"], tree([]))('#include "vector"\n', "/r/a.cpp")).toBe(true);
    expect(includeReach(["/r/build/vector"], tree([]))("#include <build/vector>\n", "/r/a.cpp")).toBe(true);
  });
});
