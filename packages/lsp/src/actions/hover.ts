import type { Hover, MarkedString, MarkupContent } from "vscode-languageserver-protocol";
import { boundHoverText, plainHoverText } from "../format/hover-text.js";
import { extname } from "node:path";
import { answeredName, type ResolvedPosition } from "../positions/resolve-position.js";
import { languageIdFor } from "../servers/server-table.js";
import type { ActionContext, ActionInput } from "./action-context.js";
import { awaitAnalysed, reindexing } from "./analysed-documents.js";
import { askNearby, nothingHere } from "./ask-nearby.js";
import { noNameAnswer, noNameAt } from "./no-name.js";
import { endSearch, reopenOutdated } from "./cross-file-search.js";
import { requireCapability } from "./require-capability.js";
import { addressSymbol } from "./symbol-position.js";

/** The text of a hover's contents, in whichever of the protocol's forms the server gave them. */
function markedText(content: MarkupContent | MarkedString | MarkedString[]): string {
  if (Array.isArray(content)) return content.map(markedText).join("\n\n");
  if (typeof content === "string") return content;
  if ("kind" in content) return content.value;
  return "```" + content.language + "\n" + content.value + "\n```";
}

/** A hover answer as plain text, its paths shown as `display` does; "" when there is none. */
function hoverText(answer: Hover | null, display: (path: string) => string): string {
  return answer ? plainHoverText(markedText(answer.contents), display).trim() : "";
}

/** hover: the server's signature and doc comment, bounded. */
export async function hover(input: ActionInput, context: ActionContext): Promise<string> {
  const { client, uri, file, lines, position, code, resynced } = await addressSymbol(input, context);
  requireCapability(client, "hover");
  const display = (path: string) => context.supervisor.display(path);
  // clangd takes a doc comment from its index: from the files sent again once analysed, and from
  // a closed file's text at its close unless opened again.
  const refreshed = await reopenOutdated(client, context);
  const notes = [...refreshed.notes];
  let answer: Hover | null;
  let at: ResolvedPosition;
  let character: number;
  try {
    const analysed = [...refreshed.opened, ...reindexing(client, resynced)];
    const late =
      analysed.length > 0
        ? await awaitAnalysed(client, analysed, context.supervisor, context.bound)
        : undefined;
    if (late) notes.push(late);
    const inText = (line: number, character: number) => code(line)[character] === " ";
    const asked = await askNearby({
      position,
      lines,
      code,
      input,
      display: display(file),
      askAt: async (line, character) => {
        context.bound?.waiting(`for ${client.spec.command} to answer textDocument/hover`);
        try {
          return await client.request<Hover | null>(
            "textDocument/hover",
            { textDocument: { uri }, position: { line, character } },
            undefined,
            context.signal,
          );
        } catch (error) {
          // gopls answers a position in a comment with an error: nothing found there.
          if (nothingHere(error) && inText(line, character)) return null;
          throw error;
        }
      },
      isEmpty: (hover) => hoverText(hover, display) === "",
      noun: "hover information",
    });
    ({ answer, at, character } = asked);
    if (asked.lead) notes.unshift(asked.lead);
    if (asked.note) notes.push(asked.note);
  } finally {
    await endSearch(client, refreshed);
  }
  const header = notes.map((note) => `${note}\n`).join("");
  const text = hoverText(answer, display);
  if (text === "") {
    // A keyword or an operator: no name to tell about (see `noNameAt`).
    const noName = noNameAt(
      lines[at.line]!,
      code(at.line),
      character,
      client.spec.language,
      languageIdFor(client.spec, extname(file)),
    );
    if (noName) return `${header}${noNameAnswer(noName, `${display(file)}:${at.line + 1}:${character + 1}`)}`;
    return `${header}no hover information for '${answeredName(input.symbol!, at)}' at ${display(file)}:${at.line + 1}`;
  }
  return header + boundHoverText(text, { maxLines: 80, maxChars: 6000 });
}
