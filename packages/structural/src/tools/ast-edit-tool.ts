import { defineTool } from "@tools/registry";
import { z } from "zod";
import type { StructuralMatch, TestedBy } from "../match/find-matches.js";
import { structuralParserKey } from "../parser/structural-parser.js";
import { clauseHint } from "../pattern/parse-failure.js";
import { checkRewrites, type RewriteToCheck } from "../rewrite/check-rewrites.js";
import { diffPreview } from "../rewrite/diff-preview.js";
import { rewriteFile } from "../rewrite/rewrite-file.js";
import {
  describeSite,
  sourcesOf,
  writtenWindows,
  type ErrorSite,
  type ReplacedSpan,
  type Window,
} from "../rewrite/syntax-errors.js";
import { checkTemplate } from "../rewrite/template.js";
import { searchFiles } from "../search/search.js";
import { stagedEditsKey, type StagedFile } from "../staging/staged-edits.js";
import {
  noMatchMessage,
  rejectUnparsedWithoutMatches,
  searchedLine,
  noMatchHints,
  tooDeepNote,
} from "./ast-grep-tool.js";
import { compileInScope, plural, resolveScope } from "./scope.js";

const previewLines = 60;

/** Characters of diff shown in a proposal, over all files (each line is also cut at 200). */
const previewChars = 8_000;

/** Locations listed for matches left because they passed over a keyword or marker. */
const listedLeft = 5;

/** Matching files listed that were skipped for not being valid UTF-8. */
const listedNotUtf8 = 5;

/** Places listed where a rewrite leaves code that does not parse: per file, and in all. */
const listedBrokenPerFile = 3;
const listedBroken = 10;

/**
 * For a site away from every replacement (a bracket the rewrite opened, reported where the file
 * ends), the rewritten line it most likely comes from (`source`, see sourcesOf); "" otherwise. A
 * body read empty is found only next to a replacement and placed after the code before it: never
 * given one.
 */
function causeNote(text: string, site: ErrorSite, source: Window | undefined, line: number): string {
  if (site.empty !== undefined || source === undefined) return "";
  const from = describeSite(text, { start: source.start, end: source.end });
  if (from.line === line) return "";
  return source.start === source.end
    ? ` (from the deletion at line ${from.line})`
    : ` (from the rewrite at line ${from.line}: ${from.lineText.trim()})`;
}

/**
 * The warning for rewritten files that have syntax errors their originals did not have, one line
 * per place (`path:line:column`, what is wrong, the new line's text), or undefined when none has.
 */
function brokenNote(
  broken: readonly {
    relativePath: string;
    text: string;
    spans: readonly ReplacedSpan[];
    sites: readonly ErrorSite[];
  }[],
): string | undefined {
  if (broken.length === 0) return undefined;
  const places = broken.reduce((sum, file) => sum + file.sites.length, 0);
  const lines = [
    `Warning: this rewrite leaves ${plural(broken.length, "file")} with syntax errors ${broken.length === 1 ? "it" : "they"} did not have ` +
      `(${plural(places, "place")}, below: the rewrite caused ${places === 1 ? "it" : "them"}); ` +
      `change the pattern or rewrite and discard this edit, or accept it and fix ${places === 1 ? "it" : "them"} by hand.`,
  ];
  let listed = 0;
  for (const file of broken) {
    const shownSites = file.sites.slice(0, listedBrokenPerFile);
    const sources = sourcesOf(shownSites, writtenWindows(file.spans));
    for (const [index, site] of shownSites.entries()) {
      if (listed >= listedBroken) break;
      const where = describeSite(file.text, site);
      const what =
        where.empty !== undefined
          ? `leaves an empty ${where.empty}`
          : where.missing === undefined
            ? "does not parse"
            : `lacks ${where.missing.trim() === "" ? "a token" : `\`${where.missing}\``}`;
      const shown = where.lineText.length > 0 ? where.lineText.trim() : "(an empty line)";
      const cause = causeNote(file.text, site, sources[index], where.line);
      lines.push(`  ${file.relativePath}:${where.line}:${where.column} ${what}: ${shown}${cause}`);
      listed++;
    }
  }
  if (listed < places) lines.push(`  … ${places - listed} more`);
  return lines.join("\n");
}

/** A list of words as prose: `a`, `a or b`, `a, b or c`. */
function either(words: readonly string[]): string {
  return words.length <= 1 ? (words[0] ?? "") : `${words.slice(0, -1).join(", ")} or ${words.at(-1)}`;
}

/** How a token passed over is named in prose: its text, or "a line break" for a newline token. */
function spell(token: string): string {
  return token.trim() === "" ? (token.includes("\n") ? "a line break" : "blank space") : `\`${token}\``;
}

/** `path:line:column` of a few of `left`, and how many more there are. */
function places(left: readonly { relativePath: string; match: StructuralMatch }[]): string {
  const where = left
    .slice(0, listedLeft)
    .map(({ relativePath, match }) => `${relativePath}:${match.line + 1}:${match.column + 1}`);
  const more = left.length > listedLeft ? `, … (${left.length - listedLeft} more)` : "";
  return `${where.join(", ")}${more}`;
}

/** `a \`while\``, `an \`if\``: a Bash condition's keyword with its article. */
function keywordOf(test: TestedBy): string {
  return `${/^[aeiou]/.test(test.keyword) ? "an" : "a"} \`${test.keyword}\``;
}

/**
 * What tests the commands left (see `StructuralMatch.condition`): `an \`if\` tests (the last of
 * its condition)`, with each keyword there, and where in the condition they are.
 */
function conditionOf(tests: readonly TestedBy[]): string {
  const keywords = [...new Set(tests.map(keywordOf))];
  const grouped = tests.some((test) => test.group !== undefined);
  const bare = tests.some((test) => test.group === undefined);
  const where =
    grouped && bare
      ? "the last of its condition, or of the `{ … }` or `( … )` that ends it"
      : grouped
        ? "the last of the `{ … }` or `( … )` that ends its condition"
        : "the last of its condition";
  return `${either(keywords)} tests (${where})`;
}

/** What each condition would read with the commands it tests deleted, and with `:` in their place. */
function emptiedConditions(tests: readonly TestedBy[]): string {
  const left = [
    ...new Set(
      tests.map((test) => {
        const opens = test.keyword === "if" || test.keyword === "elif" ? "then" : "do";
        const empty = test.group === "{ … }" ? " { ; };" : test.group === "( … )" ? " ( );" : " ;";
        return `\`${test.keyword}${empty} ${opens}\``;
      }),
    ),
  ];
  const effects = [
    ...new Set(
      tests.map((test) =>
        test.keyword === "while"
          ? "the loop would never end"
          : test.keyword === "until"
            ? "the loop body would never run"
            : "the `then` branch would always be taken",
      ),
    ),
  ];
  return (
    `${either(left)}, which ${left.length === 1 ? "does" : "do"} not parse, ` +
    `while \`:\` in its place always succeeds (${effects.join(", ")})`
  );
}

/** Per kind of Python expression left (see `StructuralMatch.irreplaceable`): what it is, and what to rewrite. */
const irreplaceableNotes: readonly [NonNullable<StructuralMatch["irreplaceable"]>, string, string][] = [
  [
    "raise",
    "what a `raise` raises, and `None` in its place raises a TypeError (a bare `raise` re-raises the exception being handled)",
    "statement",
  ],
  [
    "except",
    "an `except`'s exception type, and `None` in its place raises a TypeError when an exception reaches it (a bare `except:` catches every exception)",
    "clause",
  ],
  [
    "f-string",
    "in an f-string's self-documenting expression (`{…=}`), which prints its own text: `None` in its place would print other text (`{log(1)=}` would print `None=None`)",
    "string",
  ],
];

/**
 * What became of the matches that passed over a keyword or marker the pattern does not write, ran
 * on over code after the pattern, matched a token the code lacks, or were one command of a Bash
 * pipeline, the command a condition tests or every command of a list it tests, or a Python
 * expression `None` cannot stand for, that a rewrite to nothing would delete (see
 * `StructuralMatch.pipeline`, `condition`, `ListOf.condition` and `irreplaceable`): how many were left
 * unchanged, why, how to rewrite them, and where a few of them are.
 */
function leftUnchangedNote(
  left: readonly { relativePath: string; match: StructuralMatch }[],
  /** How to write the statement around the pattern (see `clauseHint`), or "". */
  clause: string,
): string {
  const trailing = left.filter(({ match }) => match.trailingCode);
  const lacking = left.filter(({ match }) => !match.trailingCode && match.missing !== undefined);
  const passing = left.filter(
    ({ match }) => !match.trailingCode && match.missing === undefined && match.passedOver !== undefined,
  );
  const others = left.filter(
    ({ match }) => !match.trailingCode && match.missing === undefined && match.passedOver === undefined,
  );
  const piped = others.filter(({ match }) => match.pipeline === true);
  const tested = others.filter(({ match }) => match.condition !== undefined);
  const listed = others.filter(({ match }) => match.condition === undefined && match.list?.condition);
  const irreplaceable = others.filter(({ match }) => match.irreplaceable !== undefined);
  const notes: string[] = [];
  if (passing.length > 0) {
    const keywords = [...new Set(passing.flatMap(({ match }) => match.passedOver ?? []))];
    const count = passing.length === 1 ? "1 match" : `${passing.length} matches`;
    notes.push(
      `${count} left unchanged: the code there has ${either(keywords.map(spell))}, which the pattern does not write and a rewrite would drop; ` +
        `write it in the pattern to rewrite ${passing.length === 1 ? "that match" : "those"} (${places(passing)})`,
    );
  }
  if (lacking.length > 0) {
    const tokens = [...new Set(lacking.flatMap(({ match }) => match.missing ?? []))];
    const count = lacking.length === 1 ? "1 match" : `${lacking.length} matches`;
    notes.push(
      `${count} left unchanged: the code there lacks ${either(tokens.map(spell))}, which tree-sitter supplied to read code it cannot parse there ` +
        `(broken code, or valid code it misreads, as preprocessor lines that cut a { … } short) and the pattern matched (a token it writes, or a metavariable standing for it), ` +
        `so a rewrite would write the token where the code lacks it or build on the gap; ` +
        `rewrite ${lacking.length === 1 ? "that match" : "those"} by hand (${places(lacking)})`,
    );
  }
  if (trailing.length > 0) {
    const count = trailing.length === 1 ? "1 match" : `${trailing.length} matches`;
    notes.push(
      `${count} left unchanged: the pattern is only the start of the code matched there (it does not parse on its own), ` +
        `and a rewrite would drop the code after it; write the whole statement or block in the pattern, with $$$ for the code inside, ` +
        `to rewrite ${trailing.length === 1 ? "that match" : "those"} (${places(trailing)})${clause ? `.${clause.replace(/\.$/, "")}` : ""}`,
    );
  }
  if (piped.length > 0) {
    const count = piped.length === 1 ? "1 match" : `${piped.length} matches`;
    notes.push(
      `${count} left unchanged: ${piped.length === 1 ? "it is" : "each is"} one command of a pipeline (\`a | b\`), and deleting it would change what the next command reads ` +
        `or where the previous one's output goes; write the whole pipeline in the pattern to delete it ` +
        `(${places(piped)})`,
    );
  }
  if (tested.length > 0) {
    const tests = tested.flatMap(({ match }) => (match.condition ? [match.condition] : []));
    const count = tested.length === 1 ? "1 match" : `${tested.length} matches`;
    notes.push(
      `${count} left unchanged: ${tested.length === 1 ? "it is" : "each is"} the command ${conditionOf(tests)}, ` +
        `and deleting it would leave ${emptiedConditions(tests)}; rewrite the condition, or the whole statement, by hand (${places(tested)})`,
    );
  }
  if (listed.length > 0) {
    const tests = listed.flatMap(({ match }) => (match.list?.condition ? [match.list.condition] : []));
    const lists = new Set(listed.map(({ relativePath, match }) => `${relativePath} ${match.list?.start}`))
      .size;
    notes.push(
      `${listed.length} matches left unchanged: ${lists === 1 ? "together they are every command of the list" : `they are every command of ${lists} lists, each`} ` +
        `${conditionOf(tests)}, and deleting them all would leave ${emptiedConditions(tests)}; ` +
        `rewrite the condition, or the whole statement, by hand (${places(listed)})`,
    );
  }
  for (const [kind, what, where] of irreplaceableNotes) {
    const left = irreplaceable.filter(({ match }) => match.irreplaceable === kind);
    if (left.length === 0) continue;
    const count = left.length === 1 ? "1 match" : `${left.length} matches`;
    notes.push(
      `${count} left unchanged: ${left.length === 1 ? "it is" : "each is"} ${what}; rewrite the ${where} by hand (${places(left)})`,
    );
  }
  return `${notes.join("; ")}.`;
}

/** Structural rewrite, staged: `ast_edit` (write tier; writes nothing until `resolve`). */
export const astEditTool = defineTool({
  name: "ast_edit",
  tier: "write",
  parallelSafe: true,
  description: [
    "Rewrite code by syntax-tree shape. Same pattern language as ast_grep; in the rewrite template $NAME and $$$NAME are",
    "replaced by the code they matched (\\$NAME writes a literal $NAME, e.g. a shell's \\$HOME).",
    "Nothing is written: the change is staged with a diff preview and an edit_id;",
    "call resolve to accept or discard it. Nested matches inside a rewritten match are left alone (run again to reach them).",
    "A match that passed over a keyword or marker the pattern does not write (function $F() {} on async function f() {}) is",
    "not rewritten, as that would drop it: the result says how many and where; write the keyword in the pattern to rewrite them.",
    "A rewrite that leaves code the grammar cannot read where it could before is staged with a warning naming each place.",
    'Example: ast_edit(pattern: "dispose($X)", rewrite: "$X.dispose()", language: "dart").',
  ].join(" "),
  input: z.object({
    pattern: z.string().min(1).describe("What to match, as for ast_grep"),
    rewrite: z
      .string()
      .describe(
        "What to put in each match's place, with $NAME / $$$NAME substituted; \\$NAME is a literal $NAME",
      ),
    path: z.string().optional().describe("File or folder to rewrite in; default the whole workspace"),
    language: z.string().optional().describe("Grammar id; inferred when path is a file"),
  }),
  requires: [structuralParserKey],
  paths: (input) => (input.path === undefined ? [] : [input.path]),
  summarize: (input) =>
    `stage rewrite of \`${input.pattern}\` → \`${input.rewrite}\` in ${input.path ?? "the workspace"}`,
  async execute(input, context) {
    const parser = context.run.require(structuralParserKey);
    const scope = await resolveScope(parser, context, input.path, input.language);
    const pattern = await compileInScope(parser, scope, input.pattern, input.language);
    checkTemplate(input.rewrite, pattern);
    const outcome = await searchFiles({
      parser,
      spec: scope.spec,
      pattern,
      workingDirectory: context.run.workingDirectory,
      target: scope.target,
      signal: context.signal,
      // A rewrite to nothing deletes a statement with its `;` (see `StructuralMatch.statementEnd`).
      ...(input.rewrite.trim() === "" ? { statements: true } : {}),
    });
    if (outcome.files.length === 0) {
      rejectUnparsedWithoutMatches(pattern, outcome, scope);
      return `nothing staged: ${noMatchMessage(pattern, outcome, scope, await noMatchHints(parser, scope.spec, pattern))}`;
    }
    const files: StagedFile[] = [];
    const previews: string[] = [];
    let replacements = 0;
    let nested = 0;
    const leftUnchanged: { relativePath: string; match: StructuralMatch }[] = [];
    let budget = previewLines;
    let charBudget = previewChars;
    let omittedLines = 0;
    const notUtf8: string[] = [];
    const toCheck: (RewriteToCheck & { relativePath: string })[] = [];
    for (const file of outcome.files) {
      if (file.notUtf8) {
        notUtf8.push(file.relativePath);
        continue;
      }
      const rewrite = rewriteFile(file.text, file.matches, input.rewrite, {
        keepTrailingSemicolon: pattern.keepsSemicolon,
        codeNames: pattern.codeNames,
      });
      nested += rewrite.nestedSkipped;
      for (const match of rewrite.leftUnchanged)
        leftUnchanged.push({ relativePath: file.relativePath, match });
      if (rewrite.newText === file.text) continue;
      replacements += rewrite.replacements.length;
      files.push({
        path: file.path,
        relativePath: file.relativePath,
        originalHash: file.hash,
        newText: rewrite.newText,
        replacements: rewrite.replacements.length,
      });
      toCheck.push({
        path: file.path,
        relativePath: file.relativePath,
        hash: file.hash,
        originalText: file.text,
        newText: rewrite.newText,
        spans: rewrite.replacements.map(({ start, end, text }) => ({ start, end, length: text.length })),
      });
      const preview = diffPreview(file.relativePath, file.text, rewrite.replacements, {
        maxLines: Math.max(budget, 0),
        maxChars: Math.max(charBudget - 1, 0),
      });
      if (preview.lines > 0) previews.push(preview.text);
      budget -= preview.lines;
      charBudget -= preview.chars + 1;
      omittedLines += preview.omitted;
    }
    const skippedNote =
      notUtf8.length > 0
        ? `skipped ${plural(notUtf8.length, "matching file")} that ${notUtf8.length === 1 ? "is" : "are"} not valid UTF-8 (rewriting would re-encode ${notUtf8.length === 1 ? "it" : "them"}): ${notUtf8.slice(0, listedNotUtf8).join(", ")}${notUtf8.length > listedNotUtf8 ? ", …" : ""}`
        : undefined;
    const leftNote =
      leftUnchanged.length > 0
        ? leftUnchangedNote(leftUnchanged, clauseHint(pattern.source, scope.spec.id))
        : undefined;
    if (files.length === 0) {
      if (skippedNote || leftNote)
        return `nothing staged: ${[skippedNote, leftNote].filter(Boolean).join("; ")}`;
      return `nothing staged: the rewrite leaves all ${plural(outcome.files.length, "matching file")} unchanged`;
    }
    // Warned, not refused: the agent sees where and decides (tree-sitter may misread valid code,
    // and a change made in steps may pass through code that does not parse).
    let checkNote: string | undefined;
    try {
      const checks = await checkRewrites(parser, scope.spec, toCheck, context.signal);
      const sitesOf = new Map(checks.map((check) => [check.path, check.sites]));
      checkNote = brokenNote(
        toCheck
          .map((file) => ({
            relativePath: file.relativePath,
            text: file.newText,
            spans: file.spans,
            sites: sitesOf.get(file.path) ?? [],
          }))
          .filter((file) => file.sites.length > 0),
      );
    } catch (error) {
      context.signal?.throwIfAborted();
      checkNote = `The staged text was not checked for syntax errors (${error instanceof Error ? error.message : String(error)}).`;
    }
    const ledger = context.run.state(stagedEditsKey);
    const id = `edit_${ledger.next++}`;
    ledger.pending.set(id, { id, pattern: pattern.source, rewrite: input.rewrite, files });
    const lines = [
      `(proposed) ${plural(replacements, "replacement")} in ${plural(files.length, "file")} (${searchedLine(outcome, scope)}) — nothing written yet; call resolve with edit_id "${id}" and action "accept" or "discard".`,
    ];
    if (checkNote) lines.push(checkNote);
    if (skippedNote) lines.push(`${skippedNote.charAt(0).toUpperCase()}${skippedNote.slice(1)}.`);
    const deep = tooDeepNote(outcome);
    if (deep) lines.push(deep);
    if (leftNote) lines.push(leftNote);
    if (nested > 0)
      lines.push(
        `${nested} nested ${nested === 1 ? "match" : "matches"} inside a replaced match skipped; run ast_edit again after accepting to reach them.`,
      );
    lines.push("", ...previews);
    if (omittedLines > 0)
      lines.push(
        `… ${omittedLines} more diff lines not shown (the preview stops at ${previewLines} lines or ${previewChars} characters; the staged edit is whole)`,
      );
    return lines.join("\n");
  },
});
