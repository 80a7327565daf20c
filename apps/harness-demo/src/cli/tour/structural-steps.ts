import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { resultText } from "@tools/registry";
import {
  callStep,
  refusedWith,
  showCall,
  succeededWith,
  type TourSection,
  type TourStep,
} from "./tour-step.js";

/** ast_edit on two Python files, then one of them changes, then resolve: rejected whole. */
const staleResolve: TourStep = {
  title: "a stale resolve is rejected whole: a staged file changed after staging, so no file is written",
  async run({ demo, workspace }) {
    const invoke = (tool: string, args: Record<string, unknown>) =>
      demo.registry.invoke(demo.run, { tool, args });
    const stageCall = {
      tool: "ast_edit",
      args: { pattern: "total($X)", rewrite: "sum_values($X)", path: "python", language: "python" },
    };
    const staged = await invoke(stageCall.tool, stageCall.args);
    const id = /edit_id "([^"]+)"/.exec(resultText(staged))?.[1];
    const shown = [showCall(stageCall, staged)];
    if (id === undefined) return { shown: shown.join("\n"), verdict: "ast_edit named no edit_id" };
    const editCall = {
      tool: "edit",
      args: { path: "python/report.py", old_string: 'label = "sales"', new_string: 'label = "revenue"' },
    };
    shown.push(showCall(editCall, await invoke(editCall.tool, editCall.args)));
    const resolveCall = { tool: "resolve", args: { edit_id: id, action: "accept" } };
    const resolved = await invoke(resolveCall.tool, resolveCall.args);
    shown.push(showCall(resolveCall, resolved));
    let verdict = refusedWith("EDIT_STALE")(resolved);
    const stats = await readFile(join(workspace, "python/stats.py"), "utf8");
    if (verdict === true && stats.includes("sum_values")) verdict = "stats.py was rewritten anyway";
    return { shown: shown.join("\n"), verdict };
  },
};

/** Part 4: structural search and staged rewrite. */
export const structuralTourSection: TourSection = {
  title: "structural search and staged rewrite (ast_grep, ast_edit, resolve)",
  steps: [
    callStep(
      "the spec's own Dart example: a guard that disposes what it tested (and not something else)",
      { tool: "ast_grep", args: { pattern: "if ($X != null) $X.dispose()", language: "dart" } },
      (result) => {
        const verdict = succeededWith("panels.dart:12")(result);
        if (verdict !== true) return verdict;
        return resultText(result).includes("other.dispose")
          ? "it matched the guard that disposes another"
          : true;
      },
    ),
    callStep(
      "ast_edit stages a rewrite (nothing written yet)",
      {
        tool: "ast_edit",
        args: { pattern: "dispose($X)", rewrite: "$X.dispose()", path: "dart", language: "dart" },
      },
      async (result, { workspace }) => {
        const verdict = succeededWith("(proposed) 2 replacements")(result);
        if (verdict !== true) return verdict;
        const text = await readFile(join(workspace, "dart/lib/panels.dart"), "utf8");
        return text.includes("  a.dispose();") ? "the file was written before resolve" : true;
      },
    ),
    callStep(
      "resolve accepts the staged change: now it is written",
      { tool: "resolve", args: { edit_id: "edit_1", action: "accept" } },
      async (result, { workspace }) => {
        const verdict = succeededWith("")(result);
        if (verdict !== true) return verdict;
        const text = await readFile(join(workspace, "dart/lib/panels.dart"), "utf8");
        return text.includes("  a.dispose();\n  b.dispose();")
          ? true
          : "panels.dart does not hold the rewrite";
      },
    ),
    staleResolve,
  ],
};
