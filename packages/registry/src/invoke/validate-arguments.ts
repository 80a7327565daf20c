import type { z } from "zod";
import type { Tool } from "../tool/define-tool.js";
import { toolSignature } from "../export/tool-signature.js";
import { closestName } from "./closest-name.js";
import { nullMeansOmitted, withoutOmittedNulls } from "./omitted-nulls.js";
import { listedUnknownNames, unknownNestedKeys } from "./unknown-keys.js";
import { isPlainObject } from "../objects/plain-object.js";
import { describeValue } from "../objects/describe-value.js";

/** The validated arguments, or a message saying what was wrong, where, and what was expected. */
export type ValidationOutcome =
  | { readonly ok: true; readonly input: Record<string, unknown> }
  | { readonly ok: false; readonly message: string };

function formatPath(path: readonly PropertyKey[]): string {
  if (path.length === 0) return "arguments";
  return path
    .map((segment, index) =>
      typeof segment === "number" ? `[${segment}]` : `${index === 0 ? "" : "."}${String(segment)}`,
    )
    .join("");
}

function formatIssue(issue: z.core.$ZodIssue, args: unknown): string {
  const where = formatPath(issue.path);
  const top = issue.path[0];
  if (issue.path.length === 1 && typeof top === "string" && isPlainObject(args) && args[top] === undefined) {
    return `${where}: required, but missing`;
  }
  const what =
    issue.code === "invalid_union" && issue.errors.length > 0
      ? unionProblem(issue.errors, valueAt(args, issue.path))
      : issue.message.replace(/^Invalid input: /, "");
  return issue.path.length === 0 ? what : `${where}: ${what}`;
}

/** "Invalid input" alone says nothing: what each form of the value lacked, or the one problem they share. */
function unionProblem(branches: readonly (readonly z.core.$ZodIssue[])[], value: unknown): string {
  const forms = branches.map((branch) => branch.map((inner) => formatIssue(inner, value)).join(", "));
  if (forms.every((form) => form === forms[0]) && forms[0] !== "") return forms[0]!;
  const listed = forms.map((form, index) => `(${index + 1}) ${form || "does not fit"}`);
  return `fits none of its ${forms.length} forms: ${listed.join("; ")}`;
}

function valueAt(value: unknown, path: readonly PropertyKey[]): unknown {
  let current = value;
  for (const segment of path) {
    if (typeof current !== "object" || current === null) return undefined;
    current = (current as Record<PropertyKey, unknown>)[segment];
  }
  return current;
}

/**
 * Validates a call's arguments against the tool's schema. Lenient where a model's slip is
 * unambiguous (a JSON string holding the object; `null` for an optional field at any depth, as
 * OpenAI strict mode sends), strict about unknown argument names (with a did-you-mean). Never
 * throws.
 */
export function validateArguments(tool: Tool, raw: unknown): ValidationOutcome {
  try {
    let args: unknown = raw === undefined ? {} : raw;
    if (typeof args === "string") {
      try {
        args = JSON.parse(args) as unknown;
      } catch {
        // Falls through to the "must be an object" message below.
      }
    }
    if (!isPlainObject(args)) {
      return fail(tool, `arguments must be a JSON object, got ${describeValue(args)}`);
    }
    const shape = tool.input.shape as Record<string, z.ZodType>;
    const known = Object.keys(shape);
    const unknown: string[] = [];
    const cleaned: Record<string, unknown> = {};
    for (const key of Object.keys(args)) {
      const field = shape[key];
      const value = args[key];
      if (!Object.hasOwn(shape, key) || field === undefined) {
        const guess = closestName(key, known);
        unknown.push(`unknown argument '${key}'${guess ? ` (did you mean '${guess}'?)` : ""}`);
        continue;
      }
      // OpenAI strict mode sends `null` for every optional field the model leaves out, at any depth.
      if (value === null && nullMeansOmitted(field)) continue;
      cleaned[key] = withoutOmittedNulls(field, value);
      unknown.push(...unknownNestedKeys(field, cleaned[key], key));
    }
    const problems = listedUnknownNames(unknown);
    const parsed = tool.input.safeParse(cleaned);
    if (!parsed.success) problems.push(...parsed.error.issues.map((issue) => formatIssue(issue, cleaned)));
    if (problems.length > 0) return fail(tool, problems.map((problem) => `- ${problem}`).join("\n"));
    return { ok: true, input: parsed.data as Record<string, unknown> };
  } catch (error) {
    return fail(tool, `arguments could not be read (${error instanceof Error ? error.message : "unknown"})`);
  }
}

function fail(tool: Tool, problems: string): ValidationOutcome {
  return {
    ok: false,
    message: `Invalid arguments for ${tool.name}:\n${problems}\nExpected: ${toolSignature(tool)}`,
  };
}
