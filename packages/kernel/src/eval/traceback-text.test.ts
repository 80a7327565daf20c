import { describe, expect, it } from "vitest";
import { tracebackText } from "./traceback-text.js";

describe("tracebackText", () => {
  const frames = Array.from({ length: 900 }, (_, i) => `File <string>:${2 * i + 2}, in f${i}(x)\n`);

  it("is the traceback as it is when it fits", () => {
    const error = {
      ename: "ValueError",
      evalue: "boom",
      traceback: ["Cell In [1], line 1\n----> 1 f()\n", "ValueError: boom"],
    };
    expect(tracebackText(error, 1000, 20)).toBe("Cell In [1], line 1\n----> 1 f()\n\nValueError: boom");
  });

  it("keeps the innermost frames and the exception's type and start, cutting middle frames and the message", () => {
    const evalue = "deep ".repeat(2000);
    const text = tracebackText(
      { ename: "ValueError", evalue, traceback: [...frames, `ValueError: ${evalue}`] },
      10_000,
      200,
    );
    expect(text.length).toBeLessThanOrEqual(10_000);
    expect(text.split("\n").length).toBeLessThanOrEqual(201);
    expect(text).toMatch(/^File <string>:2, in f0\(x\)\n/);
    expect(text).toMatch(/\n… [\d,]+ lines \([\d,]+ characters\) of the traceback omitted here …\n/);
    expect(text).toMatch(
      /in f899\(x\)\n\nValueError: deep deep [^\n]*\n… [\d,]+ characters of the message omitted here …$/,
    );
  });

  it("keeps every chained exception's line and the separators, cutting only frames", () => {
    const side = (name: string) =>
      Array.from(
        { length: 200 },
        (_, i) =>
          `File <string>:${i + 2}, in ${name}${i}(x)\n      1 def ${name}${i}(x):\n----> 2     return ${name}${i + 1}(x)\n`,
      );
    const header = (ename: string) => `${ename.padEnd(42)}Traceback (most recent call last)`;
    const traceback = [
      "-".repeat(75),
      header("KeyError"),
      ...side("f"),
      "KeyError: 'missing_key'",
      "\nDuring handling of the above exception, another exception occurred:\n",
      header("TypeError"),
      ...side("h"),
      "TypeError: bad key",
      "\nThe above exception was the direct cause of the following exception:\n",
      header("ValueError"),
      ...side("g"),
      "ValueError: lookup failed",
    ];
    const text = tracebackText({ ename: "ValueError", evalue: "lookup failed", traceback }, 10_000, 200);
    expect(text.length).toBeLessThanOrEqual(10_000);
    expect(text.split("\n").length).toBeLessThanOrEqual(201);
    expect(text).toMatch(
      / in f199\(x\)\n.*\n.*\n\nKeyError: 'missing_key'\n\nDuring handling of the above exception, another exception occurred:\n\nTypeError +Traceback/,
    );
    expect(text).toMatch(
      / in h199\(x\)\n.*\n.*\n\nTypeError: bad key\n\nThe above exception was the direct cause of the following exception:\n\nValueError +Traceback/,
    );
    expect(text).toMatch(/ in g199\(x\)\n.*\n.*\n\nValueError: lookup failed$/);
    expect(text.match(/of the traceback omitted here …/g)).toHaveLength(3);
  });

  it("keeps the start of a message of many lines, and the frame that raised it", () => {
    const evalue = Array.from({ length: 1000 }, (_, i) => `option ${i}`).join("\n");
    const text = tracebackText(
      { ename: "KeyError", evalue, traceback: [...frames, `KeyError: ${evalue}`] },
      10_000,
      200,
    );
    expect(text).toMatch(/in f899\(x\)\n\nKeyError: option 0\noption 1\n/);
    expect(text).toMatch(/\n… 9\d\d lines \([\d,]+ characters\) of the message omitted here …$/);
    expect(text.split("\n").length).toBeLessThanOrEqual(201);
  });

  it("cuts a very long line in a frame after its start, saying how much it left out", () => {
    const long = `----> 1 x = '${"a".repeat(50_000)}'`;
    const text = tracebackText(
      { ename: "NameError", evalue: "y", traceback: [`Cell In [1], line 1\n${long}\n`, "NameError: y"] },
      10_000,
      200,
    );
    expect(text).toMatch(
      /^Cell In \[1\], line 1\n----> 1 x = 'a+ … \([\d,]+ more characters of this line omitted\)\n\nNameError: y$/,
    );
  });

  it("keeps the start and the end of a traceback of another form: JavaScript's message comes first", () => {
    const stack = [
      "Error: " + "long ".repeat(3000),
      ...Array.from({ length: 300 }, (_, i) => `    at f${i} (cell-1.js:${i + 1}:1)`),
    ];
    const text = tracebackText({ ename: "Error", evalue: "long", traceback: stack }, 10_000, 200);
    expect(text).toMatch(/^Error: long long /);
    expect(text).toMatch(/at f299 \(cell-1\.js:300:1\)$/);
    expect(text.length).toBeLessThanOrEqual(10_000);
  });

  it("keeps every sub-exception's header and exception line of a group over the limits, cutting frames", () => {
    const sub = (i: number) =>
      [
        "",
        `+---------------- sub-exception ${i} of 15 ----------------`,
        "-".repeat(75),
        `ValueError${" ".repeat(32)}Traceback (most recent call last)`,
        ...Array.from(
          { length: 40 },
          (_, f) => `Cell In [3], line ${f + 1}, in dive(n, i)\n----> ${f + 1} return dive(n - 1, i)\n`,
        ),
        `ValueError: task ${i} failed: ${"x".repeat(900)} … (99,100 more characters of the message omitted)`,
      ].join("\n");
    const group = `ExceptionGroup: many (15 sub-exceptions)\n${Array.from({ length: 15 }, (_, i) => sub(i + 1)).join("\n")}`;
    const traceback = [
      "-".repeat(75),
      "Cell In [3], line 9\n----> 9 raise ExceptionGroup('many', errors)\n",
      group,
    ];
    const text = tracebackText(
      { ename: "ExceptionGroup", evalue: "many (15 sub-exceptions)", traceback },
      10_000,
      200,
    );
    expect(text.length).toBeLessThanOrEqual(10_000);
    expect(text.split("\n").length).toBeLessThanOrEqual(201);
    for (let i = 1; i <= 15; i++) {
      expect(text).toContain(`\n+---------------- sub-exception ${i} of 15 ----------------\n`);
      const line = new RegExp(
        `\\nValueError: task ${i} failed: (x+) … \\(([\\d,]+) more characters of the message omitted\\)`,
      ).exec(text);
      // Cut again by the harness: the count is still that of the whole message.
      expect(Number((line?.[2] ?? "0").replaceAll(",", "")) + (line?.[1]?.length ?? 0)).toBe(100_000);
    }
    expect(text.match(/of the traceback omitted here …/g)).toHaveLength(15);
  });
  it("counts the sub-exceptions the kernel left out with those it leaves out itself", () => {
    // The kernel formatted 9 of 15 sub-exceptions (its budget of characters) and said so on the
    // line after the 9th: "… and 6 more sub-exceptions". Before, when the 9th was left out here
    // too, that line went with it and the result said "5 more" of a group showing 4 of 15.
    const sub = (i: number) =>
      [
        "",
        `+---------------- sub-exception ${i} of 15 ----------------`,
        `ValueError${" ".repeat(32)}Traceback (most recent call last)`,
        ...Array.from(
          { length: 30 },
          () => `Cell In [1], line 4, in dive(n, i)\n----> 4 return dive(n - 1, i)\n`,
        ),
        `ValueError: sub ${i}`,
      ].join("\n");
    const group =
      `ExceptionGroup: many (15 sub-exceptions)\n${Array.from({ length: 9 }, (_, i) => sub(i + 1)).join("\n")}` +
      "\n\n… and 6 more sub-exceptions";
    const traceback = [
      "-".repeat(75),
      "Cell In [1], line 11\n---> 11 raise ExceptionGroup('many', errors)\n",
      group,
    ];
    const text = tracebackText(
      { ename: "ExceptionGroup", evalue: "many (15 sub-exceptions)", traceback },
      750,
      20,
    );
    expect(text.length).toBeLessThanOrEqual(750);
    const shown = text.match(/\n\+-+ sub-exception \d+ of 15 -+\n/g)?.length ?? 0;
    expect(shown).toBeGreaterThan(0);
    expect(shown).toBeLessThan(9);
    const left = /\n… (\d+) more sub-exceptions left out here/.exec(text);
    expect(Number(left?.[1])).toBe(15 - shown);
    expect(text).not.toContain("and 6 more");
  });
  it("gives an exception that is not a group half of the budget, as before groups got three quarters", () => {
    // Before: a message between half and three quarters of the budget was kept whole, and the
    // frames (where it was raised) got what was left.
    const frames = Array.from(
      { length: 60 },
      (_, i) => `File "/app/mod.py", line ${i}, in f${i}\n    f${i + 1}()\n`,
    );
    const traceback = ["Traceback (most recent call last):", ...frames, `ValueError: ${"m".repeat(2_800)}`];
    const text = tracebackText({ ename: "ValueError", evalue: "m", traceback }, 4_000, 80);
    const exception = text.slice(text.indexOf("\nValueError: ") + 1);
    expect(exception.length).toBeLessThanOrEqual(2_000);
    expect(exception).toMatch(/^ValueError: m+\n… [\d,]+ characters of the message omitted here …$/);
    expect(text.length).toBeLessThanOrEqual(4_000);
  });
});
