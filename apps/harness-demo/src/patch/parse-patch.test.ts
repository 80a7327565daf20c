import { describe, expect, it } from "vitest";
import { parsePatch, patchPaths } from "./parse-patch.js";

const patch = (...lines: string[]) => ["*** Begin Patch", ...lines, "*** End Patch"].join("\n");

describe("parsePatch", () => {
  it("reads add, delete and update (with move, anchor and end of file)", () => {
    const operations = parsePatch(
      patch(
        "*** Add File: a.txt",
        "+one",
        "+two",
        "*** Delete File: b.txt",
        "*** Update File: c.txt",
        "*** Move to: d.txt",
        "@@ function main",
        " keep",
        "-old",
        "+new",
        "*** End of File",
      ),
    );
    expect(operations).toEqual([
      { kind: "add", path: "a.txt", lines: ["one", "two"] },
      { kind: "delete", path: "b.txt" },
      {
        kind: "update",
        path: "c.txt",
        moveTo: "d.txt",
        hunks: [
          {
            anchor: "function main",
            oldLines: ["keep", "old"],
            newLines: ["keep", "new"],
            atEnd: true,
            lines: [
              { marker: " ", text: "keep" },
              { marker: "-", text: "old" },
              { marker: "+", text: "new" },
            ],
          },
        ],
      },
    ]);
  });

  it("splits hunks on @@ lines and reads a bare empty line as empty context", () => {
    const [operation] = parsePatch(patch("*** Update File: a", "@@", "-x", "+y", "@@", " p", "", "-q"));
    expect(operation).toMatchObject({
      hunks: [
        { oldLines: ["x"], newLines: ["y"] },
        { oldLines: ["p", "", "q"], newLines: ["p", ""] },
      ],
    });
  });

  it("names the line that is wrong", () => {
    expect(() => parsePatch("*** Add File: a\n+x\n*** End Patch")).toThrow(
      /line 1: the patch must start with '\*\*\* Begin Patch'/,
    );
    expect(() => parsePatch("*** Begin Patch\n*** Add File: a\n+x")).toThrow(
      /must end with '\*\*\* End Patch'/,
    );
    expect(() => parsePatch(patch("*** Add File: a", "x"))).toThrow(
      /line 3: every line of an added file starts with '\+'/,
    );
    expect(() => parsePatch(patch("*** Update File: a", "@@", "?x"))).toThrow(
      /line 4: a hunk line must start with/,
    );
    expect(() => parsePatch(patch("*** Rename File: a"))).toThrow(/line 2: expected '\*\*\* Add File:'/);
    expect(() => parsePatch(patch("*** Update File: a"))).toThrow(/Update File a has no hunks/);
    expect(() => parsePatch(patch())).toThrow(/changes no file/);
  });

  it("says what a patch that does not start with Begin Patch is: fenced, or a unified diff", () => {
    expect(() => parsePatch(`\`\`\`\n${patch("*** Add File: a", "+x")}\n\`\`\``)).toThrow(
      "invalid patch at line 1: the patch must start with '*** Begin Patch' (it starts with a Markdown code fence: send the patch without the ``` lines). Nothing was written.",
    );
    expect(() => parsePatch("--- a/x.ts\n+++ b/x.ts\n@@ -1 +1 @@\n-a\n+b\n")).toThrow(
      /line 1: the patch must start with '\*\*\* Begin Patch' \(this is a unified diff; this tool takes its own format/,
    );
  });

  it("lists every path, move targets included, without validating", () => {
    expect(
      patchPaths("*** Update File: a\n*** Move to: b\n*** Add File: c\n*** Delete File: d\ngarbage"),
    ).toEqual(["a", "b", "c", "d"]);
  });
});
