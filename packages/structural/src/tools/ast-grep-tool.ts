import { defineTool } from "@tools/registry";
import { z } from "zod";
import { StructuralError } from "../errors/structural-error.js";
import { findMatches, type StructuralMatch } from "../match/find-matches.js";
import type { LanguageSpec } from "../grammars/languages.js";
import { structuralParserKey, type StructuralParser } from "../parser/structural-parser.js";
import { gluedMetaVariables } from "../pattern/metavariable.js";
import type { CompiledPattern, PatternNode } from "../pattern/pattern-node.js";
import { byteSize } from "../search/byte-size.js";
import { defaultTimeBudgetMs, searchFiles, type SearchOutcome } from "../search/search.js";
import { compileInScope, plural, resolveScope, type SearchScope } from "./scope.js";

const maxCodeLines = 3;

/** Matches listed when `max_results` is not given, and the most it may ask for. */
const defaultMaxResults = 50;
/**
 * Matches counted, listed or not: the total is exact up to here ("1 043 matches … showing 50"),
 * and past it only said to be more ("more than 10 000"), so a pattern that matches every node of
 * a large file (`$A`) does not collect millions. The search looks for one more than this, so
 * exactly this many is still an exact count.
 */
const countedMatches = 10_000;
const maxMaxResults = 1000;

/**
 * Characters of listed matches over the whole result (about the shell tool's 24 KB): past it,
 * matches are counted but not listed, and the result says how many were left out.
 */
export const maxListedChars = 24_000;

/** Characters of one line of matched code shown (a minified line can be megabytes long). */
const maxLineChars = 200;

function trimLine(line: string): string {
  return line.length > maxLineChars
    ? `${line.slice(0, maxLineChars)}… (${line.length - maxLineChars} more characters)`
    : line;
}

/**
 * A match's first {@link maxCodeLines} lines, each cut at {@link maxLineChars}, as they stand
 * relative to one another (see {@link dedentLines}; `indent` is that of the line the match starts
 * on), and how many more it has.
 */
function trimCode(text: string, indent: number): string {
  const lines = text.replace(/\r\n/g, "\n").split("\n");
  const shown = dedentLines(lines.slice(0, maxCodeLines), indent).map(trimLine).join("\n");
  if (lines.length <= maxCodeLines) return shown;
  return `${shown}\n… (${plural(lines.length - maxCodeLines, "more line")})`;
}

/**
 * A match's lines as they stand in the file, relative to one another: its first line lies on a
 * line of the file indented by `indent` (where it starts, or further on: `compute(` of
 * `    x = compute(`) and the others at the file's indentation, so the indentation they all share
 * (the first's counted as its line's) is taken off — `try:` at column 4 shows its body one level
 * in, not two, and the arguments of a call that starts mid-line one level in, as the code reads.
 * Blank lines do not count.
 */
export function dedentLines(lines: readonly string[], indent: number): string[] {
  if (lines.length < 2) return [...lines];
  let common = indent;
  for (const line of lines.slice(1)) {
    if (line.trim() === "") continue;
    common = Math.min(common, /^[ \t]*/.exec(line)![0].length);
  }
  if (common === 0) return [...lines];
  return lines.map((line, index) => (index === 0 ? line : line.trim() === "" ? "" : line.slice(common)));
}

/**
 * The candidates given up on because the code there is nested deeper than the matcher's stack
 * allows (they may or may not match), as a sentence; undefined when none.
 */
export function tooDeepNote(outcome: SearchOutcome): string | undefined {
  if (outcome.tooDeep === 0) return undefined;
  return `${outcome.tooDeep} candidate(s) were abandoned: the code there is nested too deeply to match.`;
}

function oneLine(text: string): string {
  const flat = text.replace(/\s*\r?\n\s*/g, " ");
  return flat.length > 80 ? `${flat.slice(0, 77)}…` : flat;
}

/** Ignore rules named in a result; the others are counted. */
const maxRulesShown = 3;

/**
 * Whether a result says what ignore rules left out: when nothing was searched (the user asked
 * for something, and ignore rules took all of it), or when the folder searched is itself ignored
 * (the user asked for ignored code, and rules inside it left some out). Not otherwise: most
 * workspaces ignore folders (`dist/`, `build/`) a search is not meant to enter.
 */
function ignoredShown(outcome: SearchOutcome): boolean {
  const { files, folders, root } = outcome.ignored;
  return files + folders > 0 && (outcome.searched === 0 || root !== undefined);
}

/** `.gitignore:2 \`build/\``; a rule holding a backtick is fenced with two (Markdown). */
function ruleRef(rule: { source: string; line: number; text: string }): string {
  const fence = rule.text.includes("`") ? "``" : "`";
  const pad = fence === "``" ? " " : "";
  return `${rule.source}:${rule.line} ${fence}${pad}${rule.text}${pad}${fence}`;
}

/** "3 python files and 1 folder ignored by .ignore:1 `*`, 1 folder by …", or undefined when nothing was. */
function ignoredPart(outcome: SearchOutcome, scope: SearchScope): string | undefined {
  if (!ignoredShown(outcome)) return undefined;
  const counts = (files: number, folders: number): string =>
    [
      ...(files > 0 ? [plural(files, `${scope.spec.id} file`)] : []),
      ...(folders > 0 ? [plural(folders, "folder")] : []),
    ].join(" and ");
  const rules = outcome.ignored.rules;
  const parts = rules
    .slice(0, maxRulesShown)
    .map(
      (rule, index) =>
        `${counts(rule.files, rule.folders)} ${index === 0 ? "ignored " : ""}by ${ruleRef(rule)}`,
    );
  const rest = rules.slice(maxRulesShown);
  if (rest.length > 0) {
    const files = rest.reduce((sum, rule) => sum + rule.files, 0);
    const folders = rest.reduce((sum, rule) => sum + rule.folders, 0);
    parts.push(`${counts(files, folders)} by ${plural(rest.length, "other rule")}`);
  }
  return parts.join(", ");
}

/**
 * What to do when ignore rules left out what was asked (see {@link ignoredShown}): which folder
 * or file to name as `path` to search it anyway. Undefined when the result does not show them.
 */
export function ignoredNote(outcome: SearchOutcome): string | undefined {
  if (!ignoredShown(outcome)) return undefined;
  const { rules, root } = outcome.ignored;
  const parts: string[] = [];
  // Said only when it is news: not when the same rule is the one counted (`*` above the folder).
  if (root && !rules.some((rule) => rule.source === root.source && rule.line === root.line))
    parts.push(
      `The folder searched is itself ignored (${ruleRef(root)}); it was searched as it was named, the rules applying inside it.`,
    );
  const file = rules.find((rule) => !rule.exampleIsFolder);
  const folder = rules.find((rule) => rule.exampleIsFolder && rule.namingSearches);
  const closed = rules.find((rule) => rule.exampleIsFolder && !rule.namingSearches);
  const ways: string[] = [];
  if (file) ways.push(`a file is searched even if ignored (e.g. path "${file.example}")`);
  if (folder) ways.push(`a folder is searched, the rules applying inside it (e.g. path "${folder.example}")`);
  if (closed)
    ways.push(
      `"${closed.example}" is ignored with its files: name one of them${closed.fileInExample === undefined ? "" : ` (e.g. path "${closed.fileInExample}")`}`,
    );
  parts.push(
    `To search ignored code anyway, name it as path: ${ways.join("; ")}. There is no option to turn ignore rules off.`,
  );
  return parts.join(" ");
}

/**
 * How a search went, in one line: files searched (skipped ones not counted) and skipped, e.g.
 * "searched 4 dart files; skipped 1 binary, 1 over 2 MiB" (the size limit the search applied),
 * and, when nothing was searched for it (see {@link ignoredShown}), what ignore rules left out:
 * "searched 0 python files; skipped 3 python files ignored by /tmp/x/.ignore:1 `*`".
 */
export function searchedLine(outcome: SearchOutcome, scope: SearchScope): string {
  const skipped: string[] = [];
  // Stopped at a bound on the matches: the counts are of the files up to the one where it stopped.
  const reached = outcome.searched + outcome.skippedBinary + outcome.skippedLarge + outcome.unreadable;
  if (outcome.skippedBinary > 0) skipped.push(`${outcome.skippedBinary} binary`);
  if (outcome.skippedLarge > 0)
    skipped.push(`${outcome.skippedLarge} over ${byteSize(outcome.maxFileBytes)}`);
  const example = outcome.unreadableExample;
  if (outcome.unreadable > 0 && example)
    skipped.push(
      `${outcome.unreadable} that could not be read (${outcome.unreadable > 1 ? "e.g. " : ""}${example.path}: ${example.reason})`,
    );
  const ignored = ignoredPart(outcome, scope);
  if (ignored) skipped.push(ignored);
  const files = plural(outcome.considered, `${scope.spec.id} file`);
  const done =
    outcome.stopped === "max-matches"
      ? `the count stopped after ${reached} of ${files}`
      : outcome.stopped === "deadline"
        ? `searched ${outcome.searched} of ${files} before the time budget ran out`
        : `searched ${plural(outcome.searched, `${scope.spec.id} file`)}`;
  return `${done}${skipped.length > 0 ? `; skipped ${skipped.join(", ")}` : ""}`;
}

/**
 * Throws `PATTERN_INVALID` when nothing matched a pattern tree-sitter read whole as an ERROR:
 * the pattern most likely did not parse as meant, and an empty result would hide it.
 */
export function rejectUnparsedWithoutMatches(
  pattern: CompiledPattern,
  outcome: SearchOutcome,
  scope: SearchScope,
): void {
  if (pattern.unparsed === undefined) return;
  throw new StructuralError({
    code: "PATTERN_INVALID",
    message:
      `${pattern.unparsed}\nSuch a pattern is matched as a node of any kind with the same children, ` +
      `and nothing matched (${searchedLine(outcome, scope)}).`,
    data: { pattern: pattern.source, language: pattern.language },
  });
}

/**
 * Words of a pattern that look like metavariables written in lower case (`$a`, `$$$args`, `$_x`
 * is fine): plain code, since a metavariable's name is upper case (as ast-grep's). In order of
 * appearance, each once.
 */
export function lowercaseMetaVariables(pattern: string): string[] {
  const out: string[] = [];
  for (const match of pattern.matchAll(/(?<![\p{L}\p{N}_$])(\$+)([\p{L}_][\p{L}\p{N}_]*)/gu)) {
    const [word, , name = ""] = match;
    if (!/\p{Ll}/u.test(name) || /^_[A-Z0-9_]*$/.test(name) || out.includes(word)) continue;
    out.push(word);
  }
  return out;
}

/**
 * A note that the search stopped before the end, or undefined when it ran through: at the time
 * budget (what was found is partial), or at `max_results` (there are more).
 */
function stoppedNote(outcome: SearchOutcome): string | undefined {
  if (outcome.stopped !== "deadline") return undefined;
  return `The search stopped after ${defaultTimeBudgetMs / 1000} s, its time budget, before it was done: the results are partial. Narrow the pattern (a literal name or keyword) or the path.`;
}

/** Whether a pattern tree holds a node of this type. */
function holdsType(node: PatternNode, type: string): boolean {
  return (
    node.kind === "inner" && (node.type === type || node.children.some((child) => holdsType(child, type)))
  );
}

/** Languages whose patterns get the type-reading hint (see `typeReadingHint`). */
const typeHintLanguages: ReadonlySet<string> = new Set(["typescript", "tsx"]);

/**
 * For a pattern that matched nothing, how it reads as a type where that is another kind of node
 * (TypeScript's `Array<$T>` reads as an `instantiation_expression`, as in ast-grep, and as a type
 * is a `generic_type`; `($A: $T) => $R` an `arrow_function`, as a type a `function_type`): a
 * hint saying so, with a pattern that holds the type reading where one does (checked: it compiles
 * and holds a node of that kind), or undefined. Only for TypeScript and TSX; it changes
 * no match, as ast-grep reads the fragment the same way.
 */
export async function typeReadingHint(
  parser: StructuralParser,
  spec: LanguageSpec,
  pattern: CompiledPattern,
): Promise<string | undefined> {
  // TypeScript's alone: Go's `type __T = ` reads `func $F()` as a function_type around an ERROR
  // (the name), and `type $_ = func $F()` finds no `type H = func()`.
  const wrapper = typeHintLanguages.has(spec.id)
    ? spec.wrappers.find(([prefix]) => /^type __T\b/.test(prefix))
    : undefined;
  if (!wrapper || pattern.rootType === undefined || pattern.wrapper !== undefined) return undefined;
  const asTypeSpec: LanguageSpec = { ...spec, wrappers: [wrapper], onlyWrapped: true, rereadIn: {} };
  let asType: CompiledPattern;
  try {
    asType = await parser.compile(asTypeSpec, pattern.source);
  } catch {
    return undefined;
  }
  const type = asType.rootType;
  if (asType.unparsed !== undefined || type === undefined || type === pattern.rootType) return undefined;
  // A keyword token (`string` in `type __T = string`) is named as one, not as "a string".
  const reading =
    asType.root.kind === "leaf" && !asType.root.named
      ? `the keyword \`${type}\``
      : `${/^[aeiou]/i.test(type) ? "an" : "a"} ${type}`;
  const hint =
    `Hint: if you meant a type, \`${pattern.source}\` as a type (after \`${wrapper[0].trim()}\`) is ${reading}, ` +
    `which a pattern read as ${pattern.rootType} (as ast-grep reads it) does not match: put it in the code around it`;
  const alias = `${wrapper[0].replace("__T", "$_").trim()} ${pattern.source}`;
  let aliasHolds = false;
  try {
    aliasHolds = holdsType((await parser.compile(spec, alias)).root, type);
  } catch {
    aliasHolds = false;
  }
  return `${hint}${aliasHolds ? ` (\`${alias}\` finds it in a type alias)` : ""}, or search its text.`;
}

/**
 * For a pattern that matched nothing and holds an ERROR tree-sitter made of part of it (see
 * `CompiledPattern.keptError`): a note that this part did not parse (ast-grep's warning is only
 * for a pattern that is an ERROR whole), and where a metavariable in it written as a string's
 * text makes the pattern parse, that pattern (JavaScript's `export * from $M`, its `$M` written
 * `"$M"`). Undefined for any other pattern, and where the pattern finds that string reading.
 */
export async function keptErrorHint(
  parser: StructuralParser,
  spec: LanguageSpec,
  pattern: CompiledPattern,
): Promise<string | undefined> {
  const kept = pattern.keptError;
  if (kept === undefined) return undefined;
  const note =
    `Part of the pattern did not parse: tree-sitter read \`${kept.text}\` as an ERROR, which is matched as a node ` +
    `of any kind with the same children, so the pattern may not say what you meant.`;
  const at = pattern.source.indexOf(kept.text);
  /** The pattern with `$name` in the ERROR written in `quote`s, if that parses whole; else undefined. */
  const quoted = async (name: string, quote: string): Promise<string | undefined> => {
    const written = new RegExp(`(?<![\\w$"'\`])\\$${name}(?![\\w"'\`])`);
    const part = kept.text.replace(written, () => `${quote}$${name}${quote}`);
    if (at < 0 || part === kept.text) return undefined;
    const source = pattern.source.slice(0, at) + part + pattern.source.slice(at + kept.text.length);
    try {
      const reread = await parser.compile(spec, source);
      return reread.unparsed === undefined && reread.keptError === undefined ? source : undefined;
    } catch {
      return undefined;
    }
  };
  for (const name of kept.metaVariables) {
    const double = await quoted(name, '"');
    if (double === undefined) continue;
    // Where the pattern as written finds the code its string reading writes (JSON's
    // `{"k": $V}` finds `{"k": "$V"}`: its ERROR is the pair, whatever the value), the ERROR
    // reading does what it says, and the string reading finds no more: the pattern found nothing
    // because the code has none (ast-grep says nothing either).
    if (await findsOwnCode(parser, spec, pattern, double)) return undefined;
    const single = (await quoted(name, "'")) === undefined ? "" : `; write '$${name}' for single quotes`;
    return `${note} Written as a string's text, $${name} parses: \`${double}\` (it matches strings in double quotes${single}).`;
  }
  return note;
}

/** Whether `pattern` matches `code` (a pattern's text read as code); false where that fails. */
async function findsOwnCode(
  parser: StructuralParser,
  spec: LanguageSpec,
  pattern: CompiledPattern,
  code: string,
): Promise<boolean> {
  try {
    const tree = await parser.parse(spec, code);
    try {
      return findMatches(pattern, tree, code).matches.length > 0;
    } finally {
      tree.delete();
    }
  } catch {
    return false;
  }
}

/** The hints for a pattern that matched nothing (see `typeReadingHint`, `keptErrorHint`), or undefined. */
export async function noMatchHints(
  parser: StructuralParser,
  spec: LanguageSpec,
  pattern: CompiledPattern,
): Promise<string | undefined> {
  const hints = [
    await keptErrorHint(parser, spec, pattern),
    await typeReadingHint(parser, spec, pattern),
  ].filter((hint) => hint !== undefined);
  return hints.length > 0 ? hints.join(" ") : undefined;
}

/** The plain "nothing matched" message, with the file count and how the pattern was read. */
export function noMatchMessage(
  pattern: CompiledPattern,
  outcome: SearchOutcome,
  scope: SearchScope,
  typeHint?: string,
): string {
  const stopped = stoppedNote(outcome);
  const ignored = ignoredNote(outcome);
  const parts = [
    `no matches for \`${pattern.source}\` (${searchedLine(outcome, scope)}).`,
    ...(stopped ? [stopped] : []),
    ...(ignored ? [ignored] : []),
    `The pattern parsed as ${pattern.rootType ?? "a metavariable matching any node"}${pattern.wrapper ? ` inside \`${pattern.wrapper}\`` : ""}.`,
  ];
  if (outcome.exhausted > 0)
    parts.push(`${outcome.exhausted} candidate(s) were abandoned at the $$$ step budget.`);
  const deep = tooDeepNote(outcome);
  if (deep) parts.push(deep);
  if (typeHint !== undefined) parts.push(typeHint);
  const glued = gluedMetaVariables(pattern.source);
  if (glued.length > 0) {
    const words = glued.map((word) => `\`${word}\``).join(", ");
    parts.push(
      `Hint: ${words} ${glued.length === 1 ? "is" : "are"} matched as plain code, not as a metavariable: a metavariable must be a whole node ($X on its own, not foo$X or $Xfoo).`,
    );
  }
  // Where `$name` is ordinary code, a lower-case `$x` is meant as written.
  const lower = scope.spec.dollarNames ? [] : lowercaseMetaVariables(pattern.source);
  if (lower.length > 0) {
    const words = lower.map((word) => `\`${word}\``).join(", ");
    const upper = lower.map((word) => `\`${word.toUpperCase()}\``).join(", ");
    parts.push(
      `Hint: ${words} ${lower.length === 1 ? "is" : "are"} matched as plain code, not as a metavariable: metavariable names are upper case, as in ast-grep (write ${upper}).`,
    );
  }
  return parts.join(" ");
}

/** "a `;`", "an `identifier`". */
function aToken(type: string): string {
  return `${/^[aeiou]/i.test(type) ? "an" : "a"} \`${type}\``;
}

/** The line of `source` holding `offset`, without its line break. */
function lineAt(source: string, offset: number): string {
  const start = source.lastIndexOf("\n", offset - 1) + 1;
  const end = source.indexOf("\n", offset);
  return source.slice(start, end < 0 ? source.length : end).replace(/\r$/, "");
}

/**
 * A match as listed: `path:line:col`, its code, each binding. A match with no code (a bare `$A`
 * on a token tree-sitter supplied, as ast-grep lists it) says so and shows the line around it,
 * and a binding of such a token says it is missing, instead of blank lines.
 */
function formatMatch(relativePath: string, match: StructuralMatch, source: string): string {
  const lines = [`${relativePath}:${match.line + 1}:${match.column + 1}`];
  const supplied = match.missing?.[0];
  if (match.text === "" && supplied !== undefined) {
    const line = oneLine(trimLine(lineAt(source, match.start)).trim());
    lines.push(
      `  (no code: the code lacks ${aToken(supplied)} here, which tree-sitter supplied to read the line \`${line}\`)`,
    );
  } else {
    // The indentation of the line the match starts on (never past the match's start).
    const indent = Math.min(match.column, /^[ \t]*/.exec(lineAt(source, match.start))![0].length);
    for (const line of trimCode(match.text, indent).split("\n")) lines.push(`  ${line}`);
  }
  for (const [name, capture] of match.bindings)
    lines.push(
      `  $${name} = ${capture.missing === undefined ? oneLine(capture.text) : `(missing \`${capture.missing}\`: the code lacks it)`}`,
    );
  return lines.join("\n");
}

/** Structural search: `ast_grep` (read tier). */
export const astGrepTool = defineTool({
  name: "ast_grep",
  tier: "read",
  parallelSafe: true,
  description: [
    "Find code by its syntax-tree shape rather than its text. The pattern is a fragment of code in the given language:",
    "$NAME matches exactly one node, $$$NAME a (possibly empty) run of sibling nodes, $_ and $$$ match without binding.",
    'A metavariable used twice must capture the same code. Metavariables stand for whole nodes ($X, not foo$X or "$X").',
    "$$$ backtracks: foo($$$A, $B) binds B to the last argument (and matches foo(x), A empty).",
    "As in ast-grep, a keyword the pattern omits is passed over only before a token the pattern writes: function $F() {}",
    "also finds async function f() {}, def $F(): $$$B also async def; yield $A does not find yield from x.",
    "Honours .gitignore and .ignore; output lists path:line:col, the matched code, and each binding.",
    'Example: ast_grep(pattern: "if ($X != null) $X.dispose()", language: "dart") finds guards that dispose what they tested.',
  ].join(" "),
  input: z.object({
    pattern: z.string().min(1).describe("Code fragment with metavariables, e.g. foo($$$ARGS) or $A == $A"),
    path: z
      .string()
      .optional()
      .describe("File or folder to search, relative to the workspace; default the whole workspace"),
    language: z
      .string()
      .optional()
      .describe(
        "Grammar id: dart, python, rust, c, cpp, go, javascript, typescript, tsx, java, bash, json, …; inferred when path is a file",
      ),
    max_results: z
      .number()
      .int()
      .min(1)
      .max(maxMaxResults)
      .optional()
      .describe(
        `Matches to list, default ${defaultMaxResults}; all are counted up to ${countedMatches}, where the search stops`,
      ),
  }),
  requires: [structuralParserKey],
  paths: (input) => (input.path === undefined ? [] : [input.path]),
  summarize: (input) => `search ${input.path ?? "the workspace"} for \`${input.pattern}\``,
  async execute(input, context) {
    const parser = context.run.require(structuralParserKey);
    const scope = await resolveScope(parser, context, input.path, input.language);
    const pattern = await compileInScope(parser, scope, input.pattern, input.language);
    const limit = input.max_results ?? defaultMaxResults;
    const outcome = await searchFiles({
      parser,
      spec: scope.spec,
      pattern,
      workingDirectory: context.run.workingDirectory,
      target: scope.target,
      signal: context.signal,
      // Enough to give an exact total for an ordinary search, without collecting millions; one
      // more than the count's bound says whether there are more than it.
      maxMatches: Math.max(limit, countedMatches) + 1,
      timeBudgetMs: defaultTimeBudgetMs,
      partial: true,
    });
    const total = outcome.files.reduce((sum, file) => sum + file.matches.length, 0);
    if (total === 0) {
      // A search cut short by its budget says so; it is no proof that the pattern cannot match.
      if (outcome.stopped !== "deadline") rejectUnparsedWithoutMatches(pattern, outcome, scope);
      return noMatchMessage(pattern, outcome, scope, await noMatchHints(parser, scope.spec, pattern));
    }
    const blocks: string[] = [];
    let listedChars = 0;
    let full = false;
    for (const file of outcome.files) {
      for (const match of file.matches) {
        if (blocks.length >= limit) break;
        const block = formatMatch(file.relativePath, match, file.text);
        // The first match is always listed, whatever its size (it is bounded per line).
        if (blocks.length > 0 && listedChars + block.length + 2 > maxListedChars) {
          full = true;
          break;
        }
        listedChars += block.length + 2;
        blocks.push(block);
      }
      if (full) break;
    }
    // Past the count's bound there are more than it (one more was found); at the time budget the
    // total is a lower bound.
    const past = outcome.stopped === "max-matches";
    const partial = outcome.stopped === "deadline";
    const bound = Math.max(limit, countedMatches);
    /** `n` matches of the total (all of it, or all but the listed ones), as the search knows it. */
    const howMany = (listed: number): string =>
      past ? `more than ${bound - listed}` : `${partial ? "at least " : ""}${total - listed}`;
    const count = `${howMany(0)} ${total === 1 && !past ? "match" : "matches"}`;
    const header = `${count} in ${plural(outcome.files.length, "file")} (${searchedLine(outcome, scope)})`;
    const more =
      total > blocks.length
        ? full
          ? `\n\n… showing ${blocks.length} of ${howMany(0)}: the listing stops at ${maxListedChars} characters (${howMany(blocks.length)} more not shown; narrow path or the pattern, or lower max_results)`
          : past || partial
            ? `\n\n… showing ${blocks.length} of ${howMany(0)}; the ${past ? "count" : "search"} stopped there (raise max_results or narrow path)`
            : `\n\n… and ${total - blocks.length} more (showing ${blocks.length}; raise max_results or narrow path)`
        : "";
    const notes = [tooDeepNote(outcome), stoppedNote(outcome), ignoredNote(outcome)].filter(
      (note) => note !== undefined,
    );
    return `${[header, ...notes].join("\n")}\n\n${blocks.join("\n\n")}${more}`;
  },
});
