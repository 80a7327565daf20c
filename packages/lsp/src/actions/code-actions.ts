import { boundList } from "@tools/registry";
import type { CodeAction, Command } from "vscode-languageserver-protocol";
import type { ActionContext, ActionInput } from "./action-context.js";
import { requireCapability } from "./require-capability.js";
import { answeredName } from "../positions/resolve-position.js";
import { addressSymbol } from "./symbol-position.js";

/** code_actions: titles and kinds of what the server offers at the symbol (quick fixes first). */
export async function codeActions(input: ActionInput, context: ActionContext): Promise<string> {
  const addressed = await addressSymbol(input, context);
  const { client, uri, position } = addressed;
  requireCapability(client, "code_actions");
  context.bound?.waiting(
    `for ${client.spec.command}'s diagnostics of ${context.supervisor.display(addressed.file)}`,
  );
  const fresh = await client.freshDiagnostics(uri, context.supervisor.diagnosticsTimeoutMs);
  const onLine = fresh.diagnostics.filter(
    (diagnostic) =>
      diagnostic.range.start.line <= position.line && diagnostic.range.end.line >= position.line,
  );
  const range = {
    start: { line: position.line, character: position.character },
    end: { line: position.line, character: position.character + position.length },
  };
  context.bound?.waiting(`for ${client.spec.command} to answer textDocument/codeAction`);
  const answer = await client.request<(CodeAction | Command)[] | null>(
    "textDocument/codeAction",
    {
      textDocument: { uri },
      range,
      context: { diagnostics: onLine },
    },
    undefined,
    context.signal,
  );
  const header = position.note ? `${position.note}\n` : "";
  const actions = (answer ?? []).map((action) => ({
    title: action.title,
    kind: "kind" in action && action.kind ? action.kind : "command",
  }));
  actions.sort((a, b) => Number(b.kind.startsWith("quickfix")) - Number(a.kind.startsWith("quickfix")));
  if (actions.length === 0)
    return `${header}no code actions offered for '${answeredName(input.symbol!, position)}' on line ${position.line + 1}`;
  const { items, note } = boundList(actions, 50, "code actions");
  return `${header}${actions.length} code action${actions.length === 1 ? "" : "s"} for '${answeredName(input.symbol!, position)}' on line ${position.line + 1}:\n${items
    .map((action) => `${action.title} [${action.kind}]`)
    .join("\n")}${note ? `\n${note}` : ""}`;
}
