import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { MemoryQuestionPort } from "@tools/ask";

import { createDemoRun } from "../../create-demo-run.js";
import { refusedWith, showCall, succeededWith, type TourSection, type TourStep } from "./tour-step.js";

const operatorLabel = "scripted operator (the tour answers for a human)";

/** ask_user on the tour's run; the scripted operator picks option 2 with a note. */
const askAnswered: TourStep = {
  title: "ask_user: a card answered by the scripted operator (labelled as such)",
  async run({ demo, operator }) {
    const call = {
      tool: "ask_user",
      args: {
        question: "Which region should the report lead with?",
        context: "The sales report can open with one region's figures.",
        options: [
          { label: "north", description: "most units in February" },
          { label: "south", description: "most units overall" },
          { label: "east", description: "highest price" },
        ],
      },
    };
    const pending = demo.registry.invoke(demo.run, call);
    const card = await operator.nextCard(10_000);
    const answer = "2";
    card.reply(answer);
    const result = await pending;
    const verdict = succeededWith('Chosen option: "south"')(result);
    return {
      shown: `${showCall(call, result)}\n(${operatorLabel} replied "${answer}")`,
      verdict,
      attachments: [{ kind: "card", text: card.text, answer, who: operatorLabel }],
    };
  },
};

/** ask_user on a run with nobody attached: it fails at once, closed. */
const askNobody: TourStep = {
  title: "ask_user with nobody attached: the fail-closed answer, at once",
  async run({ runOptions }) {
    const lonely = createDemoRun({ ...runOptions, approval: "ask" });
    try {
      const call = { tool: "ask_user", args: { question: "Shall I delete the build folder?" } };
      const result = await lonely.registry.invoke(lonely.run, call);
      const verdict = refusedWith("ASK_NO_HUMAN")(result);
      return { shown: showCall(call, result), verdict };
    } finally {
      await lonely.dispose();
    }
  },
};

/** An `ask` run whose permission cards go to the scripted operator: a write asks, is allowed once. */
const permissionCard: TourStep = {
  title: "a permission card for a write (approval ask), allowed once by the scripted operator",
  async run({ runOptions, workspace }) {
    const operator = new MemoryQuestionPort();
    const gated = createDemoRun({ ...runOptions, approval: "ask", questionPort: operator });
    try {
      const call = {
        tool: "write",
        args: { path: "NOTES.md", content: "# notes\n\nwritten after approval\n" },
      };
      const pending = gated.registry.invoke(gated.run, call);
      const card = await operator.nextCard(10_000);
      const answer = "1";
      card.reply(answer);
      const result = await pending;
      let verdict = succeededWith("")(result);
      const written = await readFile(join(workspace, "NOTES.md"), "utf8").catch(() => "");
      if (verdict === true && !written.includes("written after approval"))
        verdict = "NOTES.md was not written";
      if (verdict === true && !card.text.includes("Allow write"))
        verdict = "the card does not ask to allow write";
      return {
        shown: [
          ...card.text.split("\n").map((line) => `┃ ${line}`),
          `(${operatorLabel} replied "${answer}": Allow once)`,
          showCall(call, result),
        ].join("\n"),
        verdict,
        attachments: [
          { kind: "card", text: card.text, answer: `${answer} (Allow once)`, who: operatorLabel },
        ],
      };
    } finally {
      await gated.dispose();
    }
  },
};

/** Part 7: ask_user and the approval gate drawn as the same card. */
export const askTourSection: TourSection = {
  title: "ask_user and the permission card",
  note: `Cards are answered by a ${operatorLabel}; \`harness-demo interactive\` answers them in a terminal.`,
  steps: [askAnswered, askNobody, permissionCard],
};
