import { errorMessage, ToolsError } from "@tools/registry";
import { helpText } from "./help.js";
import { interactive } from "./interactive.js";
import { runModelAgent } from "./model-agent.js";
import { modelBackend, vibeBackend } from "./model-env.js";
import { allowOnly, choice, parseArgs } from "./parse-args.js";
import { serve, type ServeOperator } from "./serve.js";
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
    if (args.options.has("model")) {
      allowOnly(
        args,
        ["model", "workdir", "approval", "python", "max-turns", "model-timeout", "vibe-command"],
        ["vibe"],
        "--model",
      );
      const provider = choice(args, "model", ["openai", "anthropic"], "openai");
      // Vibe mode: workers on --vibe-command's agent CLI, or on the same provider as the model.
      const vibeCommand = args.options.get("vibe-command");
      const vibe = args.flags.has("vibe") || vibeCommand !== undefined;
      const task = args.command;
      if (task === undefined || task.trim() === "") {
        throw new ToolsError({
          code: "USAGE",
          message: `--model ${provider} needs a task: --model ${provider} "the task"`,
        });
      }
      const python = args.options.get("python");
      const maxTurns = args.options.get("max-turns");
      const timeout = args.options.get("model-timeout");
      return await runModelAgent({
        provider,
        task,
        workingDirectory: args.options.get("workdir") ?? process.cwd(),
        approval: choice(args, "approval", ["auto", "ask"], "ask"),
        ...(python === undefined ? {} : { pythonPath: python }),
        ...(maxTurns === undefined ? {} : { maxTurns }),
        ...(timeout === undefined ? {} : { timeoutSeconds: timeout }),
        ...(vibe
          ? { vibeBackend: vibeCommand === undefined ? modelBackend(provider) : vibeBackend(vibeCommand) }
          : {}),
      });
    }
    const command = args.flags.has("interactive")
      ? (args.command ?? "interactive")
      : (args.command ?? "tour");
    if (args.flags.has("interactive") && command !== "interactive") {
      throw new ToolsError({
        code: "USAGE",
        message: `--interactive is a mode of its own; drop '${command}'`,
      });
    }
    switch (command) {
      case "serve": {
        allowOnly(
          args,
          ["workdir", "approval", "conversation", "operator", "python", "vibe-command"],
          ["vibe"],
        );
        const workingDirectory = args.options.get("workdir");
        if (workingDirectory === undefined) {
          throw new ToolsError({ code: "USAGE", message: "serve needs --workdir DIR" });
        }
        const vibeCommand = args.options.get("vibe-command");
        const vibe = args.flags.has("vibe") || vibeCommand !== undefined;
        const python = args.options.get("python");
        await serve({
          workingDirectory,
          approval: choice(args, "approval", ["auto", "ask"], "ask"),
          conversationId: args.options.get("conversation"),
          operator: choice<ServeOperator>(args, "operator", ["none", "jsonl"], "none"),
          ...(vibe ? { vibeBackend: vibeBackend(vibeCommand) } : {}),
          ...(python === undefined ? {} : { pythonPath: python }),
        });
        return 0;
      }
      case "interactive": {
        allowOnly(
          args,
          ["workdir", "approval", "python", "conversation", "vibe-command"],
          ["interactive", "vibe"],
        );
        const python = args.options.get("python");
        const vibeCommand = args.options.get("vibe-command");
        const vibe = args.flags.has("vibe") || vibeCommand !== undefined;
        await interactive({
          workingDirectory: args.options.get("workdir") ?? process.cwd(),
          approval: choice(args, "approval", ["auto", "ask"], "ask"),
          ...(python === undefined ? {} : { pythonPath: python }),
          ...(vibe ? { vibeBackend: vibeBackend(vibeCommand) } : {}),
        });
        return 0;
      }
      case "tools": {
        allowOnly(args, ["surface", "format", "workdir", "vibe-command"], ["vibe"]);
        // As serve would have them: --vibe-command's workers act ungated (CMD is not run here).
        const vibe = args.options.has("vibe-command")
          ? "ungated"
          : args.flags.has("vibe")
            ? "gated"
            : undefined;
        const schemas = await surfaceSchemas(
          args.options.get("workdir") ?? process.cwd(),
          args.options.get("surface") ?? "main",
          choice(args, "format", ["json", "anthropic", "openai"], "json"),
          vibe ? { vibe } : {},
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
