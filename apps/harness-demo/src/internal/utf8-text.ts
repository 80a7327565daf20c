import { isUtf8 } from "node:buffer";
import { ToolsError } from "@tools/registry";

/**
 * The 1-based number of the first line of `bytes` that is not valid UTF-8 (counting from
 * `firstLine`), or undefined when all of it is. Such text does not survive a decode and encode:
 * its bytes would come back as U+FFFD.
 */
export function firstNonUtf8Line(bytes: Buffer, firstLine = 1): number | undefined {
  if (isUtf8(bytes)) return undefined;
  let line = firstLine;
  for (let start = 0; start <= bytes.length; line++) {
    let end = bytes.indexOf(10, start);
    if (end === -1) end = bytes.length;
    if (!isUtf8(bytes.subarray(start, end))) return line;
    start = end + 1;
  }
  return line;
}

/**
 * The file's bytes as text, or a `NOT_UTF8` error for a file in another encoding (Latin-1,
 * Windows-1252): a tool that wrote it back would turn every such byte into U+FFFD, lines it never
 * touched included. `shown` names the file, `tool` the tool refusing; `after` ends the message.
 */
export function decodeUtf8ForWrite(bytes: Buffer, shown: string, tool: string, after = ""): string {
  const line = firstNonUtf8Line(bytes);
  if (line === undefined) return bytes.toString("utf8");
  throw new ToolsError({
    code: "NOT_UTF8",
    message:
      `${shown} is not valid UTF-8 (line ${line} holds bytes of another encoding, such as Latin-1); ` +
      `${tool} changes UTF-8 text only, and refused rather than turn those bytes into U+FFFD. ` +
      "Convert the file first (shell: iconv -f latin1 -t utf-8), or change it with a shell command that keeps its bytes (sed)." +
      after,
    data: { line },
  });
}
