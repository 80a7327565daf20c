import { LspError } from "../errors/lsp-error.js";
import { settleDiskEvents } from "../files/disk-events.js";
import type { LanguageClient } from "../client/language-client.js";
import { resolvePosition, type ResolvedPosition } from "../positions/resolve-position.js";
import type { ActionContext, ActionInput } from "./action-context.js";
import { sharedCodeOnlyLines } from "./code-only.js";

/** A document opened on its server with the position the model addressed. */
export interface AddressedSymbol {
  readonly client: LanguageClient;
  readonly uri: string;
  readonly file: string;
  readonly text: string;
  /** The file's lines, as resolved against. */
  readonly lines: readonly string[];
  readonly position: ResolvedPosition;
  /**
   * Line `index` (0-based) of `lines` with its comments and strings blanked, columns kept, read
   * in order from the file's start (`codeOnlyLines`: a docstring's middle line is no code), on
   * first call only, and kept with the file's text (`sharedCodeOnlyLines`).
   */
  readonly code: (index: number) => string;
  /** Other documents open on the server that were sent again (changed on disk since their last sync). */
  readonly resynced: readonly string[];
}

/**
 * Checks `file`, `line` and `symbol` (all required for navigation), opens the file on its server
 * and resolves the position. A missing symbol is an error, never a guess at column 1.
 */
export async function addressSymbol(input: ActionInput, context: ActionContext): Promise<AddressedSymbol> {
  const missing = (["file", "line", "symbol"] as const).filter((name) => input[name] === undefined);
  if (missing.length > 0) {
    throw new LspError({
      code: "LSP_BAD_ARGUMENTS",
      message: `action "${input.action}" needs file, line and symbol; missing ${missing.join(", ")}. symbol is a substring of that line naming what you ask about, e.g. {"action":"${input.action}","file":"src/app.ts","line":12,"symbol":"parseConfig"}`,
    });
  }
  const file = context.resolvePath(input.file!);
  const { bound } = context;
  if (bound) {
    // The call's bound runs once its server is up (a start has its own bound).
    const started = await context.supervisor.clientFor(file, context.progress);
    // One that answered nothing since its start may still be loading its project: its first
    // call waits on it step by step, each on its own bound, as its start does.
    if (started.hasAnswered()) bound.start();
    const asked = context.supervisor.uriOf(file);
    const probe = started.probes.settled(asked);
    if (probe) {
      bound.waiting(renameCheckStep(context, started, [asked]));
      await probe;
    }
    bound.waiting(`to send ${context.supervisor.display(file)} to ${started.spec.command}`);
  }
  const { client, uri, text, lines } = await context.supervisor.open(file, false, context.progress);
  // The kernel's events of a write just before (a harness running a write tool and this call in
  // one batch: no turn of the event loop between them) are read first; otherwise a file not open
  // here was answered from its old text (a definition pointed two lines up, at a comment).
  await settleDiskEvents();
  const heldElsewhere = bound ? client.probes.held().filter((other) => other !== uri) : [];
  bound?.waiting(
    heldElsewhere.length > 0
      ? `${renameCheckStep(context, client, heldElsewhere)}, then to send the files changed on disk to ${client.spec.command}`
      : `to send the files changed on disk to ${client.spec.command}`,
  );
  const resynced = await context.supervisor.resyncOpen(client, uri);
  const split = lines();
  // A line number slightly off lands on the nearby line where the name is code, not on a
  // comment mentioning it (where the server finds nothing, and a rename is refused). Lines are
  // classified only when asked (the asked line's one occurrence needs none), scanned once per text.
  const code = sharedCodeOnlyLines(split, client.spec.language);
  const position = resolvePosition(split, input.line!, input.symbol!, context.supervisor.display(file), {
    codeOf: (_line, index) => code(index),
  });
  return { client, uri, file, text, lines: split, position, code, resynced };
}

/**
 * The step of a call waiting for a rename's clash check to set `uris` back to the disk's text
 * (see `ProbedDocuments`): said when the call's bound is reached meanwhile.
 */
function renameCheckStep(context: ActionContext, client: LanguageClient, uris: readonly string[]): string {
  const files = uris.map((uri) => context.supervisor.display(context.supervisor.pathOf(uri)));
  const named =
    files.length > 3 ? `${files.slice(0, 3).join(", ")} and ${files.length - 3} more` : files.join(", ");
  return `for lsp_rename's clash check to end (it has the renamed text of ${named} on ${client.spec.command} in memory, set back to the disk's text when it ends)`;
}
