import { describe, expect, it } from "vitest";
import { transcriptHtml, transcriptMarkdown, type TourRecord } from "./transcript.js";

const record: TourRecord = {
  workspace: "/tmp/ws",
  startedAt: new Date("2026-01-01T00:00:00Z"),
  seconds: 1,
  sections: [
    {
      number: 1,
      title: "first part",
      steps: [{ number: "1.1", title: "only step", shown: "", verdict: true, attachments: [] }],
    },
    {
      number: 2,
      title: "second part",
      steps: [
        { number: "2.1", title: "a step", shown: "", verdict: true, attachments: [] },
        { number: "2.2", title: "another", shown: "", verdict: "wrong", attachments: [] },
      ],
    },
  ],
};

describe("the transcripts", () => {
  it("number steps as the terminal does: section.step", () => {
    const markdown = transcriptMarkdown(record);
    expect(markdown.match(/^### .*$/gm)).toEqual(["### 1.1 only step", "### 2.1 a step", "### 2.2 another"]);
    expect(transcriptHtml(record).match(/<h3>.*?<\/h3>/g)).toEqual([
      "<h3>1.1 only step</h3>",
      "<h3>2.1 a step</h3>",
      "<h3>2.2 another</h3>",
    ]);
  });
});
