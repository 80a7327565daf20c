import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { resultText } from "@tools/registry";
import { createDemoRun } from "../../create-demo-run.js";
import {
  callStep,
  expectText,
  refusedWith,
  sequenceStep,
  showCall,
  succeededWith,
  type TourSection,
  type TourStep,
} from "./tour-step.js";

const surfacesShown = ["main", "plan", "readonly"] as const;

/** The tool lists of the main surface, plan mode and a read-only subagent, tiers visible. */
const toolLists: TourStep = {
  title: "the tool lists of main, plan mode and a read-only subagent (tier caps)",
  async run({ demo }) {
    const lines: string[] = [];
    let mainCount = 0;
    const leaked: string[] = [];
    for (const name of surfacesShown) {
      const surface = demo.registry.surface(name);
      const tools = demo.registry.toolsFor(demo.run, surface);
      if (name === "main") mainCount = tools.length;
      else leaked.push(...tools.filter((tool) => tool.tier !== "read").map((tool) => `${name}:${tool.name}`));
      lines.push(`${name.padEnd(8)} cap ${surface.cap.padEnd(5)} ${tools.length} tools`);
      lines.push(`         ${tools.map((tool) => `${tool.name}(${tool.tier})`).join(" ")}`);
    }
    const verdict =
      mainCount < 12
        ? `main shows ${mainCount} tools, expected at least 12`
        : leaked.length > 0
          ? `plan/readonly show ${leaked.join(", ")}`
          : true;
    return { shown: lines.join("\n"), verdict };
  },
};

const patch = [
  "*** Begin Patch",
  "*** Update File: src/math.ts",
  "@@ export function sum(values: readonly number[]): number {",
  "   let total = 0;",
  "   for (const value of values) total += value;",
  "   return total;",
  " }",
  "+",
  "+/** The mean of the numbers (0 for none). */",
  "+export function mean(values: readonly number[]): number {",
  "+  return values.length === 0 ? 0 : sum(values) / values.length;",
  "+}",
  "*** Add File: src/shout.ts",
  '+import { greet } from "./greet.js";',
  "+",
  "+export const shout = (name: string): string => greet(name).toUpperCase();",
  "*** End Patch",
].join("\n");

const failingPatch = [
  "*** Begin Patch",
  "*** Update File: src/index.ts",
  '+export { shout } from "./shout.js";',
  "*** Update File: src/greet.ts",
  "@@",
  "-  return `Goodbye, ${name}!`;",
  "+  return `Farewell, ${name}!`;",
  "*** End Patch",
].join("\n");

/** An `ask`-policy run with nobody to approve: a write is denied, fail closed. */
const askDenied: TourStep = {
  title: "with --approval ask and no approver attached, a write is denied (fail closed)",
  async run({ workspace }) {
    const askRun = createDemoRun({ workingDirectory: workspace, approval: "ask" });
    try {
      const call = { tool: "write", args: { path: "notes.txt", content: "should not exist\n" } };
      const result = await askRun.registry.invoke(askRun.run, call);
      const written = await readFile(join(workspace, "notes.txt")).then(
        () => true,
        () => false,
      );
      const verdict = refusedWith("NO_APPROVER")(result);
      return {
        shown: showCall(call, result),
        verdict: verdict === true && written ? "the file was written anyway" : verdict,
      };
    } finally {
      await askRun.dispose();
    }
  },
};

/**
 * grep honours the root .gitignore: a file is made under `build/` (ignored there) holding a match,
 * and the search shows every match but that one.
 */
const grepIgnores = sequenceStep(
  "grep honours .gitignore: a match in an ignored build/ file is not listed",
  async (call) => {
    expectText(
      await call("read", { path: ".gitignore" }),
      /^1\tbuild\/$/m,
      ".gitignore does not ignore build/",
    );
    expectText(
      await call("shell", {
        command:
          "mkdir -p build && echo 'export function generated() {}' > build/generated.ts && cat build/generated.ts",
      }),
      "export function generated",
    );
    const text = expectText(
      await call("grep", { pattern: "export function" }),
      "src/greet.ts:2: export function greet",
    );
    return text.includes("build/") ? "grep listed the file under build/, which .gitignore ignores" : true;
  },
);

/** All or nothing: src/index.ts is read before and after a patch whose second file fails. */
const patchAllOrNothing = sequenceStep(
  "apply_patch is all or nothing: one hunk does not apply, so src/index.ts (its first file) stays as it was",
  async (call) => {
    const before = expectText(await call("read", { path: "src/index.ts" }), /^1\t/);
    const result = await call("apply_patch", { patch: failingPatch });
    const refused = refusedWith("PATCH_CONTEXT_NOT_FOUND")(result);
    if (refused !== true) return refused;
    const after = expectText(await call("read", { path: "src/index.ts" }), /^1\t/);
    return after === before ? true : "src/index.ts was changed although the patch failed";
  },
);

/** Lines of `text` from `from` (0-based) on, `count` of them, prefixed as showCall prints a result. */
function resultLines(text: string, from: number, count: number): string {
  return text
    .split("\n")
    .slice(from, from + count)
    .map((line) => `│ ${line}`)
    .join("\n");
}

/**
 * shell: the command's bash leads its own process group (pid = process group id, read from
 * /proc), and a long output keeps its start and end with the note between them, shown here.
 */
const shellStep: TourStep = {
  title:
    "shell: a command runs in its own process group (bash's pid is its group id); long output keeps its start and end, with a note of what was left out",
  async run({ demo }) {
    const invoke = (args: Record<string, unknown>) =>
      demo.registry.invoke(demo.run, { tool: "shell", args, surface: "main" });
    const group = {
      tool: "shell",
      args: { command: 'echo "bash pid $$, process group $(cut -d" " -f5 /proc/$$/stat)"' },
    };
    const groupResult = await invoke(group.args);
    const long = { tool: "shell", args: { command: "seq 1 100000" } };
    const longResult = await invoke(long.args);
    const longText = resultText(longResult);
    const lines = longText.split("\n");
    const noteAt = lines.findIndex((line) => /^… \d+ lines \(\d+ characters\) left out …$/.test(line));
    const shown = [
      showCall(group, groupResult),
      showCall(long, longResult),
      ...(noteAt === -1
        ? []
        : [
            `  (lines ${noteAt}-${noteAt + 2} of that result, and its last, line ${lines.length}:)`,
            resultLines(longText, noteAt - 1, 3),
            resultLines(longText, lines.length - 1, 1),
          ]),
    ].join("\n");
    const ids = /bash pid (\d+), process group (\d+)/.exec(resultText(groupResult));
    const verdict =
      ids === null
        ? "the first command did not print its pid and process group"
        : ids[1] !== ids[2]
          ? `bash (pid ${ids[1]}) is not its process group's leader (group ${ids[2]})`
          : noteAt === -1
            ? "the long output has no note of what was left out"
            : lines.at(-1) !== "100000"
              ? "the long output does not end with its last line"
              : true;
    return { shown, verdict };
  },
};

/** Part 1: the tool lists of the surfaces. */
export const toolListsSection: TourSection = {
  title: "the tool lists of the main surface, plan mode and a read-only subagent",
  steps: [toolLists],
};

/** The harness's own steps: file tools, refusals, shell and fail-closed approval. */
export const harnessTourSteps: readonly TourStep[] = [
  callStep(
    "read: numbered lines of a file",
    { tool: "read", args: { path: "src/greet.ts", limit: 4 } },
    succeededWith("2\texport function greet"),
  ),
  callStep(
    "grep: where functions are exported",
    { tool: "grep", args: { pattern: "export function", glob: "*.ts" } },
    succeededWith("src/greet.ts:2: export function greet"),
  ),
  grepIgnores,
  callStep(
    "edit: replace one exact string",
    {
      tool: "edit",
      args: { path: "src/greet.ts", old_string: "`Hello, ${name}!`", new_string: "`Hello there, ${name}!`" },
    },
    async (result, { workspace }) => {
      const verdict = succeededWith("1 replacement")(result);
      if (verdict !== true) return verdict;
      const text = await readFile(join(workspace, "src/greet.ts"), "utf8");
      return text.includes("Hello there") ? true : "the file does not hold the new text";
    },
  ),
  callStep(
    "apply_patch: update one file and add another",
    { tool: "apply_patch", args: { patch } },
    (result) =>
      result.changedFiles.length === 2
        ? succeededWith("A src/shout.ts")(result)
        : `expected 2 changed files, got ${result.changedFiles.length}`,
  ),
  patchAllOrNothing,
  callStep(
    "plan mode calls write: refused by tier",
    { tool: "write", args: { path: "plan.md", content: "# plan\n" }, surface: "plan" },
    refusedWith("TIER_EXCEEDED"),
  ),
  callStep(
    "a path that escapes the workspace: refused by containment",
    { tool: "read", args: { path: "../../../etc/passwd" } },
    refusedWith("GUARDRAIL_REFUSED"),
  ),
  shellStep,
  askDenied,
];

/** The harness's own file tools, refusals, shell and the fail-closed gate. */
export const fileToolsSection: TourSection = {
  title: "the harness's own file tools, its guardrails and the fail-closed gate",
  steps: harnessTourSteps,
};
