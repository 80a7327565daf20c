import { countNoun } from "@tools/registry";

/** What one worker attempt of a model backend did: its turns and its tool calls, per tool. */
export class CallTally {
  turns = 0;
  #calls = new Map<string, number>();
  #errors = 0;

  /** Counts a tool call the model made (`isError`: it came back as an error). */
  count(tool: string, isError: boolean): void {
    this.#calls.set(tool, (this.#calls.get(tool) ?? 0) + 1);
    if (isError) this.#errors++;
  }

  /** "30 model turns, 41 tool calls (read ×30, grep ×11; 3 of them errors)". */
  summary(): string {
    const total = [...this.#calls.values()].reduce((sum, n) => sum + n, 0);
    const turns = `${this.turns} ${countNoun(this.turns, "model turns")}`;
    if (total === 0) return `${turns}, no tool calls`;
    const byTool = [...this.#calls.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([tool, n]) => `${tool} ×${n}`)
      .join(", ");
    const errors =
      this.#errors === 0
        ? ""
        : `; ${this.#errors === 1 ? "1 of them an error" : `${this.#errors} of them errors`}`;
    return `${turns}, ${total} ${countNoun(total, "tool calls")} (${byTool}${errors})`;
  }
}
