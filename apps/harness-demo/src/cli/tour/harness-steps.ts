import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { createDemoRun } from "../../create-demo-run.js";
import {
  callStep,
  refusedWith,
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
    "grep: where functions are exported (honours .gitignore)",
    { tool: "grep", args: { pattern: "export function", glob: "*.ts" } },
    succeededWith("src/greet.ts:2: export function greet"),
  ),
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
  callStep(
    "apply_patch is all or nothing: one hunk does not apply, so no file changes",
    { tool: "apply_patch", args: { patch: failingPatch } },
    async (result, { workspace }) => {
      const verdict = refusedWith("PATCH_CONTEXT_NOT_FOUND")(result);
      if (verdict !== true) return verdict;
      const index = await readFile(join(workspace, "src/index.ts"), "utf8");
      return index.includes("shout") ? "src/index.ts was changed although the patch failed" : true;
    },
  ),
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
  callStep(
    "shell: run a command (own process group, bounded output, killed with the run)",
    { tool: "shell", args: { command: 'grep -c export src/*.ts && echo "node $(node --version)"' } },
    succeededWith(/^exit code 0\n/),
  ),
  askDenied,
];

/** The harness's own file tools, refusals, shell and the fail-closed gate. */
export const fileToolsSection: TourSection = {
  title: "the harness's own file tools, its guardrails and the fail-closed gate",
  steps: harnessTourSteps,
};
