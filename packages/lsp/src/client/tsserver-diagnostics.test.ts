import { describe, expect, it } from "vitest";
import { toLspDiagnostic, tsserverPullDiagnostics } from "./tsserver-diagnostics.js";

const item = (category: string, code: number) => ({
  start: { line: 3, offset: 22 },
  end: { line: 3, offset: 27 },
  text: `message ${code}`,
  code,
  category,
});

describe("diagnostics pulled from tsserver", () => {
  it("converts as typescript-language-server publishes: 0-based range, severity by category", () => {
    expect(toLspDiagnostic(item("error", 2345))).toEqual({
      range: { start: { line: 2, character: 21 }, end: { line: 2, character: 26 } },
      message: "message 2345",
      severity: 1,
      code: 2345,
      source: "typescript",
    });
    expect(toLspDiagnostic(item("warning", 1)).severity).toBe(2);
    expect(toLspDiagnostic(item("suggestion", 6133)).severity).toBe(4);
  });

  it("asks syntax, semantics and suggestions in that order, and fails on an unsuccessful answer", async () => {
    const asked: unknown[] = [];
    const request = async <R>(_method: string, params: unknown): Promise<R> => {
      const [command] = (params as { arguments: [string] }).arguments;
      asked.push(command);
      const body = command === "semanticDiagnosticsSync" ? [item("error", 2345)] : [];
      return { success: true, body } as R;
    };
    const pulled = await tsserverPullDiagnostics(request, "file:///w/a.ts", 1000);
    expect(asked).toEqual([
      "syntacticDiagnosticsSync",
      "semanticDiagnosticsSync",
      "suggestionDiagnosticsSync",
    ]);
    expect(pulled.map((diagnostic) => diagnostic.code)).toEqual([2345]);
    const failing = async <R>(): Promise<R> => ({ success: false, message: "No Project." }) as R;
    await expect(tsserverPullDiagnostics(failing, "file:///w/a.ts", 1000)).rejects.toThrow("No Project.");
  });
});
