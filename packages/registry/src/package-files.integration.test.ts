import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const packageDirectory = fileURLToPath(new URL("..", import.meta.url));

/** The files `npm pack` would put in the published tarball. */
function packedFiles(): string[] {
  const output = execFileSync("npm", ["pack", "--dry-run", "--json", "--ignore-scripts"], {
    cwd: packageDirectory,
    encoding: "utf8",
    timeout: 60_000,
  });
  const [pack] = JSON.parse(output) as { files: { path: string }[] }[];
  return (pack?.files ?? []).map((file) => file.path);
}

describe("the published package", () => {
  it("ships no test helpers: src/testing imports vitest and has no built counterpart", () => {
    const files = packedFiles();
    expect(files).toContain("dist/index.js");
    expect(files).toContain("src/index.ts");
    expect(files.filter((path) => path.startsWith("src/testing/"))).toEqual([]);
    expect(files.filter((path) => /\.test\.[jt]s$/.test(path))).toEqual([]);
  });
});
