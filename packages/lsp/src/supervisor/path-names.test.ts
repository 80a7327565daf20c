import { describe, expect, it } from "vitest";
import { PathNames } from "./path-names.js";

describe("PathNames", () => {
  it("shows paths inside the working directory relative, others absolute, never as ../ chains", () => {
    const names = new PathNames("/w/project");
    expect(names.display("/w/project/src/a.ts")).toBe("src/a.ts");
    expect(names.display("/w/project")).toBe(".");
    expect(names.display("/w/project/..hidden/a.ts")).toBe("..hidden/a.ts");
    expect(names.display("/usr/lib/go/src/fmt/print.go")).toBe("/usr/lib/go/src/fmt/print.go");
    expect(names.display("/w/project2/a.ts")).toBe("/w/project2/a.ts");
  });

  it("turns paths into file URIs and back, escaping what URIs must", () => {
    const names = new PathNames("/w");
    const uri = names.uriOf("/w/a b/c#d.ts");
    expect(uri).toBe("file:///w/a%20b/c%23d.ts");
    expect(names.pathOf(uri)).toBe("/w/a b/c#d.ts");
    expect(names.uriOf("/w/a b/c#d.ts")).toBe(uri);
    expect(() => names.pathOf("untitled:x")).toThrow();
  });
});
