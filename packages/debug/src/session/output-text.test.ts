import { describe, expect, it } from "vitest";
import { exitTail, labelOutput, lastLines } from "./output-text.js";

const entry = (category: string, text: string) => ({ seq: 0, category, text });

describe("labelOutput", () => {
  it("labels every line of a stderr chunk, and starts a new line before a label when stdout left one open", () => {
    const texts = labelOutput([
      entry("stdout", "out line 1\nout li"),
      entry("stderr", "Traceback:\n  File x\nValueError\n"),
      entry("stdout", "ne 2\n"),
      entry("stderr", "err "),
      entry("stderr", "continues\n\n"),
      entry("stdout", "last"),
    ]);
    expect(texts.join("")).toBe(
      "out line 1\nout li\n[stderr] Traceback:\n[stderr]   File x\n[stderr] ValueError\nne 2\n" +
        "[stderr] err continues\n[stderr]\nlast",
    );
  });

  it("ends a stderr line left open before stdout goes on", () => {
    expect(labelOutput([entry("stderr", "warn"), entry("stdout", "out\n")]).join("")).toBe(
      "[stderr] warn\nout\n",
    );
  });

  it("does not repeat as a blank line the newline of a stdout line another stream interrupted", () => {
    // print("out1") writes "out1" and "\n" apart; stderr came between them.
    const texts = labelOutput([
      entry("stdout", "out1"),
      entry("stderr", "e1\n"),
      entry("stdout", "\n"),
      entry("stdout", "out2"),
      entry("stdout", "\n"),
      entry("stdout", "\n"),
    ]);
    expect(texts.join("")).toBe("out1\n[stderr] e1\nout2\n\n");
  });

  it("adds no blank line when both streams write their newlines apart and interleave (debugpy's two pipes)", () => {
    // print("starting") then print("warn", file=sys.stderr): each newline comes apart, and
    // debugpy's readers of the two pipes sent them crossed (seen on a real run).
    const texts = labelOutput([
      entry("stdout", "starting"),
      entry("stderr", "warn: something"),
      entry("stdout", "\n"),
      entry("stderr", "\n"),
      entry("stdout", "from eval\n"),
    ]);
    expect(texts.join("")).toBe("starting\n[stderr] warn: something\nfrom eval\n");
  });

  it("labels a blank stderr line too", () => {
    const texts = labelOutput([
      entry("stdout", "out1\n"),
      entry("stderr", "e1\n\ne3\n"),
      entry("stdout", "\n"),
    ]);
    expect(texts.join("")).toBe("out1\n[stderr] e1\n[stderr]\n[stderr] e3\n\n");
  });
});

describe("lastLines", () => {
  it("keeps whole lines from the end, saying how many earlier ones were left out", () => {
    const text = Array.from({ length: 100 }, (_, i) => `out line ${i}\n`).join("");
    const tail = lastLines(text, 50, "op 'output' reads them");
    expect(tail).toBe(
      "(96 earlier lines left out; op 'output' reads them)\nout line 96\nout line 97\nout line 98\nout line 99\n",
    );
    expect(lastLines("short\n", 50)).toBe("short\n");
  });

  it("keeps a line that starts exactly where the bound falls, and none that starts before it", () => {
    const text = "aaaa\nbbbb\ncccc\n";
    // "bbbb\ncccc\n" is exactly 10 characters: both lines fit.
    expect(lastLines(text, 10)).toBe("(1 earlier line left out)\nbbbb\ncccc\n");
    // One short: "bbbb" would be cut, so it is left out whole.
    expect(lastLines(text, 9)).toBe("(2 earlier lines left out)\ncccc\n");
    // One more: the window starts at the newline ending "aaaa", the next line is whole.
    expect(lastLines(text, 11)).toBe("(1 earlier line left out)\nbbbb\ncccc\n");
    // Exactly the last line: whole, not marked as cut.
    expect(lastLines(text, 5)).toBe("(2 earlier lines left out)\ncccc\n");
    expect(lastLines(text, 14)).toBe("(1 earlier line left out)\nbbbb\ncccc\n");
    expect(lastLines(text, 15)).toBe(text);
  });

  it("keeps whole lines at the bound with CRLF line ends, without a final newline, and with nothing", () => {
    const crlf = "aaaa\r\nbbbb\r\ncccc\r\n";
    expect(lastLines(crlf, 12)).toBe("(1 earlier line left out)\nbbbb\r\ncccc\r\n");
    expect(lastLines(crlf, 13)).toBe("(1 earlier line left out)\nbbbb\r\ncccc\r\n");
    expect(lastLines(crlf, 11)).toBe("(2 earlier lines left out)\ncccc\r\n");
    expect(lastLines(crlf, 6)).toBe("(2 earlier lines left out)\ncccc\r\n");
    const open = "aaaa\nbbbb\ncccc";
    expect(lastLines(open, 9)).toBe("(1 earlier line left out)\nbbbb\ncccc");
    expect(lastLines(open, 4)).toBe("(2 earlier lines left out)\ncccc");
    expect(lastLines(open, 3)).toBe("(2 earlier lines left out)\n…ccc");
    expect(lastLines("", 10)).toBe("");
    expect(lastLines("", 0)).toBe("");
  });

  it("cuts a last line longer than the bound at its start, marked", () => {
    expect(lastLines(`a\n${"x".repeat(20)}`, 10)).toBe(`(1 earlier line left out)\n…${"x".repeat(10)}`);
    expect(lastLines("x".repeat(20), 10, "op 'output' reads it")).toBe(
      `(the line's start left out; op 'output' reads it)\n…${"x".repeat(10)}`,
    );
  });
});

describe("exitTail", () => {
  const out = (count: number) =>
    Array.from({ length: count }, (_, i) => ({ category: "stdout", text: `step ${i}\n` }));
  const err = (text: string) => ({ category: "stderr", text });

  it("is the plain tail when stderr's last line is in it, or there is none", () => {
    const entries = [...out(300), err("fatal: late\n"), ...out(3)];
    expect(exitTail(entries, 200)).toBe(lastLines(labelOutput(entries).join("").replace(/\n$/, ""), 200));
    expect(exitTail(entries, 200)).toContain("[stderr] fatal: late");
    expect(exitTail(out(300), 200)).toBe(lastLines(labelOutput(out(300)).join("").replace(/\n$/, ""), 200));
  });

  it("adds stderr's last lines when later stdout pushed them out, within the bound", () => {
    const tail = exitTail([err("fatal: early\n"), ...out(300)], 200, "op 'output' reads them");
    const lines = tail.split("\n");
    expect(lines[0]).toMatch(/^\(\d+ earlier lines left out; op 'output' reads them\)$/);
    expect(lines.slice(-3)).toEqual([
      "step 299",
      "(the program's last lines on stderr, written before the lines above:)",
      "[stderr] fatal: early",
    ]);
    expect(tail.length).toBeLessThan(200 + 60);
    // A clean exit: the plain tail.
    const clean = [err("note: early\n"), ...out(300)];
    expect(exitTail(clean, 200, undefined, false)).toBe(
      lastLines(labelOutput(clean).join("").replace(/\n$/, ""), 200),
    );
  });

  it("keeps a long traceback's end (the error) within its share", () => {
    const traceback = Array.from({ length: 100 }, (_, i) => err(`  File "x.py", line ${i}\n`));
    const tail = exitTail([...traceback, err("ValueError: boom\n"), ...out(500)], 1500);
    expect(tail.endsWith("[stderr] ValueError: boom")).toBe(true);
    const stderrPart = tail.slice(tail.indexOf("(the program's last lines on stderr"));
    expect(stderrPart.length).toBeLessThan(700);
    expect(tail.length).toBeLessThan(1600);
  });

  it("leaves out debugpy's frames of a traceback, in the tail and in stderr's share, saying so", () => {
    const traceback = [
      err("Traceback (most recent call last):\n"),
      err('  File "/usr/lib/python3/dist-packages/debugpy/server/cli.py", line 284, in run_file\n'),
      err("    runpy.run_path(target)\n"),
      err('  File "/home/me/app.py", line 2, in <module>\n'),
      err("    boom()\n"),
      err("ValueError: boom\n"),
    ];
    const shown = [
      "[stderr] Traceback (most recent call last):",
      "[stderr]   … 1 debugger frame left out (op 'output' shows them)",
      '[stderr]   File "/home/me/app.py", line 2, in <module>',
      "[stderr]     boom()",
      "[stderr] ValueError: boom",
    ];
    expect(exitTail(traceback, 1500).split("\n")).toEqual(shown);
    const tail = exitTail([...traceback, ...out(500)], 1500);
    expect(tail.split("\n").slice(-6)).toEqual([
      "(the program's last lines on stderr, written before the lines above:)",
      ...shown,
    ]);
  });

  it("counts the lines it left out as op 'output' has them, debugpy's frames too", () => {
    const debugpy = "/usr/lib/python3/dist-packages/debugpy";
    const traceback = [
      err("Traceback (most recent call last):\n"),
      err('  File "/usr/lib/python3.11/runpy.py", line 88, in _run_code\n'),
      err("    exec(code, run_globals)\n"),
      err(`  File "${debugpy}/__main__.py", line 39, in <module>\n`),
      err("    cli.main()\n"),
      err(`  File "${debugpy}/server/cli.py", line 284, in run_file\n`),
      err("    runpy.run_path(target)\n"),
      err('  File "/home/me/app.py", line 2, in <module>\n'),
      err("    boom()\n"),
      err("ValueError: boom\n"),
    ];
    // 10 lines of the traceback, then 300 of stdout; the tail shows the last of them only.
    const entries = [...traceback, ...out(300)];
    const tail = exitTail(entries, 200, "op 'output' reads them", false);
    const shown = tail.split("\n").length - 1;
    expect(tail.split("\n")[0]).toBe(`(${310 - shown} earlier lines left out; op 'output' reads them)`);
    // Failed: stderr's share is counted so too, when the cut falls inside the traceback.
    const share = exitTail([...traceback, ...out(300)], 260);
    const stderrPart = share.split(
      "(the program's last lines on stderr, written before the lines above:)\n",
    )[1]!;
    const stderrShown = stderrPart.split("\n").length - 1;
    expect(stderrPart.split("\n")[0]).toBe(`(${10 - stderrShown} earlier lines left out)`);
  });
});
