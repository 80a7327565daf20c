import { execFileSync } from "node:child_process";
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

/** One ast-grep match as its --json output gives it. */
export interface AstGrepMatch {
  readonly file: string;
  readonly text: string;
  readonly range: { readonly start: { readonly line: number; readonly column: number } };
}

/** Runs `ast-grep run -p … -l … --json=compact paths…`; exit code 1 (no match) is an empty list. */
export function runAstGrep(binary: string, pattern: string, language: string, paths: readonly string[], cwd: string): AstGrepMatch[] {
  try {
    const out = execFileSync(binary, ["run", "-p", pattern, "-l", language, "--json=compact", ...paths], {
      cwd,
      encoding: "utf8",
      maxBuffer: 256 * 1024 * 1024,
      stdio: ["ignore", "pipe", "pipe"],
    });
    return JSON.parse(out) as AstGrepMatch[];
  } catch (error) {
    const status = (error as { status?: number }).status;
    const stdout = (error as { stdout?: string }).stdout ?? "";
    if (status === 1) return stdout.trim().startsWith("[") ? (JSON.parse(stdout) as AstGrepMatch[]) : [];
    throw error;
  }
}
