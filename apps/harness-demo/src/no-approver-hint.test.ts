import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resultText } from "@tools/registry";
import { describe, expect, it } from "vitest";
import { createDemoRun, noApproverHint, noApproverHintFor } from "./create-demo-run.js";

/** The message of a shell call denied fail-closed in a demo run with this hint. */
async function denial(hint: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), "harness-demo-hint-"));
  const demo = createDemoRun({ workingDirectory: dir, noApproverHint: hint });
  try {
    const result = await demo.registry.invoke(demo.run, {
      surface: "main",
      tool: "shell",
      args: { command: "echo hi" },
    });
    expect(result.error?.code).toBe("NO_APPROVER");
    return resultText(result);
  } finally {
    await demo.dispose();
    await rm(dir, { recursive: true, force: true });
  }
}

describe("the fail-closed hint fits the mode", () => {
  it("serve keeps naming the flags that attach an approver", () => {
    expect(noApproverHintFor({ mode: "serve", approval: "ask" })).toBe(noApproverHint);
    expect(noApproverHintFor({ mode: "serve", approval: "auto" })).toContain("serve --operator jsonl");
  });

  it("interactive names the input or output that is not a terminal, not interactive itself", async () => {
    const text = await denial(noApproverHintFor({ mode: "interactive", notTerminal: ["stdin"] }));
    expect(text).toContain("but stdin is not a terminal here (piped or redirected)");
    expect(text).not.toContain("or run `harness-demo interactive` to answer");
    expect(noApproverHintFor({ mode: "interactive", notTerminal: ["stdin", "stdout"] })).toContain(
      "but stdin and stdout are not a terminal here",
    );
  });

  it("--model speaks to the model: no retry, and what to tell the user", async () => {
    const text = await denial(noApproverHintFor({ mode: "model", approval: "ask" }));
    expect(text).toContain("Do not retry this call");
    expect(text).toContain("say in your answer which calls were denied");
    expect(text).not.toContain("harness-demo interactive");
    expect(text).not.toContain("serve --operator jsonl");
    // Under auto only a background worker's call is denied so: auto is not the way out.
    const auto = noApproverHintFor({ mode: "model", approval: "auto" });
    expect(auto).toContain("even under --approval auto");
    expect(auto).not.toContain("started with --approval ask");
    expect(auto).toContain("Do not retry this call");
  });
});
