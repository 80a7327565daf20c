import { errorMessage, ToolsError } from "@tools/registry";
import { helpText } from "./help.js";
import { interactive } from "./interactive.js";
import { allowOnly, choice, parseArgs } from "./parse-args.js";
import { serve } from "./serve.js";
import { surfaceSchemas } from "./tools-command.js";
import { runTour } from "./tour/run-tour.js";

/** Runs the CLI; resolves with the exit code. Output goes to stdout, diagnostics to stderr. */
export async function main(argv: readonly string[]): Promise<number> {
  try {
    const args = parseArgs(argv);
    if (args.flags.has("help") || args.command === "help") {
      process.stdout.write(helpText);
      return 0;
    }
    switch (args.command ?? "tour") {
      case "serve": {
        allowOnly(args, ["workdir", "approval", "conversation"]);
        const workingDirectory = args.options.get("workdir");
        if (workingDirectory === undefined) {
          throw new ToolsError({ code: "USAGE", message: "serve needs --workdir DIR" });
        }
        await serve({
          workingDirectory,
          approval: choice(args, "approval", ["auto", "ask"], "ask"),
          conversationId: args.options.get("conversation"),
        });
        return 0;
      }
      case "interactive": {
        allowOnly(args, ["workdir", "approval", "python", "conversation"]);
        const python = args.options.get("python");
        await interactive({
          workingDirectory: args.options.get("workdir") ?? process.cwd(),
          approval: choice(args, "approval", ["auto", "ask"], "ask"),
          ...(python === undefined ? {} : { pythonPath: python }),
        });
        return 0;
      }
      case "tools": {
        allowOnly(args, ["surface", "format", "workdir"]);
        const schemas = await surfaceSchemas(
          args.options.get("workdir") ?? process.cwd(),
          args.options.get("surface") ?? "main",
          choice(args, "format", ["json", "anthropic", "openai"], "json"),
        );
        process.stdout.write(`${JSON.stringify(schemas, null, 2)}\n`);
        return 0;
      }
      case "tour": {
        allowOnly(args, ["out"]);
        const out = args.options.get("out");
        return await runTour(out === undefined ? {} : { out });
      }
      default:
        throw new ToolsError({
          code: "USAGE",
          message: `unknown command '${args.command ?? ""}'; commands: tour, serve, interactive, tools (see --help)`,
        });
    }
  } catch (error) {
    process.stderr.write(`harness-demo: ${errorMessage(error)}\n`);
    if (ToolsError.isInstance(error) && error.code === "USAGE")
      process.stderr.write("Run harness-demo --help for usage.\n");
    return ToolsError.isInstance(error) && error.code === "USAGE" ? 2 : 1;
  }
}
