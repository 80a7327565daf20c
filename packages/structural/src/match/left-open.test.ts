import { afterAll, describe, expect, it } from "vitest";
import { createStructuralParser } from "../parser/structural-parser.js";
import { leftOpenAt } from "./left-open.js";
import { matchSource } from "./match-source.js";

const parser = createStructuralParser({ workers: 0 });
afterAll(() => parser.dispose());

async function openAt(language: string, source: string): Promise<{ at: number | undefined }> {
  const spec = parser.spec(language);
  const tree = await parser.parse(spec, source);
  try {
    return { at: leftOpenAt(spec, tree, source) };
  } finally {
    tree.delete();
  }
}

describe("leftOpenAt", () => {
  it("finds the opening of a block comment a file is cut off in", async () => {
    const source = "f(1);\n/* licence\n * foo(bar)\n";
    expect((await openAt("typescript", source)).at).toBe(source.indexOf("/*"));
  });

  it("takes a Go rune holding a backquote for no raw string", async () => {
    expect(
      (await openAt("go", "package main\nfunc f() { x := '`'; g(1) }\nfunc bad( { }\n")).at,
    ).toBeUndefined();
  });

  it("takes block-comment openings inside strings after the last `*/` for no comment", async () => {
    // 20,000 `"src/*.N"` after the last `*/` (each once looked for a `*/` through the rest of
    // the file: over 1 s for this file; the time is the bench's to measure, not this test's).
    const globs = Array.from({ length: 20_000 }, (_, index) => `const g${index} = "src/*.${index}";`);
    const { at } = await openAt("typescript", `/* ok */\nconst x = (;\n${globs.join("\n")}\n`);
    expect(at).toBeUndefined();
  });
});

describe("leftOpenAt in CSS", () => {
  it("takes a `/*` in an unquoted url() for no comment, and finds one left open after it", async () => {
    // `url(/*.png)` is a URL (no comment opens inside an unquoted url), which tree-sitter-css
    // reads with an error: taken for a comment left open, it hid every rule after it.
    const url = "a { background: url(/*.png); }\nb { color: red }\n";
    expect((await openAt("css", url)).at).toBeUndefined();
    expect(
      (await openAt("css", "a { background: URL( /x/*.png ); }\nb { color: red }\n")).at,
    ).toBeUndefined();
    const cut = `${url}c { color: blue }\n/* licence\nd { color: red }\n`;
    expect((await openAt("css", cut)).at).toBe(cut.lastIndexOf("/*"));
  });

  it("takes a `/*` after blanks in an unquoted url() for no comment either", async () => {
    // CSS reads `url(a b/*.png)` as one bad URL up to its `)`: the blank ends the URL's text but
    // not the token, and no comment opens before the `)` (CSS Syntax 3, "consume the remnants
    // of a bad url"). Taken for a comment left open, it hid every rule after it.
    const spaced = "a { background: url(a b/*.png); }\nb { color: red }\n";
    expect((await openAt("css", spaced)).at).toBeUndefined();
    expect(
      (await openAt("css", "a { background: url( x\\) y/*.png ); }\nb { color: red }\n")).at,
    ).toBeUndefined();
    expect(await matchSource(parser, "css", "color: $V", spaced)).toHaveLength(1);
    // After the URL's `)`, a `/*` opens a comment again; a quoted url( holds a string, not a URL.
    const cut = `${spaced}c { color: blue }\n/* licence\nd { color: red }\n`;
    expect((await openAt("css", cut)).at).toBe(cut.lastIndexOf("/*"));
    const after = "a { background: url(a b) } /* licence\nd { color: red }\n";
    expect((await openAt("css", after)).at).toBe(after.indexOf("/*"));
    const quoted = 'a { background: url( "a b" /* licence\nd { color: red }\n';
    expect((await openAt("css", quoted)).at).toBe(quoted.indexOf("/*"));
  });

  it("takes a `/*` in an unquoted url() for no comment when a `url(` without its `)` came before in a comment or string", async () => {
    // The URL the `/*` is in is the last `url(` before it; one that is comment or string text
    // further back (`/* url( */`) neither opens a URL nor hides the one after it.
    for (const source of [
      "/* url( */\na { background: url(/*.png); }\nb { color: red }\n",
      'a { content: "url(x"; background: url(/*.png); }\nb { color: red }\n',
    ]) {
      expect((await openAt("css", source)).at).toBeUndefined();
      expect(await matchSource(parser, "css", "color: $V", source)).toHaveLength(1);
    }
    // After a URL closed, a `/*` opens a comment, whatever `url(` in a comment came before.
    const closed = "/* url( */\na { background: url(a.png) } /* licence\nb { color: red }\n";
    expect((await openAt("css", closed)).at).toBe(closed.lastIndexOf("/*"));
  });

  it("takes a `url(` in a comment for no URL: the comment left open after it is one", async () => {
    // The `url(` is comment text, and no whitespace comes between it and the opening left open.
    const source = "/* url(*/b{color:red}/* licence\nc{color:blue}\n";
    expect((await openAt("css", source)).at).toBe(source.lastIndexOf("/*"));
    const quoted = 'a{content:"url("}b{color:red}/* licence\nc{color:blue}\n';
    expect((await openAt("css", quoted)).at).toBe(quoted.lastIndexOf("/*"));
  });
});
