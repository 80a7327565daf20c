import { pathToFileURL } from "node:url";
import type { Diagnostic, DiagnosticSeverity, ServerCapabilities } from "vscode-languageserver-protocol";

/**
 * typescript-language-server's pass-through to tsserver (`workspace/executeCommand`, arguments
 * `[tsserverCommand, args]`; the answer is tsserver's response).
 */
export const tsserverRequestCommand = "typescript.tsserverRequest";

/**
 * tsserver's synchronous diagnostics requests, in the order its `geterr` reports them and
 * typescript-language-server publishes them: syntax, semantics, suggestions.
 */
const requests = ["syntacticDiagnosticsSync", "semanticDiagnosticsSync", "suggestionDiagnosticsSync"];

/** One diagnostic as tsserver formats it (`formatDiag`: 1-based line and offset). */
interface TsserverDiagnostic {
  start: { line: number; offset: number };
  end: { line: number; offset: number };
  text: string;
  code: number;
  category: string;
  source?: string;
  relatedInformation?: {
    message: string;
    span?: { file: string; start: { line: number; offset: number }; end: { line: number; offset: number } };
  }[];
}

/** True when the server offers the tsserver pass-through. */
export function tsserverPullAvailable(capabilities: ServerCapabilities): boolean {
  return capabilities.executeCommandProvider?.commands.includes(tsserverRequestCommand) ?? false;
}

/** An LSP position (0-based) of tsserver's 1-based line and offset. */
export const tsserverPosition = (location: { line: number; offset: number }) => ({
  line: location.line - 1,
  character: location.offset - 1,
});

function severity(category: string): DiagnosticSeverity {
  if (category === "warning") return 2;
  if (category === "suggestion") return 4;
  return 1;
}

/** tsserver's diagnostic as typescript-language-server publishes it (its `toDiagnostic`). */
export function toLspDiagnostic(diagnostic: TsserverDiagnostic): Diagnostic {
  const related = diagnostic.relatedInformation?.flatMap((info) =>
    info.span
      ? [
          {
            location: {
              uri: pathToFileURL(info.span.file).href,
              range: { start: tsserverPosition(info.span.start), end: tsserverPosition(info.span.end) },
            },
            message: info.message,
          },
        ]
      : [],
  );
  return {
    range: { start: tsserverPosition(diagnostic.start), end: tsserverPosition(diagnostic.end) },
    message: diagnostic.text,
    severity: severity(diagnostic.category),
    code: diagnostic.code,
    source: diagnostic.source ?? "typescript",
    ...(related ? { relatedInformation: related } : {}),
  };
}

/**
 * Pulls a document's diagnostics from tsserver through the pass-through: tsserver handles
 * requests in order, so the answers are for every change sent before them — the same
 * diagnostics the server would publish (unversioned, after its own delay) for that text.
 */
export async function tsserverPullDiagnostics(
  request: <R>(method: string, params: unknown, timeoutMs: number) => Promise<R>,
  uri: string,
  timeoutMs: number,
): Promise<Diagnostic[]> {
  const answers = await Promise.all(
    requests.map((command) =>
      request<{ success?: boolean; body?: TsserverDiagnostic[]; message?: string } | null>(
        "workspace/executeCommand",
        { command: tsserverRequestCommand, arguments: [command, { file: uri }] },
        timeoutMs,
      ),
    ),
  );
  return answers.flatMap((answer, index) => {
    if (!answer?.success || !Array.isArray(answer.body))
      throw new Error(`tsserver ${requests[index]} failed: ${answer?.message ?? "no answer"}`);
    return answer.body.map(toLspDiagnostic);
  });
}
