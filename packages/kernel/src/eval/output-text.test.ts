import { describe, expect, it } from "vitest";
import { bundleText, CarriageReturns } from "./output-text.js";

// Bundles as IPython 8.5 / pandas 1.5 format them (display_formatter.format of each object).
const stylerHtml =
  '<style type="text/css">\n#T_245ad_row1_col1, #T_245ad_row2_col0 {\n  background-color: yellow;\n}\n</style>\n' +
  '<table id="T_245ad">\n  <thead>\n    <tr>\n      <th class="blank level0" >&nbsp;</th>\n' +
  '      <th id="T_245ad_level0_col0" class="col_heading level0 col0" >city</th>\n' +
  '      <th id="T_245ad_level0_col1" class="col_heading level0 col1" >temp</th>\n    </tr>\n  </thead>\n' +
  '  <tbody>\n    <tr>\n      <th id="T_245ad_level0_row0" class="row_heading level0 row0" >0</th>\n' +
  '      <td id="T_245ad_row0_col0" class="data row0 col0" >Oslo</td>\n' +
  '      <td id="T_245ad_row0_col1" class="data row0 col1" >4</td>\n    </tr>\n    <tr>\n' +
  '      <th id="T_245ad_level0_row1" class="row_heading level0 row1" >1</th>\n' +
  '      <td id="T_245ad_row1_col0" class="data row1 col0" >Lima</td>\n' +
  '      <td id="T_245ad_row1_col1" class="data row1 col1" >19</td>\n    </tr>\n  </tbody>\n</table>\n';

describe("bundleText", () => {
  it("keeps a real plain form over HTML: pandas' aligned table, a figure's description", () => {
    expect(
      bundleText({
        "text/plain": "   a\n0  1",
        "text/html": "<div><table><tr><th></th><th>a</th></tr><tr><th>0</th><td>1</td></tr></table></div>",
      }),
    ).toBe("   a\n0  1");
    expect(
      bundleText({ "text/plain": "<Figure size 640x480 with 1 Axes>", "text/html": "<p>figure</p>" }),
    ).toBe("<Figure size 640x480 with 1 Axes>");
    expect(bundleText({ "text/plain": "<b>not a repr</b>", "text/html": "<i>x</i>" })).toBe(
      "<b>not a repr</b>",
    );
  });

  it("renders the HTML when the plain form is only a default object repr", () => {
    expect(
      bundleText({
        "text/plain": "<pandas.io.formats.style.Styler at 0x7f09448fd5d0>",
        "text/html": stylerHtml,
      }),
    ).toBe("|  | city | temp |\n| --- | --- | --- |\n| 0 | Oslo | 4 |\n| 1 | Lima | 19 |");
    expect(
      bundleText({
        "text/plain": "<IPython.core.display.HTML object>",
        "text/html": "<b>bold</b> <table><tr><td>1</td><td>2</td></tr></table>",
      }),
    ).toBe("bold\n| 1 | 2 |\n| --- | --- |");
    expect(
      bundleText({
        "text/plain": "<IPython.core.display.HTML object>",
        "text/html":
          "<h2>Report</h2><p>Hello &amp; <i>welcome</i>,\n  reader&#33;</p><ul><li>one &lt;1&gt;</li><li>two</li></ul>" +
          "<!-- a comment --><script>alert(1)</script>a<br>b&nbsp;c &amp;lt; &#x263A; &unknown;",
      }),
    ).toBe("Report\nHello & welcome, reader!\n- one <1>\n- two\na\nb c &lt; ☺ &unknown;");
    expect(
      bundleText({ "text/plain": "<__main__.Thing object at 0x7f0>", "text/html": "<p>thing</p>" }),
    ).toBe("thing");
  });

  it("renders LaTeX or JSON when the plain form is a default repr and there is no HTML", () => {
    expect(bundleText({ "text/plain": "<IPython.core.display.Latex object>", "text/latex": "$x^2$" })).toBe(
      "$x^2$",
    );
    expect(
      bundleText({ "text/plain": "<IPython.core.display.JSON object>", "application/json": { a: 1 } }),
    ).toBe('{\n  "a": 1\n}');
    expect(
      bundleText({ "text/plain": "<IPython.core.display.Markdown object>", "text/markdown": "# hi" }),
    ).toBe("# hi");
    // Nothing richer: the repr is all there is.
    expect(bundleText({ "text/plain": "<object object at 0x7f1>" })).toBe("<object object at 0x7f1>");
  });

  it("names a form it cannot show, with its size, rather than the default repr: SVG, GIF, a widget", () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><circle r="5"/></svg>';
    expect(bundleText({ "text/plain": "<IPython.core.display.SVG object>", "image/svg+xml": svg })).toBe(
      `[image/svg+xml, ${svg.length} bytes, not shown]`,
    );
    expect(bundleText({ "image/gif": Buffer.from("GIF89a-fake").toString("base64") })).toBe(
      "[image/gif, 11 bytes, not shown]",
    );
    expect(
      bundleText({
        "text/plain": "<ipywidgets.IntSlider object at 0x7f1>",
        "application/vnd.jupyter.widget-view+json": { model_id: "ab" },
        "application/javascript": "alert(1)",
      }),
    ).toBe(
      "[application/vnd.jupyter.widget-view+json, 17 bytes, not shown]\n[application/javascript, 8 bytes, not shown]",
    );
    // A real plain form still wins.
    expect(
      bundleText({ "text/plain": "Slider(value=3)", "application/vnd.jupyter.widget-view+json": {} }),
    ).toBe("Slider(value=3)");
  });

  it("renders HTML alone: text, and every table", () => {
    expect(
      bundleText({
        "text/html":
          "<p>first</p><table><tr><th>a</th></tr><tr><td>1</td></tr></table><p>then</p><table><tr><th>b</th></tr></table>",
      }),
    ).toBe("first\n| a |\n| --- |\n| 1 |\nthen\n| b |\n| --- |");
  });
});

describe("bundleText of HTML alone", () => {
  const html = (text: string) => bundleText({ "text/html": text });

  it("keeps a <pre>'s lines and indentation", () => {
    expect(html("<pre>def f():\n    return 1\n</pre>")).toBe("def f():\n    return 1");
    expect(html("<p>code:</p><pre>\n  a  b\n\n  c</pre><p>after</p>")).toBe("code:\n  a  b\n\n  c\nafter");
    expect(html('<pre><span class="k">if</span> x:<br>    <b>y</b></pre>')).toBe("if x:\n    y");
  });

  it("reads a tag's quoted attribute with '>' in it, and a '<' that opens no tag, as a browser does", () => {
    expect(html('<p title="a>b">text</p>')).toBe("text");
    expect(html("<p class='x>' id=y>one</p><p>1 < 2 and 3 > 2</p>")).toBe("one\n1 < 2 and 3 > 2");
  });

  it("keeps the outer rows of a table with a table in a cell", () => {
    expect(
      html(
        "<table><tr><td>outer1</td><td><table><tr><td>in1</td><td>in2</td></tr></table></td></tr>" +
          "<tr><td>outer2</td></tr></table><p>after</p>",
      ),
    ).toBe("| outer1 | in1 in2 |\n| --- | --- |\n| outer2 |  |\nafter");
  });

  it("decodes a control character to U+FFFD, so no escape sequence can be spelled", () => {
    expect(html("<p>a&#27;[31mred&#x1b;[0m&#13;&#x9b;1m&#9;b</p>")).toBe(
      "a\ufffd[31mred\ufffd[0m\ufffd\ufffd1m b",
    );
  });

  it("reads tags left open to the end in one pass, and cuts HTML past its limit", () => {
    // Each of these took the old regular expressions seconds (quadratic).
    expect(html(`<p>before</p>${"<style>".repeat(60_000)}x`)).toBe("before");
    expect(html(`<p>before</p>${"<!--".repeat(60_000)}x`)).toBe("before");
    expect(html(`<p>before</p>${"<table>".repeat(60_000)}x`)).toBe("before\nx");
    expect(html(`<p>before</p>${"<table".repeat(60_000)}`)).toBe("before");
    const long = html(`<pre>${"line\n".repeat(300_000)}</pre>`) ?? "";
    expect(long.split("\n").length).toBe(200_000);
    expect(long.split("\n").at(-1)).toBe("… (HTML cut: only its first 1000000 of 1500011 characters shown)");
  });

  it("leaves out the table row the cut falls in, its value cut short, and says how many rows it shows", () => {
    const head = "<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody>";
    const row = (i: number) => `<tr><td>${2_000_000_000 + i}</td><td>${i}</td></tr>`;
    let body = "";
    let i = 0;
    while (head.length + body.length + row(i).length <= 1_000_000) body += row(i++);
    // The cut falls three digits into the next row's first value: "200" of 2000xxxxxx.
    const pad = 1_000_000 - (head.length + body.length + "<tr><td>".length + 3);
    const text =
      html(`<!--${" ".repeat(pad - 7)}-->${head}${body}${row(i)}${row(i + 1)}</tbody></table>`) ?? "";
    const lines = text.split("\n");
    expect(lines.at(-2)).toBe(`| ${2_000_000_000 + i - 1} | ${i - 1} |`);
    expect(lines.at(-1)).toBe(
      `… (HTML cut: only its first 1000000 of ${1_000_000 + row(i).length * 2 - "<tr><td>200".length + "</tbody></table>".length} characters shown; the table cut there shows its first ${i} rows under its header, the row cut short left out)`,
    );
    expect(lines.length).toBe(i + 3);
  });

  it("counts the rows under a header of two rows, in <thead> or of <th> cells only", () => {
    const row = (i: number) => `<tr><th>${i}</th><td>${2_000_000_000 + i}</td></tr>`;
    for (const head of [
      "<table><thead><tr><th></th><th>a</th></tr><tr><th>row</th><th></th></tr></thead><tbody>",
      "<table><tr><th></th><th>a</th></tr><tr><th>row</th><th></th></tr>",
    ]) {
      let body = "";
      let i = 0;
      while (head.length + body.length + row(i).length <= 1_000_000) body += row(i++);
      const text = html(`${head}${body}${row(i)}${row(i + 1)}</tbody></table>`) ?? "";
      const lines = text.split("\n");
      expect(lines.at(-2)).toBe(`| ${i - 1} | ${2_000_000_000 + i - 1} |`);
      expect(lines.at(-1)).toMatch(
        new RegExp(
          `shows its first ${i} rows under its header \\(its 2 header rows not counted\\), the row cut short left out\\)$`,
        ),
      );
    }
  });
});

describe("CarriageReturns", () => {
  it("holds only the open line as it stands, and gives complete lines with their overwrites", () => {
    const overwrites = new CarriageReturns(100);
    let most = 0;
    for (let i = 0; i < 10_000; i++) {
      expect(overwrites.write(`\r${i}`)).toBe("");
      most = Math.max(most, overwrites.held);
    }
    expect(most).toBeLessThanOrEqual(6);
    expect(overwrites.write("\r")).toBe("");
    expect(overwrites.write("\nnext\rline 2\n3")).toBe("9999\nline 2\n");
    expect(overwrites.flush()).toBe("3");
    expect(overwrites.held).toBe(0);
  });

  it("lets a line longer than its bound go out as it is", () => {
    const overwrites = new CarriageReturns(10);
    expect(overwrites.write("0123456789")).toBe("");
    expect(overwrites.write("abc")).toBe("0123456789abc");
    expect(overwrites.write("\rxy")).toBe("");
    expect(overwrites.flush()).toBe("\rxy");
  });
});
