import { describe, expect, it } from "vitest";
import { bundleText, OutputCollector, plainText } from "./output-collector.js";

describe("OutputCollector", () => {
  it("strips colour codes and applies carriage-return overwrites", () => {
    expect(plainText("\u001b[0;31mValueError\u001b[0m: bad\nprogress 10%\rprogress 100%")).toBe(
      "ValueError: bad\nprogress 100%",
    );
  });

  it("keeps one image per identical figure and caps the image count", () => {
    const collector = new OutputCollector({
      maxChars: 1000,
      maxLines: 50,
      maxImages: 1,
      maxImageBytes: 1000,
    });
    const png = Buffer.from("\x89PNG fake").toString("base64");
    collector.add({ type: "display", kind: "result", data: { "image/png": png, "text/plain": "<Figure>" } });
    collector.add({ type: "display", kind: "display", data: { "image/png": png, "text/plain": "<Figure>" } });
    collector.add({
      type: "display",
      kind: "display",
      data: { "image/png": Buffer.from("other").toString("base64") },
    });
    const parts = collector.parts();
    expect(parts.filter((part) => part.type === "image")).toHaveLength(1);
    expect(parts.some((part) => part.type === "text" && /over the image limit/.test(part.text))).toBe(true);
  });

  it("renders an HTML-only table as a pipe table", () => {
    const html =
      "<table><thead><tr><th></th><th>a</th></tr></thead><tbody><tr><th>0</th><td>1 &amp; 2</td></tr></tbody></table>";
    expect(bundleText({ "text/html": html })).toBe("|  | a |\n| --- | --- |\n| 0 | 1 & 2 |");
  });
});
