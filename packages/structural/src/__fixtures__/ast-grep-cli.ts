import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);

/** The native ast-grep binary of the @ast-grep/cli devDependency, or undefined. */
export function astGrepBinary(): string | undefined {
  try {
    const cli = dirname(require.resolve("@ast-grep/cli/package.json"));
    const platformPackage = `@ast-grep/cli-${process.platform}-${process.arch}${process.platform === "linux" ? "-gnu" : ""}`;
    const dir = dirname(createRequire(join(cli, "package.json")).resolve(`${platformPackage}/package.json`));
    const binary = join(dir, process.platform === "win32" ? "ast-grep.exe" : "ast-grep");
    return existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}
