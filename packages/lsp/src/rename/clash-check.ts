import { ledgerMessage } from "../diagnostics/ledger-message.js";
import { extname } from "node:path";
import type {
  Diagnostic,
  Location,
  LocationLink,
  Position,
  WorkspaceEdit,
} from "vscode-languageserver-protocol";
import { nothingHere } from "../actions/ask-nearby.js";
import type { LanguageClient } from "../client/language-client.js";
import { codeText, formatDiagnostic, messageText } from "../format/diagnostics.js";
import { someOf } from "../format/some-of.js";
import { answerLocations } from "../positions/answer-locations.js";
import { wholeName } from "../positions/identifier-chars.js";
import { languageIdFor } from "../servers/server-table.js";
import type { FileTexts } from "../files/file-texts.js";
import type { LspSupervisor } from "../supervisor/supervisor.js";
import type { PlannedEdit } from "./apply-workspace-edit.js";
import { EditedText, textEditsByUri } from "./edited-text.js";

/** Longest the check in memory takes as a whole (the server's answers and diagnostics), in ms. */
export const clashCheckMs = 8_000;

/** Most uses the references from the renamed symbol did not list that are looked up one by one. */
const missingLooked = 10;

/** Most clashes named in a refusal. */
const clashesShown = 6;

/** What the rename is and where it was asked. */
export interface ClashQuestion {
  readonly client: LanguageClient;
  readonly supervisor: LspSupervisor;
  readonly edit: WorkspaceEdit;
  readonly planned: PlannedEdit;
  /** The renamed symbol, where the rename was asked (before the edit). */
  readonly uri: string;
  readonly at: Position;
  readonly oldName: string;
  readonly newName: string;
  /**
   * The errors and warnings of each file the edit touches just before it (see
   * `readPreEditDiagnostics`); a file missing could not be read, and its errors are not compared.
   */
  readonly before: ReadonlyMap<string, readonly Diagnostic[]>;
  /**
   * Also read the errors the edit brings into the files it does not touch, as the server
   * publishes them (`spec.publishesWorkspace`: gopls): a method renamed alone, tied to others
   * through an interface, makes a type that another package uses as that interface no longer
   * implement it, an error only that package shows.
   */
  readonly elsewhere?: boolean;
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

/** What {@link checkClashes} found: each clash as a line, and what it could not check. */
export interface ClashCheck {
  readonly clashes: readonly string[];
  readonly unchecked: readonly string[];
  /**
   * With {@link ClashQuestion.elsewhere}: the errors the edit brings into files it does not
   * touch that name the old or the new name, each as `path:line:col error … — the line: …`.
   */
  readonly elsewhere: readonly string[];
}

/** One file of the edit as the check sends it. */
interface Checked {
  readonly path: string;
  readonly uri: string;
  readonly languageId: string;
  readonly text: EditedText;
}

/**
 * Checks a rename's edit on its server in memory, before anything is written: the edited texts
 * are sent (didChange, not saved), then
 *
 * - the references of the renamed symbol at its new name are asked: a location no edit wrote is
 *   a use of another symbol of the new name that would now mean the renamed one (`const max`
 *   renamed `limit` inside a function using an outer `limit`); an edit site the references do
 *   not list is looked up by definition: one landing on text no edit wrote now means an
 *   existing symbol of the new name (the other way round);
 * - the errors of the edited files are compared with theirs before (by code and message, the old
 *   name read as the new one; not by position): a new one is a clash the server's compiler sees
 *   (a redeclaration, a function declared in an included header with other types).
 *
 * The server's documents are always set back to the text before (the disk's) before it returns,
 * whatever happened. Bounded by `timeoutMs` in all; what could not be checked in time (or at
 * all: an edit moving files) is in `unchecked`, never left out silently.
 */
export async function checkClashes(question: ClashQuestion): Promise<ClashCheck> {
  const { client, supervisor } = question;
  const deadline = Date.now() + (question.timeoutMs ?? clashCheckMs);
  const left = (): number => Math.max(0, deadline - Date.now());
  const byUri = textEditsByUri(question.edit);
  if (!byUri) return { clashes: [], unchecked: ["the edit creates, moves or deletes files"], elsewhere: [] };
  const unchecked: string[] = [];
  const files = new Map<string, Checked>();
  for (const [uri, edits] of byUri) {
    if (!uri.startsWith("file:")) continue;
    const path = supervisor.pathOf(uri);
    const planned = question.planned.texts.get(path);
    if (!planned) continue;
    const text = new EditedText(planned.before, edits);
    if (text.after !== planned.after)
      return { clashes: [], unchecked: ["the edit's text could not be followed"], elsewhere: [] };
    files.set(path, {
      path,
      uri: supervisor.uriOf(path),
      languageId: languageIdFor(client.spec, extname(path)),
      text,
    });
  }
  // Each file must be open on this server with its text before: opened by the look at the
  // diagnostics before; one that is not (its server is another) is not sent.
  const sent = [...files.values()].filter((file) => client.isSynced(file.uri, file.text.before));
  const notSent = [...files.values()].filter((file) => !sent.includes(file));
  if (notSent.length > 0)
    unchecked.push(
      `${someOf(
        notSent.map((file) => supervisor.display(file.path)),
        3,
      )} not open on the server`,
    );
  const clashes: string[] = [];
  const elsewhere: string[] = [];
  let captured: Capture[] = [];
  const others = question.elsewhere ? await publishesBefore(client, deadline, unchecked) : undefined;
  // Other calls reaching these documents wait until they are set back (bounded: the check's
  // time left, and as long again for setting them back).
  const endProbe = client.probes.begin(
    sent.map((file) => file.uri),
    2 * left(),
  );
  try {
    await Promise.all(sent.map((file) => client.sync(file.uri, file.languageId, file.text.after, false)));
    const [found, errors, outside] = await Promise.all([
      findCaptures(question, files, left, unchecked),
      newErrors(question, sent, left, unchecked),
      others ? errorsElsewhere(question, new Set(files.keys()), others, left, unchecked) : [],
    ]);
    captured = found;
    elsewhere.push(...outside);
    // A file of the edit this server was not sent (another root's: a package a TypeScript
    // project references) still exports the old name here: the import of the new one fails in
    // the probe only. Written, both sides change.
    const unsent =
      notSent.length > 0 ? errors.filter((error) => importsMissingName(error, question.newName)) : [];
    if (unsent.length > 0)
      unchecked.push(
        `${unsent.length === 1 ? "an error" : `${unsent.length} errors`} saying ${someOf(
          notSent.map((file) => supervisor.display(file.path)),
          3,
        )} export${notSent.length === 1 ? "s" : ""} no '${question.newName}' not counted (its edit was not shown to this server)`,
      );
    clashes.push(...errors.filter((error) => !unsent.includes(error)));
    // Another call (a read's re-sync, another write's check) may have sent a file's disk text
    // while the probe ran: what was asked about it then was not about the edit.
    const overtaken = sent.filter((file) => !client.isSynced(file.uri, file.text.after));
    if (overtaken.length > 0)
      unchecked.push(
        `${someOf(
          overtaken.map((file) => supervisor.display(file.path)),
          3,
        )} were sent again by another call during the check`,
      );
  } finally {
    // Never left with text that is not on disk, whatever failed above (a later call would
    // re-sync it from the disk anyway, but answers until then would be about the probe).
    await Promise.all(
      sent.map(async (file) => {
        // The write's re-sync sends the probe's text again, which clangd may have built last
        // and would then not build again: the document's sync asks for the build (see
        // ServerSpec.rebuild), so no close and reopen here (a close right after the changes
        // can hang clangd 14).
        // The disk's text as it is now (another write may have changed it meanwhile; the
        // rename's own write then refuses to overwrite it).
        const disk = supervisor.texts.tryRead(file.path)?.text ?? file.text.before;
        await client.sync(file.uri, file.languageId, disk, false).catch(() => undefined);
      }),
    ).finally(endProbe);
  }
  const shown = await Promise.all(captured.map((capture) => describeCapture(question, files, capture, left)));
  return { clashes: [...shown, ...clashes], unchecked, elsewhere };
}

/** The publishes of a server's documents before a probe (see {@link publishesBefore}). */
interface PublishesBefore {
  /** The publish mark then: a later publish is the probe's. */
  readonly mark: number;
  readonly byUri: ReadonlyMap<string, readonly Diagnostic[]>;
}

/**
 * The diagnostics the server last published for each document, once the passes of the changes
 * sent before have ended (a pass still running would publish after the mark as if for the probe);
 * undefined, said in `unchecked`, when the server does not publish for files not open, or is still
 * checking by `deadline` (gopls's first check of the workspace: a file it did not publish for yet
 * is not known to be clean).
 */
async function publishesBefore(
  client: LanguageClient,
  deadline: number,
  unchecked: string[],
): Promise<PublishesBefore | undefined> {
  const what = "the files the edit does not touch were not checked";
  if (!client.spec.publishesWorkspace) {
    unchecked.push(`${client.spec.command} publishes no diagnostics of files not open: ${what}`);
    return undefined;
  }
  const settled = await client.awaitWorkDone(deadline);
  const mark = client.publishMark();
  if (!settled || mark === undefined) {
    unchecked.push(`${client.spec.command} was still checking the workspace: ${what}`);
    return undefined;
  }
  return {
    mark,
    byUri: new Map(client.latestPublishes().map((publish) => [publish.uri, publish.diagnostics])),
  };
}

/**
 * The errors the probe brought into files the edit does not touch (`edited`): those of a
 * publish after `before`'s mark that the file's publish before did not have (by code and
 * message, as printed or with the old name read as the new one, each earlier one answering for
 * one), naming the old or the new name. Read once every pass of the probe's changes ended.
 */
async function errorsElsewhere(
  question: ClashQuestion,
  edited: ReadonlySet<string>,
  before: PublishesBefore,
  left: () => number,
  unchecked: string[],
): Promise<string[]> {
  const { client, supervisor } = question;
  if (!(await client.awaitWorkDone(Date.now() + left()))) {
    unchecked.push(
      "the diagnostics the edit brings into the files it does not touch did not come within the check's bound",
    );
    return [];
  }
  const oldName = wholeName(question.oldName);
  const global = new RegExp(oldName.source, "gu");
  const newName = wholeName(question.newName);
  const found: Array<{ path: string; line: number; text: string }> = [];
  for (const publish of client.latestPublishes()) {
    if (publish.mark <= before.mark || !publish.uri.startsWith("file:")) continue;
    const path = supervisor.pathOf(publish.uri);
    if (edited.has(path)) continue;
    // An error there before, as printed or naming the renamed symbol by its new name (a type
    // already missing the interface method renamed is now missing it under the new name), is no
    // new one. Each error before answers for one after.
    const earlier = (before.byUri.get(publish.uri) ?? []).filter(isError).map((diagnostic) => ({
      asPrinted: keyOf(diagnostic, (message) => message),
      renamed: keyOf(diagnostic, (message) => message.replace(global, () => question.newName)),
    }));
    for (const diagnostic of publish.diagnostics.filter(isError)) {
      const key = keyOf(diagnostic, (message) => message);
      const same = earlier.findIndex((entry) => entry.asPrinted === key || entry.renamed === key);
      if (same >= 0) {
        earlier.splice(same, 1);
        continue;
      }
      const message = messageText(diagnostic);
      if (!oldName.test(message) && !newName.test(message)) continue;
      const shown = formatDiagnostic(supervisor.display(path), diagnostic, supervisor.workingDirectory);
      const line = lineOnDisk(supervisor.texts, path, diagnostic.range.start.line).trim();
      found.push({ path, line: diagnostic.range.start.line, text: `${shown} — the line: ${line}` });
    }
  }
  found.sort((a, b) => a.path.localeCompare(b.path) || a.line - b.line);
  return found.map((error) => error.text);
}

/**
 * Whether a clash line is the import of `newName` from a module that does not export it
 * (TypeScript's 2305 "has no exported member 'x'", 2724 "… no exported member named 'x'").
 */
export function importsMissingName(clash: string, newName: string): boolean {
  return /has no exported member/.test(clash) && clash.includes(`'${newName}'`);
}

/**
 * The refusal's text: each clash on its line (at most {@link clashesShown}), and what to do.
 */
export function clashMessage(oldName: string, newName: string, clashes: readonly string[]): string {
  const listed = clashes.slice(0, clashesShown).map((clash) => `- ${clash}`);
  if (clashes.length > clashesShown) listed.push(`- … and ${clashes.length - clashesShown} more`);
  return [
    `renaming '${oldName}' to '${newName}' would clash with a name already declared or visible where it is used (checked on the server in memory; nothing was written):`,
    ...listed,
    `Pick another name, one not declared in or visible from those places, and call lsp_rename again.`,
  ].join("\n");
}

/** A text position no edit wrote that the check found tied to the other side. */
interface Capture {
  /** `other`: an existing use of the new name the renamed symbol took over; `renamed`: a use of the renamed symbol an existing one took over. */
  readonly kind: "other" | "renamed";
  /** Where (before the edit) the use is. */
  readonly path: string;
  readonly position: Position;
  /** For `renamed`: the declaration (before the edit) it would mean. */
  readonly declaration?: { path: string; position: Position };
}

async function findCaptures(
  question: ClashQuestion,
  files: ReadonlyMap<string, Checked>,
  left: () => number,
  unchecked: string[],
): Promise<Capture[]> {
  const { client, supervisor, newName } = question;
  const renamed = files.get(supervisor.pathOf(question.uri));
  const index = renamed?.text.editAt(question.at) ?? -1;
  if (!renamed || index < 0) {
    unchecked.push("the renamed symbol's new position was not found");
    return [];
  }
  const references = await client
    .request<Location[] | null>(
      "textDocument/references",
      {
        textDocument: { uri: renamed.uri },
        position: renamed.text.nameIn(index, newName),
        context: { includeDeclaration: true },
      },
      left(),
      question.signal,
    )
    .catch(() => undefined);
  if (references === undefined) {
    unchecked.push(`the references of '${newName}' did not come within the check's bound`);
    return [];
  }
  const captures: Capture[] = [];
  const hit = new Set<string>();
  for (const location of references ?? []) {
    if (!location.uri.startsWith("file:")) continue;
    const path = supervisor.pathOf(location.uri);
    const file = files.get(path);
    const at = location.range.start;
    const edit = file ? file.text.editOf(at) : -1;
    if (edit >= 0) {
      hit.add(`${path}#${edit}`);
      continue;
    }
    // Text no edit wrote, reading the new name: a use of the other symbol, now this one.
    if (file ? file.text.reads(at, newName) : readsOnDisk(supervisor.texts, path, at, newName))
      captures.push({ kind: "other", path, position: file ? file.text.toBefore(at) : at });
  }
  const missing = [...files.values()].flatMap((file) =>
    Array.from({ length: file.text.edits }, (_, edit) => ({ file, edit })).filter(
      ({ edit }) => !hit.has(`${file.path}#${edit}`),
    ),
  );
  if (missing.length > missingLooked)
    unchecked.push(
      `${missing.length - missingLooked} of the renamed uses the server's references did not list were not looked up`,
    );
  const looked = await Promise.all(
    missing.slice(0, missingLooked).map(async ({ file, edit }) => {
      const definition = await client
        .request<Location | Location[] | LocationLink[] | null>(
          "textDocument/definition",
          { textDocument: { uri: file.uri }, position: file.text.nameIn(edit, newName) },
          left(),
          question.signal,
        )
        // The server saying nothing is there (gopls, at a doc comment it renamed: "no
        // identifier found") means no symbol; any other failure (no answer, a cancel, the
        // content modified, an internal error) leaves the use unchecked.
        .catch((error: unknown) => (nothingHere(error) ? null : undefined));
      return { file, edit, definition };
    }),
  );
  if (looked.some(({ definition }) => definition === undefined))
    unchecked.push("some renamed uses were not looked up within the check's bound");
  for (const { file, edit, definition } of looked) {
    const target = answerLocations(definition)[0];
    if (!target || !target.uri.startsWith("file:")) continue;
    const path = supervisor.pathOf(target.uri);
    const targetFile = files.get(path);
    if (targetFile && targetFile.text.editOf(target.range.start) >= 0) continue;
    // Resolved to text no edit wrote: an existing symbol of the new name.
    if (
      targetFile
        ? !targetFile.text.reads(target.range.start, newName)
        : !readsOnDisk(supervisor.texts, path, target.range.start, newName)
    )
      continue;
    captures.push({
      kind: "renamed",
      path: file.path,
      position: file.text.editStart(edit),
      declaration: {
        path,
        position: targetFile ? targetFile.text.toBefore(target.range.start) : target.range.start,
      },
    });
  }
  return captures;
}

/** The errors the edit brings into the files sent, each as a clash line. */
async function newErrors(
  question: ClashQuestion,
  sent: readonly Checked[],
  left: () => number,
  unchecked: string[],
): Promise<string[]> {
  const { client, supervisor } = question;
  const name = wholeName(question.oldName);
  const global = new RegExp(name.source, "gu");
  const newName = wholeName(question.newName);
  // One note per kind, however many files (a rename across hundreds of files meets the bound).
  const unread: string[] = [];
  const late: string[] = [];
  const unrelated: string[] = [];
  // A server that diagnoses pass by pass (gopls: one per change sent) publishes a file's new
  // version from the pass of its own change, which may not have had the next file's yet: main.go
  // using `shapes.Box` before shapes.go declares it, an "undeclared" error the probe's order
  // made. With more than one file sent, their diagnostics are read once every change's pass
  // ended (at once for a server that does not report them).
  const settled = sent.length < 2 || (await client.awaitWorkDone(Date.now() + left()));
  const lines = await Promise.all(
    sent.map(async (file) => {
      const before = question.before.get(file.path);
      if (!before) {
        unread.push(supervisor.display(file.path));
        return [];
      }
      const after = settled
        ? await client.freshDiagnostics(file.uri, left()).catch(() => undefined)
        : undefined;
      if (!after?.fresh) {
        late.push(supervisor.display(file.path));
        return [];
      }
      // The same error before and after is no new one: its message as printed (about another
      // symbol of the old name, which the rename left alone) or naming the renamed symbol by
      // its new name. Each error before answers for one after.
      const earlier = before.filter(isError).map((diagnostic) => ({
        asPrinted: keyOf(diagnostic, (message) => message),
        renamed: keyOf(diagnostic, (message) => message.replace(global, () => question.newName)),
      }));
      return after.diagnostics.filter(isError).flatMap((diagnostic) => {
        const key = keyOf(diagnostic, (message) => message);
        const same = earlier.findIndex((entry) => entry.asPrinted === key || entry.renamed === key);
        if (same >= 0) {
          earlier.splice(same, 1);
          return [];
        }
        const shown = formatDiagnostic(
          supervisor.display(file.path),
          diagnostic,
          supervisor.workingDirectory,
        );
        // Neither at an edited place (its range, in the text after, meeting an edit's: a call or
        // a statement flagged as a whole holds one) nor naming the old or the new name: an error
        // elsewhere whose wording the rename changed (TypeScript's "Cannot find name 'totl'. Did
        // you mean 'total'?" loses its suggestion when 'total' is renamed), not a clash.
        const message = messageText(diagnostic);
        if (file.text.editIn(diagnostic.range) < 0 && !name.test(message) && !newName.test(message)) {
          unrelated.push(shown);
          return [];
        }
        const line = file.text.lineText(diagnostic.range.start.line, true).trim();
        return [`${shown} — the line would read: ${line}`];
      });
    }),
  );
  if (unread.length > 0)
    unchecked.push(`the diagnostics before the edit of ${someOf(unread, 3)} could not be read`);
  if (late.length > 0)
    unchecked.push(
      `the diagnostics with the edit of ${someOf(late, 3)} did not come within the check's bound`,
    );
  if (unrelated.length > 0)
    unchecked.push(
      `${unrelated.length === 1 ? "a new error" : `${unrelated.length} new errors`} naming neither '${question.oldName}' nor '${question.newName}', away from the edited places, ${unrelated.length === 1 ? "was" : "were"} not counted as a clash (${someOf(unrelated, 2)})`,
    );
  return lines.flat();
}

async function describeCapture(
  question: ClashQuestion,
  files: ReadonlyMap<string, Checked>,
  capture: Capture,
  left: () => number,
): Promise<string> {
  const { client, supervisor, oldName, newName } = question;
  const where = (path: string, position: Position): string => {
    const line =
      files.get(path)?.text.lineText(position.line) ?? lineOnDisk(supervisor.texts, path, position.line);
    return `${supervisor.display(path)}:${position.line + 1}:${position.character + 1} (${line.trim()})`;
  };
  if (capture.kind === "renamed") {
    const declaration = capture.declaration!;
    return `${where(capture.path, capture.position)}: this use of '${oldName}' would mean the '${newName}' declared at ${where(declaration.path, declaration.position)} instead`;
  }
  // Asked of the text before (the server's documents are back to it): which symbol it is now.
  const definition = await client
    .request<Location | Location[] | LocationLink[] | null>(
      "textDocument/definition",
      { textDocument: { uri: supervisor.uriOf(capture.path) }, position: capture.position },
      Math.max(left(), 2_000),
      question.signal,
    )
    .catch(() => undefined);
  const target = answerLocations(definition)[0];
  if (!target || !target.uri.startsWith("file:"))
    return `${where(capture.path, capture.position)}: this '${newName}' is an existing one, and would mean the renamed '${oldName}' instead`;
  const path = supervisor.pathOf(target.uri);
  const start = target.range.start;
  if (
    path === capture.path &&
    start.line === capture.position.line &&
    start.character === capture.position.character
  )
    return `${where(capture.path, capture.position)}: '${newName}' is declared here already, and the server would take it for the renamed '${oldName}'`;
  return `${where(capture.path, capture.position)}: this '${newName}' means the one declared at ${where(path, start)}, and would mean the renamed '${oldName}' instead`;
}

function isError(diagnostic: Diagnostic): boolean {
  return (diagnostic.severity ?? 1) === 1;
}

/** An error's key as the ledger has it (pyright's varying inferred types left out), its message mapped. */
function keyOf(diagnostic: Diagnostic, message: (text: string) => string): string {
  return `${codeText(diagnostic)}\u0000${message(ledgerMessage(diagnostic))}`;
}

/** A line of a file the edit does not touch, through the run's text cache ("" when unreadable). */
function lineOnDisk(texts: FileTexts, path: string, line: number): string {
  return texts.tryRead(path)?.lines()[line] ?? "";
}

function readsOnDisk(texts: FileTexts, path: string, at: Position, name: string): boolean {
  return lineOnDisk(texts, path, at.line).startsWith(name, at.character);
}
