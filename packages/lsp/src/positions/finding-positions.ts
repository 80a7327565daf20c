import type { Finding } from "../checkers/finding.js";
import type { FileTexts } from "../files/file-texts.js";
import { textView, type TextRule, type TextView } from "./text-view.js";

/**
 * `findings` of a checker that counts lines and columns as its language's server does (tsc as
 * tsserver, `pyright` as pyright-langserver: `rule`), at the user's lines and columns (see
 * `positions/text-view.ts`): a file holding a byte order mark or U+2028 is listed where the
 * server's diagnostics put it. Files needing no conversion (a quick scan) are left as they are.
 */
export function findingsAsUserSees(
  findings: readonly Finding[],
  rule: TextRule | undefined,
  texts: FileTexts,
): Finding[] {
  if (rule === undefined) return [...findings];
  const views = new Map<string, TextView | undefined>();
  return findings.map((finding) => {
    if (!views.has(finding.file)) {
      const text = texts.tryRead(finding.file)?.text;
      views.set(finding.file, text === undefined ? undefined : textView(text, rule));
    }
    const view = views.get(finding.file);
    if (view === undefined) return finding;
    const at = view.toUser({ line: finding.line - 1, character: finding.column - 1 });
    return { ...finding, line: at.line + 1, column: at.character + 1 };
  });
}
