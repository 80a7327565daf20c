import { resultText, type ToolResult } from "@tools/registry";
import { afterEach, describe, expect, it } from "vitest";
import { ci, makeRun, makeWorkspace, pythonFound } from "../__fixtures__/workspace.js";
import type { KernelFactoryOptions } from "../factory/kernel-factory.js";

const describePython = describe.skipIf(!pythonFound && !ci);

/** A group of `count` ValueErrors, each `message` (Python), each raised `depth` calls deep. */
function groupCell(count: number, message: string, depth: number): string {
  return (
    `def dive(n, i):\n    if n == 0:\n        raise ValueError(${message})\n    return dive(n - 1, i)\n` +
    `errors = []\nfor i in range(1, ${count + 1}):\n    try:\n        dive(${depth}, i)\n    except ValueError as e:\n        errors.append(e)\n` +
    `raise ExceptionGroup('many', errors)`
  );
}

describePython("ExceptionGroups on a real ipykernel, within the configured output limits", () => {
  const cleanups: (() => Promise<unknown> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });

  function setup(options: KernelFactoryOptions = {}) {
    expect(pythonFound).toBe(true);
    const workspace = makeWorkspace();
    const made = makeRun(workspace.directory, options);
    cleanups.push(workspace.remove, () => made.run.dispose());
    return (code: string): Promise<ToolResult> =>
      made.registry.invoke(made.run, {
        tool: "eval",
        args: { code, description: "run a python exception group cell" },
      });
  }

  it.each([
    { maxChars: 80_000, maxLines: 1_600, shownWhole: true },
    { maxChars: 20_000, maxLines: 400, shownWhole: false },
    { maxChars: 4_000, maxLines: 100, shownWhole: false },
  ])(
    "cuts a sub-exception's long message by the output limits ($maxChars characters), with the exact count",
    async ({ maxChars, maxLines, shownWhole }) => {
      // Before: cut at 500 characters whatever the limits, so 80 000 characters of room showed
      // 500 of a 3 000-character message.
      const cell = setup({ limits: { maxChars, maxLines } });
      const text = resultText(await cell(groupCell(2, "f'sub {i} ' + 'x' * 3_000", 0)));
      expect(text.length).toBeLessThanOrEqual(maxChars);
      expect(text.split("\n").length).toBeLessThanOrEqual(maxLines);
      for (const i of [1, 2]) {
        expect(text).toContain(`sub-exception ${i} of 2`);
        if (shownWhole) {
          expect(text).toMatch(new RegExp(`\\nValueError: sub ${i} x{3000}(\\n|$)`));
          continue;
        }
        const line = new RegExp(
          `\\nValueError: sub ${i} (x+) … \\(([\\d,]+) more characters of (?:this line|the message) omitted\\)(\\n|$)`,
        ).exec(text);
        expect(line).not.toBeNull();
        const kept = line?.[1]?.length ?? 0;
        expect(kept).toBeGreaterThan(50);
        // Never more than an eighth of the traceback's half of the limits.
        expect(kept).toBeLessThanOrEqual(Math.max(200, maxChars / 16));
        expect(Number((line?.[2] ?? "0").replaceAll(",", "")) + kept).toBe(3_000);
      }
    },
  );

  it("formats a bounded start of a sub-exception's 1 MB message in the kernel, not all of it", async () => {
    // Before: IPython formatted "ValueError: " + the whole 1 MB message, which was then cut to 500.
    const cell = setup();
    const watch = await cell(
      "ip = get_ipython()\nwidest = [0]\nreal_format = ip.InteractiveTB.format_exception\n" +
        "def counting(etype, evalue):\n    lines = real_format(etype, evalue)\n    widest[0] = max(widest[0], *(len(line) for line in lines))\n    return lines\n" +
        "ip.InteractiveTB.format_exception = counting",
    );
    expect(watch.isError).toBe(false);
    const group = await cell(groupCell(3, "f'sub {i} ' + 'x' * 1_000_000", 0));
    expect(group.error?.code).toBe("CELL_ERROR");
    const widest = Number(
      resultText(await cell("ip.InteractiveTB.format_exception = real_format\nwidest[0]")),
    );
    expect(widest).toBeGreaterThan(0);
    expect(widest).toBeLessThan(2_000);
    for (const i of [1, 2, 3]) {
      const line = new RegExp(
        `\\nValueError: sub ${i} (x+) … \\(([\\d,]+) more characters of the message omitted\\)(\\n|$)`,
      ).exec(resultText(group));
      expect(Number((line?.[2] ?? "0").replaceAll(",", "")) + (line?.[1]?.length ?? 0)).toBe(1_000_000);
    }
  });

  /** Widest line IPython's format_exception made while `code` ran (a cell that raises). */
  async function widestFormatted(cell: (code: string) => Promise<ToolResult>, code: string) {
    const watch = await cell(
      "ip = get_ipython()\nwidest = [0]\nreal_format = ip.InteractiveTB.format_exception\n" +
        "def counting(etype, evalue):\n    lines = real_format(etype, evalue)\n    widest[0] = max(widest[0], *(len(line) for line in lines))\n    return lines\n" +
        "ip.InteractiveTB.format_exception = counting",
    );
    expect(watch.isError).toBe(false);
    const result = await cell(code);
    const widest = Number(
      resultText(await cell("ip.InteractiveTB.format_exception = real_format\nwidest[0]")),
    );
    return { text: resultText(result), widest };
  }

  it("formats a bounded start of a sub-exception's cause's and context's 1 MB messages, named by their types", async () => {
    // Before: the stand-in kept the sub-exception's own chain, whose 1 MB messages IPython
    // formatted in full (widest line 1 000 008 characters), once per sub-exception. Room for
    // every line: at the default limits the chain's lines are among the frames the harness cuts.
    const cell = setup({ limits: { maxChars: 80_000, maxLines: 1_600 } });
    const { text, widest } = await widestFormatted(
      cell,
      "class Slow(KeyError): pass\ndef dive(i):\n    try:\n        try:\n            raise OSError('context ' + 'c' * 1_000_000)\n" +
        "        except OSError:\n            raise Slow('cause ' + 'y' * 1_000_000)\n    except KeyError as c:\n        raise ValueError(f'sub {i} ' + 'x' * 1_000_000) from c\n" +
        "errors = []\nfor i in range(1, 3):\n    try:\n        dive(i)\n    except ValueError as e:\n        errors.append(e)\nraise ExceptionGroup('many', errors)",
    );
    expect(widest).toBeGreaterThan(0);
    // A line of a traceback is cut at an eighth of its half of the limits (5 000 characters here).
    expect(widest).toBeLessThanOrEqual(80_000 / 16 + 100);
    expect(text).not.toContain("Shown");
    for (const [name, start, whole] of [
      ["OSError", "context c", 1_000_008],
      ["Slow", "'cause y", 1_000_008],
    ] as const) {
      const lines = [
        ...text.matchAll(
          new RegExp(
            `\\n${name}: ${start}([a-z]+) … \\(([\\d,]+) more characters of (?:this line|the message) omitted\\)\\n`,
            "g",
          ),
        ),
      ];
      expect(lines).toHaveLength(2);
      for (const line of lines) {
        expect(start.length + (line[1]?.length ?? 0) + Number((line[2] ?? "0").replaceAll(",", ""))).toBe(
          whole,
        );
      }
    }
    expect(text).toContain("The above exception was the direct cause of the following exception:");
    expect(text).toContain("During handling of the above exception, another exception occurred:");
  });

  it("formats a bounded start of a SyntaxError sub-exception's 1 MB message, raised or made", async () => {
    // Before: a SyntaxError was left out of the bounded formatting: IPython formatted its whole
    // message (and source line), then the line was cut.
    const cell = setup();
    const { text, widest } = await widestFormatted(
      cell,
      "def bad(i):\n    raise SyntaxError(f'bad {i} ' + 'z' * 1_000_000, ('gen.py', 3, 2, 'x = (' + 'q' * 1_000_000, 3, 4))\n" +
        "errors = []\nfor i in range(1, 3):\n    try:\n        bad(i)\n    except SyntaxError as e:\n        errors.append(e)\n" +
        "errors.append(IndentationError('made ' + 'm' * 1_000_000, ('made.py', 1, 1, 'y', 1, 2)))\nraise ExceptionGroup('syntax', errors)",
    );
    expect(widest).toBeGreaterThan(0);
    expect(widest).toBeLessThan(2_000);
    for (const [name, start, whole] of [
      ["SyntaxError", "bad 1 ", 1_000_006],
      ["SyntaxError", "bad 2 ", 1_000_006],
      ["IndentationError", "made ", 1_000_005],
    ] as const) {
      const line = new RegExp(
        `\\n${name}: ${start}([a-z]+) … \\(([\\d,]+) more characters of (?:this line|the message) omitted\\)`,
      ).exec(text);
      expect(line).not.toBeNull();
      expect(start.length + (line?.[1]?.length ?? 0) + Number((line?.[2] ?? "0").replaceAll(",", ""))).toBe(
        whole,
      );
    }
  });

  it("keeps every sub-exception's header and exception line when their frames are over the limits", async () => {
    // Before: 15 sub-exceptions raised 30 calls deep kept the start of the group's text only:
    // "sub-exception 3 of 15" was the last header and "ValueError: task 2 …" the last line.
    const cell = setup();
    const text = resultText(await cell(groupCell(15, "f'task {i} failed: ' + 'detail ' * 20", 30)));
    expect(text.length).toBeLessThanOrEqual(20_000);
    expect(text.split("\n").length).toBeLessThanOrEqual(400);
    expect(text).toMatch(/\nExceptionGroup: many \(15 sub-exceptions\)\n/);
    for (let i = 1; i <= 15; i++) {
      expect(text).toContain(`\n+---------------- sub-exception ${i} of 15 ----------------\n`);
      expect(text).toMatch(new RegExp(`\\nValueError: task ${i} failed: (detail ){20}(\\n|$)`));
    }
    // The frames are what was cut, each sub-exception's on its own, keeping the line that raised.
    expect(text.match(/\n… \d+ lines \([\d,]+ characters\) of the traceback omitted here …\n/g)).toHaveLength(
      15,
    );
    expect(text.match(/\n----> 3 +raise ValueError\(f'task \{i\} failed: '/g)).toHaveLength(15);
  });

  it("keeps every header with small limits too, cutting long exception lines to share the room", async () => {
    const cell = setup({ limits: { maxChars: 12_000, maxLines: 300 } });
    const text = resultText(await cell(groupCell(15, "f'task {i} failed: ' + 'detail ' * 200", 30)));
    expect(text.length).toBeLessThanOrEqual(12_000);
    expect(text.split("\n").length).toBeLessThanOrEqual(300);
    for (let i = 1; i <= 15; i++) {
      expect(text).toContain(`sub-exception ${i} of 15`);
      const line = new RegExp(
        `\\nValueError: task ${i} failed: ([a-z ]*) … \\(([\\d,]+) more characters of the message omitted\\)(\\n|$)`,
      ).exec(text);
      // Cut where the room is shared, the count still that of the whole message.
      expect(Number((line?.[2] ?? "0").replaceAll(",", "")) + (line?.[1]?.length ?? 0)).toBe(1_400);
    }
  });

  it("keeps every header and line, with one note for all their frames, when a note each is over the limits", async () => {
    // Before: each sub-exception kept a line for its frames' note (and a blank line), and at
    // 4 000 characters and 100 lines 4 of the 15 were left out for those.
    const cell = setup({ limits: { maxChars: 4_000, maxLines: 100 } });
    const text = resultText(await cell(groupCell(15, "f'task {i} failed'", 30)));
    expect(text.length).toBeLessThanOrEqual(4_000);
    expect(text.split("\n").length).toBeLessThanOrEqual(100);
    for (let i = 1; i <= 15; i++) {
      expect(text).toContain(
        `\n+---------------- sub-exception ${i} of 15 ----------------\nValueError: task ${i} failed\n`,
      );
    }
    expect(text).not.toContain("left out here");
    expect(text).toMatch(
      /\n… \d+ lines \([\d,]+ characters\) of the sub-exceptions' tracebacks omitted here …$/,
    );
  });

  it("says how many sub-exceptions it left out when even their headers are over the limits", async () => {
    const cell = setup({ limits: { maxChars: 2_000, maxLines: 50 } });
    const text = resultText(await cell(groupCell(15, "f'task {i} failed: ' + 'detail ' * 200", 30)));
    expect(text.length).toBeLessThanOrEqual(2_000);
    expect(text.split("\n").length).toBeLessThanOrEqual(50);
    expect(text).toContain("sub-exception 1 of 15");
    const left =
      /\n… (\d+) more sub-exceptions left out here: their headers and lines are over the output limits …/.exec(
        text,
      );
    expect(Number(left?.[1])).toBeGreaterThan(0);
    expect(text).toContain(`sub-exception ${15 - Number(left?.[1])} of 15`);
  });
  it("names a made (never raised) sub-exception with a long message by its own type, with its notes", async () => {
    // Before: its line was formatted from the kernel's stand-in for the long message:
    // "__tools_install.<locals>.Shown: xxx…", and its note was gone.
    const cell = setup();
    const text = resultText(
      await cell(
        "e = ValueError('x' * 5_000)\ne.add_note('checked on the second pass')\nraise ExceptionGroup('made', [e, KeyError('k')])",
      ),
    );
    expect(text).not.toContain("Shown");
    const line =
      /\nValueError: (x+) … \(([\d,]+) more characters of the message omitted\)\nchecked on the second pass\n/.exec(
        text,
      );
    expect(Number((line?.[2] ?? "0").replaceAll(",", "")) + (line?.[1]?.length ?? 0)).toBe(5_000);
    expect(text).toMatch(/\nKeyError: 'k'(\n|$)/);
  });

  it("counts the sub-exceptions the kernel did not format among those it says it left out", async () => {
    // At 1 500 characters the kernel formats 9 of 15 (five times maxChars) and says "… and 6
    // more"; the harness kept 4 and said "5 more sub-exceptions left out": 6 were nowhere.
    const cell = setup({ limits: { maxChars: 1_500, maxLines: 40 } });
    const text = resultText(await cell(groupCell(15, "f'sub {i}'", 30)));
    expect(text.length).toBeLessThanOrEqual(1_500);
    const shown = text.match(/\n\+-+ sub-exception \d+ of 15 -+\n/g)?.length ?? 0;
    expect(shown).toBeGreaterThan(0);
    const left = /\n… (\d+) more sub-exceptions? left out here/.exec(text);
    expect(shown + Number(left?.[1] ?? 0)).toBe(15);
  });
});
