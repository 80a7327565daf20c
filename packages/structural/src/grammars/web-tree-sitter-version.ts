import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

let cached: string | undefined;

/**
 * The version of the web-tree-sitter package the grammars are loaded with, for error messages.
 * Its package.json is not in its `exports`, so it is found by walking up from the package's
 * resolved entry point and read from disk; "unknown" only when no such file can be read.
 */
export function webTreeSitterVersion(): string {
  cached ??= findVersion();
  return cached;
}

function findVersion(): string {
  let directory: string;
  try {
    directory = dirname(require.resolve("web-tree-sitter"));
  } catch {
    return "unknown";
  }
  for (;;) {
    try {
      const manifest = JSON.parse(readFileSync(join(directory, "package.json"), "utf8")) as {
        name?: unknown;
        version?: unknown;
      };
      if (manifest.name === "web-tree-sitter" && typeof manifest.version === "string")
        return manifest.version;
    } catch {
      // No package.json here (or not readable): keep walking up.
    }
    const parent = dirname(directory);
    if (parent === directory) return "unknown";
    directory = parent;
  }
}
