import { join } from "node:path";
import { expect, it, vi } from "vitest";
import { LanguageClient } from "../client/language-client.js";
import { lineOf, replaceOnDisk } from "../test-support/replaced-on-disk.js";
import { describeTypescript, useTypescriptServer } from "../test-support/typescript-server.js";

/** Times the file is replaced and asked about at once. */
const rounds = 12;

// A file not open here is read by tsserver when its own watch tells it of a change: right after
// a `git checkout` (the file removed, then written anew) its references named the places the uses
// had, shown with the lines now on disk there.
describeTypescript("references in a file replaced on disk just before the question", () => {
  const server = useTypescriptServer("ts-project");

  it("asks once when the answer is the text on disk", async () => {
    const request = vi.spyOn(LanguageClient.prototype, "request");
    try {
      const references = await server.text({
        action: "references",
        file: "src/app.ts",
        line: 3,
        symbol: "add",
      });
      expect(references).toContain("src/math.ts:2:17  export function add(");
      expect(request.mock.calls.filter(([method]) => method === "textDocument/references")).toHaveLength(1);
    } finally {
      request.mockRestore();
    }
  });

  it("names the lines the uses are on now, the file removed and written again (git checkout) or written with an old mtime", async () => {
    const wrong: string[] = [];
    const ask = () => server.text({ action: "references", file: "src/app.ts", line: 3, symbol: "add" });
    await replaceOnDisk(join(server.dir, "src/math.ts"), rounds, ask, async (text, i) => {
      const references = await ask();
      const want = `src/math.ts:${lineOf(text, "export function add")}:17  export function add(`;
      if (!references.includes(want)) wrong.push(`round ${i}: want ${want}, got ${references}`);
    });
    expect(wrong).toEqual([]);
  });
});
