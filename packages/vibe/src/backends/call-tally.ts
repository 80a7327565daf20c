import { countNoun } from "@tools/registry";

/** Most tools named one by one in a tally; the rest are counted together. */
const namedTools = 10;
/** Longest tool name shown whole (a model can make up any name; an unknown one is counted too). */
const nameChars = 60;

/** `name` cut to {@link nameChars} characters, marked when cut. */
function shownName(name: string): string {
  return name.length <= nameChars ? name : `${name.slice(0, nameChars - 1)}…`;
}

/** What one worker attempt of a model backend did: its turns and its tool calls, per tool. */
export class CallTally {
  turns = 0;
  /** The tool of the call in progress, if any. */
  calling: string | undefined;
  #calls = new Map<string, number>();
  #errors = 0;

  /** Counts a tool call the model made (`isError`: it came back as an error). */
  count(tool: string, isError: boolean): void {
    this.#calls.set(tool, (this.#calls.get(tool) ?? 0) + 1);
    if (isError) this.#errors++;
  }

  /** "30 model turns, 41 tool calls (read ×30, grep ×11; 3 of them errors)". */
  summary(): string {
    return `${this.turns} ${countNoun(this.turns, "model turns")}, ${this.calls()}`;
  }

  /**
   * What the attempt has done so far, or had done when it was `stopped` (its edits stay, so the
   * lead must know what it called): "It was in model turn 2, having made 1 tool call (write ×1)."
   * or "It is in model turn 2, in a call of bash, having made 1 tool call before it (write ×1)."
   * (a call a stop cut short: "(cut short)"); "" before its first turn.
   */
  soFar(stopped: boolean): string {
    if (this.turns === 0) return "";
    const where = `It ${stopped ? "was" : "is"} in model turn ${this.turns}`;
    if (this.calling === undefined) return `${where}, having made ${this.calls()}.`;
    const call = `in a call of ${shownName(this.calling)}${stopped ? " (cut short)" : ""}`;
    return `${where}, ${call}, having made ${this.calls()} before it.`;
  }

  /**
   * "41 tool calls (read ×30, grep ×11; 3 of them errors)", or "no tool calls"; past the
   * {@link namedTools} most called, "… and 490 calls of 488 other tools".
   */
  private calls(): string {
    const total = [...this.#calls.values()].reduce((sum, n) => sum + n, 0);
    if (total === 0) return "no tool calls";
    const sorted = [...this.#calls.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
    const named = sorted.slice(0, namedTools).map(([tool, n]) => `${shownName(tool)} ×${n}`);
    const others = sorted.slice(namedTools);
    const otherCalls = others.reduce((sum, [, n]) => sum + n, 0);
    const byTool = [
      ...named,
      ...(others.length === 0
        ? []
        : [
            `and ${otherCalls} ${countNoun(otherCalls, "calls")} of ${others.length} other ${countNoun(others.length, "tools")}`,
          ]),
    ].join(", ");
    const errors =
      this.#errors === 0
        ? ""
        : `; ${this.#errors === 1 ? "1 of them an error" : `${this.#errors} of them errors`}`;
    return `${total} ${countNoun(total, "tool calls")} (${byTool}${errors})`;
  }
}
