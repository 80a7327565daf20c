import type { Location, LocationLink } from "vscode-languageserver-protocol";

/** What `textDocument/definition`, `implementation`, `references` and their kin answer. */
export type LocationAnswer =
  | Location
  | LocationLink
  | readonly (Location | LocationLink)[]
  | null
  | undefined;

/**
 * The places of a location answer, in the server's order, each as a Location: a link by its
 * target's selection range (the name, not the whole declaration its `targetRange` spans). None
 * for null or undefined. Non-`file:` URIs are kept: each caller decides what to do with them
 * (leave them out, or stop at the first).
 */
export function answerLocations(answer: LocationAnswer): Location[] {
  if (!answer) return [];
  const list: readonly (Location | LocationLink)[] = Array.isArray(answer) ? answer : [answer];
  return list.map((each) =>
    "targetUri" in each ? { uri: each.targetUri, range: each.targetSelectionRange } : each,
  );
}
