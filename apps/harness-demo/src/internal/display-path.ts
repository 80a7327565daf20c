import { relative, sep } from "node:path";

/** A path as the model should read it: relative to the working directory, with `/` separators. */
export function displayPath(workingDirectory: string, absolute: string): string {
  const rel = relative(workingDirectory, absolute);
  if (rel === "") return ".";
  return sep === "/" ? rel : rel.split(sep).join("/");
}
