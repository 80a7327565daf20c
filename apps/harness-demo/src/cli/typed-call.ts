import { requestFields, unknownFieldsError } from "./json-lines.js";

/** One typed call: `lsp hover file=src/a.ts line=3`, `read {"path": "a.ts"}` or a JSON request. */
export interface TypedCall {
  readonly tool: string;
  readonly args: Record<string, unknown>;
  readonly surface: string;
}

/**
 * The JSON Schema types (`string`, `integer`, `number`, `boolean`, `array`, `object`) a tool's
 * argument takes, or undefined when the tool or the argument is unknown.
 */
export type ArgTypes = (tool: string, arg: string) => readonly string[] | undefined;

interface JsonSchema {
  readonly type?: string | readonly string[];
  readonly enum?: readonly unknown[];
  readonly const?: unknown;
  readonly anyOf?: readonly JsonSchema[];
  readonly oneOf?: readonly JsonSchema[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
}

function schemaTypes(schema: JsonSchema): string[] {
  const types = new Set<string>();
  if (typeof schema.type === "string") types.add(schema.type);
  else if (Array.isArray(schema.type)) for (const type of schema.type as string[]) types.add(type);
  for (const value of [...(schema.enum ?? []), ...("const" in schema ? [schema.const] : [])]) {
    types.add(typeof value === "number" ? "number" : typeof value);
  }
  for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? [])]) {
    for (const type of schemaTypes(branch)) types.add(type);
  }
  return [...types];
}

/** {@link ArgTypes} from the tools' JSON Schemas (`registry.schema(run, surface, "json")`). */
export function argTypesFrom(
  schemas: readonly { readonly name: string; readonly inputSchema: unknown }[],
): ArgTypes {
  const byTool = new Map<string, Map<string, string[]>>();
  for (const { name, inputSchema } of schemas) {
    const args = new Map<string, string[]>();
    const root = inputSchema as JsonSchema;
    // An object schema, or a union of object schemas: an argument takes the types of every branch.
    for (const branch of [root, ...(root.anyOf ?? []), ...(root.oneOf ?? [])]) {
      for (const [arg, schema] of Object.entries(branch.properties ?? {})) {
        args.set(arg, [...new Set([...(args.get(arg) ?? []), ...schemaTypes(schema)])]);
      }
    }
    byTool.set(name, args);
  }
  return (tool, arg) => byTool.get(tool)?.get(arg);
}

/**
 * A typed value as the argument's schema takes it: a number or boolean only where the schema takes
 * one and no string, JSON (`[1,2]`, `{…}`) only where it takes an array or object; anything else
 * stays the text typed. A double-quoted value is a JSON string, a single-quoted one is literal;
 * quotes only group a value with spaces, so where the schema takes no string, the quoted text is
 * read as if typed bare (`options='[{"label": "a b"}]'` is an array).
 */
function value(raw: string, types: readonly string[] | undefined): unknown {
  if (!raw.startsWith("'") && !raw.startsWith('"')) return typedValue(raw, types);
  let text = raw.slice(1, -1);
  if (raw.startsWith('"')) {
    try {
      text = JSON.parse(raw) as string;
    } catch {
      // Kept as typed between the quotes.
    }
  }
  return typedValue(text, types);
}

/** Unquoted text as the argument's schema takes it (see {@link value}). */
function typedValue(raw: string, types: readonly string[] | undefined): unknown {
  if (types === undefined || types.includes("string")) return raw;
  if ((types.includes("number") || types.includes("integer")) && /^-?\d+(\.\d+)?$/.test(raw)) {
    return Number(raw);
  }
  if (types.includes("boolean") && (raw === "true" || raw === "false")) return raw === "true";
  if ((types.includes("array") || types.includes("object")) && /^[[{]/.test(raw)) {
    try {
      return JSON.parse(raw) as unknown;
    } catch {
      return raw;
    }
  }
  return raw;
}

/** `name=value`, `name="…"`, `name='…'`, or a word that is none of these (stray). */
const token = /\s*(?:(\w+)=("(?:[^"\\]|\\.)*"(?=\s|$)|'[^']*'(?=\s|$)|[^\s"']\S*|)|(\S+))/y;

/**
 * Parses a typed call: `name=value` arguments, or the whole arguments object as JSON. A value is a
 * number, boolean or JSON only where the tool's schema (`argTypes`) expects one (`read path=2024`
 * stays the string "2024"); without `argTypes` every value is text. A bare word right after `lsp`
 * or `debug` is its `action` or `op` (`lsp hover file=src/a.ts line=3 symbol=foo`). Throws with
 * what was expected: a word that is not `name=value` (`command=echo hello world`) is named, with
 * how to quote a value that has spaces.
 */
export function parseTypedCall(line: string, argTypes?: ArgTypes): TypedCall {
  const trimmed = line.trim();
  if (trimmed.startsWith("{")) {
    const request = JSON.parse(trimmed) as { tool?: unknown; args?: unknown; surface?: unknown };
    // A serve request line pasted as it is keeps its id, which a typed call has no use for.
    const unknownFields = unknownFieldsError(request, requestFields);
    if (unknownFields !== undefined) {
      throw new Error(`${unknownFields}; a JSON call is {"tool": "read", "args": {"path": "a.ts"}}`);
    }
    if (typeof request.tool !== "string") throw new Error('a JSON call needs "tool"');
    return {
      tool: request.tool,
      args: (request.args ?? {}) as Record<string, unknown>,
      surface: typeof request.surface === "string" ? request.surface : "main",
    };
  }
  const space = trimmed.search(/\s/);
  const tool = space === -1 ? trimmed : trimmed.slice(0, space);
  let rest = space === -1 ? "" : trimmed.slice(space + 1).trim();
  if (rest.startsWith("{"))
    return { tool, args: JSON.parse(rest) as Record<string, unknown>, surface: "main" };
  const args: Record<string, unknown> = {};
  // `lsp hover …` and `debug stack …`: a bare first word is the action (lsp) or op (debug).
  const verb = /^([a-z_]+)(?=\s|$)/.exec(rest)?.[1];
  const verbName = tool === "lsp" ? "action" : tool === "debug" ? "op" : undefined;
  if (verb !== undefined && verbName !== undefined) {
    args[verbName] = verb;
    rest = rest.slice(verb.length);
  }
  const stray: string[] = [];
  let strayAfter: string | undefined;
  let last: string | undefined;
  token.lastIndex = 0;
  while (token.lastIndex < rest.length) {
    const match = token.exec(rest);
    if (match === null) break;
    const [, name, raw, word] = match;
    if (word !== undefined) {
      stray.push(word);
      strayAfter ??= last;
      continue;
    }
    if (name === undefined || raw === undefined) break;
    if (raw === "" && /^["']/.test(rest.slice(token.lastIndex))) {
      throw new Error(
        `the value of ${name} opens a quote that does not close where the value ends; ` +
          `close it: ${name}="…" or ${name}='…' (inside double quotes, \\" is a quote)`,
      );
    }
    if (Object.hasOwn(args, name)) {
      throw new Error(
        `${name} is given twice; give each argument once (a list goes in as JSON: ${name}='[…]')`,
      );
    }
    args[name] = value(raw, argTypes?.(tool, name));
    last = name;
  }
  if (stray.length > 0) {
    const words = stray.join(" ");
    const what = `'${words}' ${stray.length === 1 ? "is not a name=value argument" : "are not name=value arguments"}`;
    throw new Error(
      strayAfter === undefined
        ? `${what}; type each argument as name=value (quotes around a value with spaces: name="a b"), or the arguments as JSON`
        : `${what}; a value with spaces needs quotes: ${strayAfter}="${String(args[strayAfter])} ${words}" (or single quotes), or type the arguments as JSON`,
    );
  }
  return { tool, args, surface: "main" };
}
