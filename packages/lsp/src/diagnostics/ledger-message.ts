import type { Diagnostic } from "vscode-languageserver-protocol";
import { messageText } from "../format/diagnostics.js";

/**
 * What tells that a double-quoted part of a pyright message is a partly inferred type, not a
 * name: it holds `Unknown` (`"Unknown | Literal[0] | None"`, `"list[Unknown]"`). Names (`"foo"`),
 * modules and declared types (`"int"`, `"str"`, a declared union `"A | B"` or `"int | None"`:
 * `"int | None"` and `"str | None"` are different errors) do not.
 */
const inferredType = /\bUnknown\b/;

/**
 * The message as the ledger keys it. Pyright (and its forks, by `source`) prints inferred types
 * into its messages, and what it infers for the same code varies between analyses (the order in
 * which it reads files, an import resolved later): `Type "Unknown | Literal[0]"` at one check is
 * `Type "Unknown | Literal[0] | None"` at the next, with nothing changed. Keyed as printed, such
 * an unchanged error reads as gone plus new. So, for pyright only, each double-quoted part that
 * holds `Unknown` is keyed as `"…"`: the rest of the message (its
 * wording, the names and declared types it quotes) still tells errors apart, and two errors
 * whose messages differ only in such types count as two occurrences of one key, never as one.
 * Other servers' messages are keyed as printed: their types do not vary between analyses.
 */
export function ledgerMessage(diagnostic: Diagnostic): string {
  const message = messageText(diagnostic);
  if (!/pyright/i.test(diagnostic.source ?? "")) return message;
  // Split at the quotes, the quoted parts are the odd ones (an unpaired last quote: not quoted).
  const parts = message.split('"');
  return parts
    .map((part, i) => (i % 2 === 1 && i < parts.length - 1 && inferredType.test(part) ? "…" : part))
    .join('"');
}
