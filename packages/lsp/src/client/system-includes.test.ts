import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { environmentIncludeFolders, systemIncludeFolders } from "./system-includes.js";

describe("systemIncludeFolders", () => {
  it("has the C library's folder and, before it, the C++ library's of each version installed", () => {
    const folders = systemIncludeFolders(undefined);
    expect(folders).toContain("/usr/local/include");
    expect(folders).toContain("/usr/include");
    if (existsSync("/usr/include/c++/12/vector"))
      expect(folders.indexOf("/usr/include/c++/12")).toBeLessThan(folders.indexOf("/usr/include"));
  });
});

describe("environmentIncludeFolders", () => {
  it("takes CPATH and the per-language variables, and knows none when one is relative or empty", () => {
    expect(
      environmentIncludeFolders({ CPATH: "/a:/b", CPLUS_INCLUDE_PATH: "", C_INCLUDE_PATH: "/c" }),
    ).toEqual(["/a", "/b", "/c"]);
    expect(environmentIncludeFolders({})).toEqual([]);
    expect(environmentIncludeFolders({ CPATH: "/a::/b" })).toBeUndefined();
    expect(environmentIncludeFolders({ CPATH: "inc" })).toBeUndefined();
  });
});
