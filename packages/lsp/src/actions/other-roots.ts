import { join } from "node:path";
import type { LanguageClient } from "../client/language-client.js";
import { mentionsElsewhere, type MentionsElsewhere } from "../rename/mentions-elsewhere.js";
import { isInside } from "../servers/find-root.js";
import type { LspSupervisor } from "../supervisor/supervisor.js";

/**
 * After a search across files (references, implementation) by `client`: the lines naming `name`
 * in files of its language that another root's server serves and the answer did not list
 * (`listed`), as a note; "" when there are none, or when the root is the working directory
 * (nothing lies outside it). Roots nested in the answering one are not looked at (see `enter`
 * below). The answering server does not search them: they may use the symbol too. Bounded (see
 * `mentionsElsewhere`).
 */
export async function otherRootsNote(
  supervisor: LspSupervisor,
  client: LanguageClient,
  options: { name: string; listed: ReadonlySet<string>; signal?: AbortSignal },
): Promise<string> {
  // A root that is the working directory has nothing outside it to look at (see `enter`).
  if (client.root === supervisor.workingDirectory) return "";
  const found = await mentionsElsewhere(
    supervisor.workingDirectory,
    client.root,
    (folder) => supervisor.rootFor(client.spec, join(folder, "_")),
    {
      name: options.name,
      extensions: client.spec.extensions,
      exclude: options.listed,
      // The note is about uses: a name in a comment or string is none.
      language: client.spec.language,
      // Not below the answering root: walking a large root on every call (Go's standard library
      // with its nested modules: ~120 ms a call) would cost more than the answer. Its siblings
      // and what lies outside it are looked at. What this leaves out: roots nested in it whose
      // files its server does not search (a Go module inside another without a go.work; a
      // tsconfig or pyright root's include globs usually take nested roots in).
      enter: (folder) => !isInside(client.root, folder),
      ...(options.signal ? { signal: options.signal } : {}),
    },
  );
  return mentionsNote(found, {
    name: options.name,
    root: supervisor.display(client.root),
    display: (path) => supervisor.display(path),
  });
}

/** The note for what {@link otherRootsNote} found. */
function mentionsNote(
  found: MentionsElsewhere,
  about: { name: string; root: string; display: (path: string) => string },
): string {
  const server = `the server which answered (root ${about.root})`;
  if (found.files === 0) {
    return found.truncated
      ? `(files ${server} does not search were looked at for '${about.name}' only in part: the look's bound was reached)`
      : "";
  }
  const files = `${found.files} file${found.files === 1 ? "" : "s"}`;
  const lines = found.mentions.map(
    (mention) => `${about.display(mention.file)}:${mention.line + 1}  ${mention.text}`,
  );
  return [
    `not searched: '${about.name}' is also named in ${files} that ${server} does not search; if they use this symbol, ask from one of them:`,
    ...lines,
    ...(found.lines > lines.length ? [`… and ${found.lines - lines.length} more`] : []),
    ...(found.truncated ? ["(the look for them stopped at its bound: there may be more)"] : []),
  ].join("\n");
}
