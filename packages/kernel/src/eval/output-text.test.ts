import { describe, expect, it } from "vitest";
import { bundleText } from "./output-text.js";

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

  it("renders HTML alone: text, and every table", () => {
    expect(
      bundleText({
        "text/html":
          "<p>first</p><table><tr><th>a</th></tr><tr><td>1</td></tr></table><p>then</p><table><tr><th>b</th></tr></table>",
      }),
    ).toBe("first\n| a |\n| --- |\n| 1 |\nthen\n| b |\n| --- |");
  });
});
