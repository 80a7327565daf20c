import { writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { Attachment } from "./tour-step.js";

/** One step as the transcript records it. */
export interface StepRecord {
  /** `2.1`: the section's number and the step's within it, as the terminal prints it. */
  readonly number: string;
  readonly title: string;
  readonly shown: string;
  readonly verdict: true | string;
  readonly attachments: readonly Attachment[];
}

/** One part of the tour as the transcript records it. */
export interface SectionRecord {
  readonly number: number;
  readonly title: string;
  readonly note?: string;
  readonly steps: StepRecord[];
}

/** The whole tour. */
export interface TourRecord {
  readonly workspace: string;
  readonly startedAt: Date;
  readonly seconds: number;
  readonly sections: readonly SectionRecord[];
}

function counts(record: TourRecord): { total: number; failed: number } {
  const steps = record.sections.flatMap((section) => section.steps);
  return { total: steps.length, failed: steps.filter((step) => step.verdict !== true).length };
}

function fence(text: string): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((match) => match[0].length));
  const ticks = "`".repeat(longest + 1);
  return `${ticks}text\n${text}\n${ticks}`;
}

/** The transcript as Markdown (figures inline as data: URIs, cards as quoted blocks). */
export function transcriptMarkdown(record: TourRecord): string {
  const { total, failed } = counts(record);
  const lines = [
    "# harness-demo tour transcript",
    "",
    `Real calls and their real results on a temporary copy of the sample workspace (\`${record.workspace}\`), ${record.startedAt.toISOString()}, ${record.seconds.toFixed(1)} s.`,
    "",
    failed === 0 ? `**All ${total} steps passed.**` : `**${failed} of ${total} steps FAILED.**`,
  ];
  for (const section of record.sections) {
    lines.push("", `## ${section.number}. ${section.title}`);
    if (section.note) lines.push("", `> ${section.note}`);
    for (const step of section.steps) {
      lines.push("", `### ${step.number} ${step.title}`, "");
      if (step.shown !== "") lines.push(fence(step.shown), "");
      for (const attachment of step.attachments) {
        if (attachment.kind === "image") {
          lines.push(`![${attachment.caption}](data:${attachment.mimeType};base64,${attachment.data})`, "");
        } else {
          lines.push(
            `> **card** (answered by ${attachment.who}: \`${attachment.answer}\`)`,
            ">",
            ...attachment.text.split("\n").map((line) => `>     ${line}`),
            "",
          );
        }
      }
      lines.push(step.verdict === true ? "**PASS**" : `**FAIL**: ${step.verdict}`);
    }
  }
  return `${lines.join("\n")}\n`;
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

const style = `
body { font: 15px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #1d2330; }
h1 { margin-bottom: .2rem; } h2 { margin-top: 2.5rem; border-bottom: 1px solid #d5dae3; }
h3 { font-size: 1rem; margin: 1.5rem 0 .4rem; }
pre { background: #f4f6f9; border: 1px solid #e1e5ec; border-radius: 6px; padding: .7rem .9rem; overflow-x: auto; font: 13px/1.45 ui-monospace, monospace; }
.pass { color: #17803d; font-weight: 600; } .fail { color: #c62828; font-weight: 600; }
.summary { padding: .5rem .9rem; border-radius: 6px; display: inline-block; }
.summary.ok { background: #e7f6ec; } .summary.bad { background: #fde8e8; }
.note { color: #555; font-style: italic; }
.card { border: 1px solid #c3cad6; border-left: 5px solid #4a7bd0; border-radius: 10px; box-shadow: 0 2px 6px rgba(0,0,0,.08); padding: .6rem 1rem; margin: .8rem 0; max-width: 42rem; background: #fff; }
.card pre { background: none; border: none; padding: 0; white-space: pre-wrap; }
.card .who { font-size: .85rem; color: #555; border-top: 1px dashed #c3cad6; padding-top: .4rem; }
figure { margin: .8rem 0; } figure img { max-width: 100%; border: 1px solid #e1e5ec; border-radius: 6px; }
figcaption { font-size: .85rem; color: #555; }
`;

/** The transcript as one self-contained HTML page: no external resource, figures as data: URIs. */
export function transcriptHtml(record: TourRecord): string {
  const { total, failed } = counts(record);
  const body: string[] = [
    "<h1>harness-demo tour transcript</h1>",
    `<p>Real calls and their real results on a temporary copy of the sample workspace (<code>${escapeHtml(record.workspace)}</code>), ${escapeHtml(record.startedAt.toISOString())}, ${record.seconds.toFixed(1)} s.</p>`,
    failed === 0
      ? `<p class="summary ok"><span class="pass">All ${total} steps passed.</span></p>`
      : `<p class="summary bad"><span class="fail">${failed} of ${total} steps failed.</span></p>`,
  ];
  for (const section of record.sections) {
    body.push(`<h2>${section.number}. ${escapeHtml(section.title)}</h2>`);
    if (section.note) body.push(`<p class="note">${escapeHtml(section.note)}</p>`);
    for (const step of section.steps) {
      body.push(`<h3>${step.number} ${escapeHtml(step.title)}</h3>`);
      if (step.shown !== "") body.push(`<pre>${escapeHtml(step.shown)}</pre>`);
      for (const attachment of step.attachments) {
        if (attachment.kind === "image") {
          body.push(
            `<figure><img alt="${escapeHtml(attachment.caption)}" src="data:${escapeHtml(attachment.mimeType)};base64,${attachment.data}"><figcaption>${escapeHtml(attachment.caption)}</figcaption></figure>`,
          );
        } else {
          body.push(
            `<div class="card"><pre>${escapeHtml(attachment.text)}</pre><div class="who">answered by ${escapeHtml(attachment.who)}: <code>${escapeHtml(attachment.answer)}</code></div></div>`,
          );
        }
      }
      body.push(
        step.verdict === true
          ? '<p class="pass">PASS</p>'
          : `<p class="fail">FAIL: ${escapeHtml(step.verdict)}</p>`,
      );
    }
  }
  return `<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>harness-demo tour transcript</title>\n<style>${style}</style>\n</head>\n<body>\n${body.join("\n")}\n</body>\n</html>\n`;
}

/** Writes transcript.md and transcript.html into `directory`; resolves with their paths. */
export async function writeTranscripts(
  record: TourRecord,
  directory: string,
): Promise<{ markdown: string; html: string }> {
  const markdown = resolve(join(directory, "transcript.md"));
  const html = resolve(join(directory, "transcript.html"));
  await writeFile(markdown, transcriptMarkdown(record));
  await writeFile(html, transcriptHtml(record));
  return { markdown, html };
}
