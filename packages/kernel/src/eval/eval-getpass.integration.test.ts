import { askUserTool, MemoryQuestionPort, questionPortKey, targetSpaceKey, type ShownCard } from "@tools/ask";
import { createRegistry, createRun, resultText, type Run, type ToolResult } from "@tools/registry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ci, makeWorkspace, pythonFound } from "../__fixtures__/workspace.js";
import { createKernelFactory, kernelFactoryKey } from "../factory/kernel-factory.js";
import { evalTool } from "./eval-tool.js";

const describePython = describe.skipIf(!pythonFound && !ci);

const password = "s3cret pass!";

// The real ask_user and a real ipykernel: getpass() asks a secret card, the cell gets what was
// typed, and the password is in no result, no card text and nothing a result wrapper sees.
describePython("eval's getpass() asks a secret ask_user card", () => {
  let workspace: ReturnType<typeof makeWorkspace>;
  const runs: Run[] = [];

  beforeAll(() => {
    workspace = makeWorkspace();
  });
  afterAll(async () => {
    await Promise.all(runs.map((run) => run.dispose()));
    workspace?.remove();
  });

  function start(respond: (card: ShownCard) => void) {
    const port = new MemoryQuestionPort({ respond });
    const wrapped: string[] = [];
    const registry = createRegistry({
      tools: [evalTool, askUserTool],
      approval: "auto",
      resultWrappers: [
        {
          name: "transcript",
          wrap: (result: ToolResult, call) => {
            wrapped.push(`${call.tool.name}: ${JSON.stringify(result)}`);
            return result;
          },
        },
      ],
    });
    const run = createRun({
      workingDirectory: workspace.directory,
      resources: [
        [kernelFactoryKey, createKernelFactory({ warmSpare: false })],
        [questionPortKey, port],
        [targetSpaceKey, { id: "conversation" }],
      ],
    });
    runs.push(run);
    const cell = (code: string): Promise<ToolResult> =>
      registry.invoke(run, {
        tool: "eval",
        args: { code, description: "read a password with getpass here" },
      });
    return { port, wrapped, cell };
  }

  it("gives the cell the typed password while its result, the card and the nested result hold none of it", async () => {
    const { port, wrapped, cell } = start((card) => card.reply(password));
    const result = await cell(
      `import getpass\npw = getpass.getpass('DB password: ')\nlen(pw), pw == ${JSON.stringify(password)}`,
    );
    expect(result.isError).toBe(false);
    expect(resultText(result)).toBe(`DB password: \n(${password.length}, True)`);
    const [card] = port.shown;
    expect(card?.card).toMatchObject({ secret: true, question: "DB password:", options: [] });
    expect(card?.text).toContain("(secret: what you type is hidden and never shown back)");
    const nested = wrapped.find((line) => line.startsWith("ask_user: "));
    expect(nested).toContain("Their answer is a secret: it went to the caller and is not shown here.");
    for (const seen of [resultText(result), card?.text ?? "", JSON.stringify(card?.card), ...wrapped]) {
      expect(seen).not.toContain("s3cret");
    }
  });

  it("asks input() on an ordinary card, its answer shown as a terminal would", async () => {
    const { port, cell } = start((card) => card.reply("Ada"));
    const result = await cell("name = input('Name? ')\nname");
    expect(resultText(result)).toBe("Name? Ada\n'Ada'");
    expect(port.shown[0]?.card.secret).toBeUndefined();
  });

  it("raises EOFError in the cell when the secret card is declined", async () => {
    const { cell } = start((card) => card.reply("0"));
    const result = await cell(
      "import getpass\ntry:\n    getpass.getpass()\nexcept EOFError as error:\n    print('EOFError:', error)",
    );
    expect(resultText(result)).toMatch(/^EOFError: getpass\(\) got no answer: The operator declined/);
  });
});
