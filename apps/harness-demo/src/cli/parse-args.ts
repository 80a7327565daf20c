import { ToolsError } from "@tools/registry";

/** A command line split into the command, its `--name value` options and its `--flag`s. */
export interface ParsedArgs {
  readonly command: string | undefined;
  readonly options: ReadonlyMap<string, string>;
  readonly flags: ReadonlySet<string>;
}

/** Options that never take a value. */
const booleanFlags = new Set(["help", "vibe", "interactive"]);

/**
 * Parses `command --name value --name=value --flag`. Throws `USAGE` for a stray argument or an
 * option without its value.
 */
export function parseArgs(argv: readonly string[]): ParsedArgs {
  const options = new Map<string, string>();
  const flags = new Set<string>();
  let command: string | undefined;
  for (let index = 0; index < argv.length; index++) {
    const arg = argv[index] as string;
    if (arg === "-h") {
      flags.add("help");
    } else if (arg.startsWith("--")) {
      const equals = arg.indexOf("=");
      const name = arg.slice(2, equals === -1 ? undefined : equals);
      if (booleanFlags.has(name)) {
        flags.add(name);
      } else if (equals !== -1) {
        options.set(name, arg.slice(equals + 1));
      } else {
        const value = argv[index + 1];
        if (value === undefined || value.startsWith("--")) {
          throw new ToolsError({ code: "USAGE", message: `--${name} needs a value` });
        }
        options.set(name, value);
        index++;
      }
    } else if (command === undefined) {
      command = arg;
    } else {
      throw new ToolsError({ code: "USAGE", message: `unexpected argument '${arg}'` });
    }
  }
  return { command, options, flags };
}

/** The value of an option that must be one of `allowed`; `fallback` when absent. */
export function choice<T extends string>(
  args: ParsedArgs,
  name: string,
  allowed: readonly T[],
  fallback: T,
): T {
  const value = args.options.get(name);
  if (value === undefined) return fallback;
  if (!(allowed as readonly string[]).includes(value)) {
    throw new ToolsError({
      code: "USAGE",
      message: `--${name} must be one of ${allowed.join(", ")}, got '${value}'`,
    });
  }
  return value as T;
}

/**
 * Throws `USAGE` for an option or flag the command does not take. `flags` are the value-less
 * options it takes (`--vibe`); `mode` names it in the message (default the command).
 */
export function allowOnly(
  args: ParsedArgs,
  known: readonly string[],
  flags: readonly string[] = [],
  mode: string = args.command ?? "tour",
): void {
  const takes = [...known, ...flags];
  const list = takes.length > 0 ? takes.map((option) => `--${option}`).join(", ") : "no options";
  for (const name of args.options.keys()) {
    if (!known.includes(name)) {
      throw new ToolsError({
        code: "USAGE",
        message: `unknown option --${name} for '${mode}'; it takes ${list}`,
      });
    }
  }
  for (const name of args.flags) {
    if (name !== "help" && !flags.includes(name)) {
      throw new ToolsError({
        code: "USAGE",
        message: `--${name} does not apply to '${mode}'; it takes ${list}`,
      });
    }
  }
}
