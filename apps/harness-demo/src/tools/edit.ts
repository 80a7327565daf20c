import {
  countNoun,
  defineTool,
  readRegularFile,
  textResult,
  ToolsError,
  warningNotes,
  type ToolResult,
} from "@tools/registry";
import { z } from "zod";
import { writeFileAtomic } from "../internal/atomic-write.js";
import { looksBinary } from "../internal/binary-content.js";
import { displayPath } from "../internal/display-path.js";
import { readFailure, writeFailure } from "../internal/file-system-error.js";
import { refuseFolderPath, refuseTildePath } from "../internal/folder-path.js";
import { withFileLocks } from "../internal/file-locks.js";
import { lineNumbersAt, listLineNumbers } from "../internal/line-numbers.js";
import { closestLine, closestLineBounds } from "../internal/similar-line.js";
import { decodeUtf8ForWrite } from "../internal/utf8-text.js";

const input = z.object({
  path: z.string().describe("File to change, relative to the working directory."),
  old_string: z.string().describe("Exact text to replace, whitespace included; must occur exactly once."),
  new_string: z.string().describe("Text to put in its place."),
  replace_all: z
    .boolean()
    .optional()
    .describe("Replace every occurrence instead of exactly one; default false."),
});

/**
 * `edit` (write tier): replaces one exact occurrence of a string in a file (or all of them with
 * `replace_all`), atomically. A missing or ambiguous `old_string` is an error that says where to
 * look.
 */
export const editTool = defineTool({
  name: "edit",
  tier: "write",
  parallelSafe: true,
  description:
    "Replace an exact string in a file. old_string must occur exactly once (include surrounding lines " +
    "to make it unique) unless replace_all is true. " +
    'Example: {"path": "src/a.ts", "old_string": "const retries = 3;", "new_string": "const retries = 5;"}',
  input,
  paths: (args) => [args.path],
  summarize: (args) => `edit ${args.path}${args.replace_all ? " (all occurrences)" : ""}`,
  async execute(args, ctx) {
    refuseFolderPath(args.path, ", and edit changes files");
    refuseTildePath(args.path);
    const absolute = ctx.resolvePath(args.path);
    const shown = displayPath(ctx.run.workingDirectory, absolute);
    if (args.old_string === "") {
      throw new ToolsError({
        code: "EMPTY_OLD_STRING",
        message: "old_string is empty; to create or replace a whole file use write",
      });
    }
    if (args.old_string === args.new_string) {
      throw new ToolsError({
        code: "NO_CHANGE",
        message: "old_string and new_string are the same; nothing to change",
      });
    }
    const workingDirectory = ctx.run.workingDirectory;
    return withFileLocks(ctx.run, [absolute], () => replaceInFile(absolute, shown, workingDirectory, args));
  },
});

async function replaceInFile(
  absolute: string,
  shown: string,
  workingDirectory: string,
  args: { old_string: string; new_string: string; replace_all?: boolean | undefined },
): Promise<ToolResult> {
  const bytes = await readRegularFile(absolute).catch(async (error: unknown) => {
    throw await readFailure(error, absolute, workingDirectory, "edit");
  });
  if (looksBinary(bytes)) {
    throw new ToolsError({
      code: "BINARY_FILE",
      message: `${shown} is a binary file; edit changes text files only`,
    });
  }
  // Written back whole: a Latin-1 byte on a line the edit never touches would become U+FFFD.
  const text = decodeUtf8ForWrite(bytes, shown, "edit");
  let oldString = args.old_string;
  let positions = occurrences(text, oldString);
  // The model writes `\n` whatever the file uses: match in the file's line ends when the text as
  // given is not there, and always insert new text in the file's own style, never a mix.
  for (const eol of ["\r\n", "\n"] as const) {
    if (positions.length > 0) break;
    const converted = withLineEnds(args.old_string, eol);
    if (converted === args.old_string || !text.includes(eol)) continue;
    oldString = converted;
    positions = occurrences(text, oldString);
  }
  const fileEol = lineEnding(text);
  const newString = fileEol === undefined ? args.new_string : withLineEnds(args.new_string, fileEol);
  if (positions.length === 0) throw notFound(shown, text, args.old_string);
  // One pass for every line number: a search per match was quadratic (minutes on 80 000 matches).
  // Each line once: two occurrences on line 3 are "line 3", not "lines 3, 3".
  const lineNumbers = [...new Set(lineNumbersAt(text, positions))];
  const lines = `${countNoun(lineNumbers.length, "lines")} ${listLineNumbers(lineNumbers)}`;
  if (positions.length > 1 && !args.replace_all) {
    throw new ToolsError({
      code: "AMBIGUOUS_OLD_STRING",
      message: `old_string occurs ${positions.length} times in ${shown} (${lines}); include more surrounding lines to make it unique, or pass replace_all: true`,
    });
  }
  const updated = args.replace_all
    ? text.split(oldString).join(newString)
    : text.slice(0, positions[0]) + newString + text.slice((positions[0] as number) + oldString.length);
  // Checked against the bytes read: a shell command or another alias of the file that saved it
  // since is reported, not overwritten.
  const warnings = await writeFileAtomic(absolute, updated, {
    expected: bytes,
    shown,
    workspace: workingDirectory,
  }).catch(async (error: unknown) => {
    throw error instanceof ToolsError ? error : await writeFailure(error, absolute, workingDirectory);
  });
  const count = args.replace_all ? positions.length : 1;
  return textResult(
    `edited ${shown}: ${count} ${countNoun(count, "replacements")} (${lines})${warningNotes(warnings)}`,
    { changedFiles: [absolute] },
  );
}

/** The file's line end: the more frequent of CRLF and LF, or undefined for text without one. */
function lineEnding(text: string): "\r\n" | "\n" | undefined {
  let crlf = 0;
  let lf = 0;
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) {
    if (index > 0 && text[index - 1] === "\r") crlf++;
    else lf++;
  }
  if (crlf === 0 && lf === 0) return undefined;
  return crlf > lf ? "\r\n" : "\n";
}

function withLineEnds(text: string, eol: "\r\n" | "\n"): string {
  return text.replace(/\r?\n/g, eol);
}

function occurrences(text: string, needle: string): number[] {
  const found: number[] = [];
  for (let index = text.indexOf(needle); index !== -1; index = text.indexOf(needle, index + needle.length)) {
    found.push(index);
  }
  return found;
}

function notFound(shown: string, text: string, oldString: string): ToolsError {
  const lines = text.split(/\r?\n/);
  const firstWanted = oldString.split(/\r?\n/).find((line) => line.trim() !== "") ?? oldString;
  const exactLine = lines.findIndex((line) => line.trim() === firstWanted.trim());
  let hint: string;
  if (exactLine !== -1) {
    hint = `its first line appears at line ${exactLine + 1} ("${lines[exactLine]?.trim()}"), but the rest differs (check indentation and the following lines; read the file around there)`;
  } else {
    const near = closestLine(lines, firstWanted);
    // The search for a similar line is bounded: past the bound, "no line is similar" is not known.
    const partly = lines.length > closestLineBounds.maxLines || text.length > closestLineBounds.maxChars;
    hint = near
      ? `the closest line is ${near.line}: "${near.text.trim()}"`
      : partly
        ? `no similar line in the part of the file looked at (the first ${closestLineBounds.maxLines} lines, at most ${closestLineBounds.maxChars} characters); grep for a distinctive part of old_string to find where it is`
        : "no line is similar; read the file to see its current content";
  }
  return new ToolsError({
    code: "OLD_STRING_NOT_FOUND",
    message: `old_string was not found in ${shown}; ${hint}. old_string must match exactly, whitespace included.`,
  });
}
