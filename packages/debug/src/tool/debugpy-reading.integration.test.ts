import { expect, it } from "vitest";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DebugProtocol } from "@vscode/debugprotocol";
import { debugRun } from "../__fixtures__/harness.js";
import { describeDebugpy } from "../__fixtures__/describe-debugpy.js";

// What the tool reads back from a debugpy session, as a model reads it: a stack deeper than one
// page, a list longer than one answer, output of two streams, the launch's own description.

describeDebugpy("debug tool on debugpy: reading a deep stack, a long list, two streams", (project) => {
  it("pages a stack deeper than 30 frames, and any listed frame of the stop reads its variables", async () => {
    const { run, call, supervisor } = debugRun(project.dir);
    try {
      await call({ op: "breakpoints", file: "fact.py", lines: [3] });
      const launch = await call({ op: "launch", program: "fact.py", args: ["a b", "--x=1", "it's"] });
      expect(launch.isError, launch.text).toBe(false);
      // The arguments as a shell would take them back: their boundaries are kept.
      expect(launch.text).toMatch(/^started debugpy: fact\.py 'a b' --x=1 'it'\\''s'\n/);
      expect(launch.text).toContain("fact.py:3 in fact");

      // fact(40): 40 frames of fact and the module's: 30 on the first page, 11 on the next.
      const first = await call({ op: "stack" });
      expect(first.text.match(/^#\d+ frame /gm)).toHaveLength(30);
      expect(first.text).toMatch(
        /\n#29 frame \d+ fact at fact\.py:4 {2}\| return n \* fact\(n - 1\)\n… 11 more frames \(#30–#40\): list them with \{"op":"stack","start_frame":30\}$/,
      );

      // The module's frame, as the adapter numbers it, before any page listed it.
      const session = supervisor.conversation("conv-1").session!;
      const raw = await session.request<DebugProtocol.StackTraceResponse>("stackTrace", {
        threadId: session.lastStop!.threadId,
        startFrame: 40,
        levels: 1,
      });
      const moduleFrame = raw.body.stackFrames[0]!;
      expect(moduleFrame.name).toBe("<module>");
      const early = await call({ op: "evaluate", expression: "data", frame_id: moduleFrame.id });
      expect(early.code).toBe("DEBUG_BAD_ARGUMENTS");
      expect(early.text).toBe(
        `frame ${moduleFrame.id} is in the current stop (#40 of thread ${session.lastStop!.threadId}) but not listed yet: ` +
          'list its page first with {"op":"stack","start_frame":30}',
      );

      const second = await call({ op: "stack", start_frame: 30 });
      expect(second.text).toMatch(/^thread \d+, frames #30–#40 of 41\n#30 frame \d+ fact at fact\.py:4/);
      expect(second.text).toMatch(
        new RegExp(`\\n#40 frame ${moduleFrame.id} <module> at fact\\.py:8 {2}\\| print`),
      );
      expect(second.text).not.toContain("more frame");

      const data = await call({ op: "evaluate", expression: "data", frame_id: moduleFrame.id });
      expect(data.isError, data.text).toBe(false);
      expect(data.text).toMatch(/^\[0, 1, 2, .*\(list\) {2}\[reference \d+\]$/);
      const scopes = await call({ op: "scopes", frame_id: moduleFrame.id });
      expect(scopes.text).toMatch(/Locals: reference \d+/);

      // 80 items: 50 shown, 30 left; debugpy's len() entry and groups are not items.
      const items = await call({
        op: "variables",
        reference: Number(/\[reference (\d+)\]/.exec(data.text)![1]),
      });
      expect(items.text.split("\n")).toHaveLength(51);
      expect(items.text).toMatch(/^00 \(int\) = 0\n/);
      expect(items.text).toMatch(
        /\n49 \(int\) = 49\n… 30 more: 50 of 80 shown; evaluate reads any of them, e.g. \{"op":"evaluate","expression":"data\[50\]"\}$/,
      );

      const past = await call({ op: "stack", start_frame: 41 });
      expect(past.code).toBe("DEBUG_BAD_ARGUMENTS");
      expect(past.text).toBe(
        `start_frame 41 is past the end of thread ${session.lastStop!.threadId}'s stack: it has 41 frames (#0–#40); give 0 to 40`,
      );

      // After a resume: the frame that returned is refused as none of this stop's; the module's
      // frame lives on (debugpy keeps its id), one deeper, to be listed again.
      const top = Number(/^#0 frame (\d+)/m.exec(first.text)![1]);
      const out = await call({ op: "step_out" });
      expect(out.text).toContain("stopped (step)");
      const stale = await call({ op: "evaluate", expression: "n", frame_id: top });
      expect(stale.code).toBe("DEBUG_STALE_REFERENCE");
      expect(stale.text).toBe(
        `frame ${top} is not a frame of the current stop (frame ids are valid only until the program resumes); ` +
          "get fresh ones with op 'stack'",
      );
      const relist = await call({ op: "evaluate", expression: "data", frame_id: moduleFrame.id });
      expect(relist.code).toBe("DEBUG_BAD_ARGUMENTS");
      expect(relist.text).toContain(`frame ${moduleFrame.id} is in the current stop (#39 of thread `);
    } finally {
      await run.dispose();
    }
  });

  it("labels every stderr line and never inside a line the other stream left open; the exit's output starts at a line", async () => {
    const { run, call } = debugRun(project.dir);
    try {
      const launch = await call({ op: "launch", program: "noisy.py" });
      expect(launch.isError, launch.text).toBe(false);
      expect(launch.text).toContain("the program exited with code 0");
      const recent = launch.text.split("recent output:\n")[1]!.split("\n");
      expect(recent[0]).toMatch(/^\(\d+ earlier lines left out; op 'output' reads them\)$/);
      expect(recent.at(-1)).toBe("out line 2999");
      for (const line of recent.slice(1)) expect(line).toMatch(/^out line \d+$/);

      const output = await call({ op: "output" });
      const lines = output.text.split("\n");
      expect(lines).toContain("[stderr] err one");
      expect(lines).toContain("[stderr] err two");
      for (const line of lines) expect(line.indexOf("[stderr]")).toBeLessThanOrEqual(0);
      expect(lines[0]).toBe("out partial");
    } finally {
      await run.dispose();
    }
  });

  it("labels a blank stderr line as every other stderr line", async () => {
    const { run, call } = debugRun(project.dir);
    try {
      const launch = await call({ op: "launch", program: "blank_stderr.py" });
      expect(launch.text).toContain("the program exited with code 0");
      const output = await call({ op: "output" });
      // The streams come through apart: their order, and where print's newline falls, vary.
      expect(output.text).toContain("[stderr] e1\n[stderr]\n[stderr] e3\n");
      const lines = output.text.split("\n").slice(0, -1);
      expect(lines.sort()).toEqual(["[stderr]", "[stderr] e1", "[stderr] e3", "out1", "out2"]);
    } finally {
      await run.dispose();
    }
  });

  it("reads every line of one big write, page after page: a page ends inside the adapter's chunk", async () => {
    const { run, call } = debugRun(project.dir);
    try {
      const launch = await call({ op: "launch", program: "burst.py" });
      expect(launch.isError, launch.text).toBe(false);
      expect(launch.text).toContain("the program exited with code 0");
      let cursor = 0;
      let read = "";
      for (let page = 0; page < 1000; page++) {
        const output = await call({ op: "output", cursor });
        expect(output.text).not.toContain("dropped");
        const next = Number(/\(next cursor: (\d+)[^\n]*\)$/.exec(output.text)![1]);
        read += output.text.slice(0, output.text.lastIndexOf("\n(next cursor:") + 1);
        if (output.text.endsWith("no more output yet)")) break;
        cursor = next;
      }
      const rows = Array.from({ length: 20_000 }, (_, i) => `row ${i}\n`).join("");
      expect(read).toBe(`${rows}last line, no newline\n`);
    } finally {
      await run.dispose();
    }
  });

  it("shows, with an exit a continue or step ends in, what the program wrote on the way (the why of the exit)", async () => {
    writeFileSync(
      join(project.dir, "quits.py"),
      [
        "import os, sys",
        "print('before', flush=True)",
        "print('checking config', flush=True)",
        "print('fatal: missing config file', file=sys.stderr, flush=True)",
        "os._exit(4)",
        "",
      ].join("\n"),
    );
    const { run, call } = debugRun(project.dir);
    try {
      await call({ op: "breakpoints", file: "quits.py", lines: [3] });
      const launch = await call({ op: "launch", program: "quits.py" });
      expect(launch.text, launch.text).toContain("quits.py:3");
      const done = await call({ op: "continue" });
      // The exit, then only what the continue let the program write (not 'before'), and the
      // cursor that reads it all. debugpy reads the two pipes apart: their lines may come in
      // either order.
      const [exit, header, ...lines] = done.text.split("\n");
      expect(exit).toBe("the program exited with code 4; the session has ended");
      expect(header).toBe('output since the continue (read it with {"op":"output","cursor":1}):');
      expect(lines.sort()).toEqual(["[stderr] fatal: missing config file", "checking config"]);
      const read = await call({ op: "output", cursor: 1 });
      expect(read.text.split("\n").slice(0, 2).sort()).toEqual(lines);
    } finally {
      await run.dispose();
    }
  });

  it("lists breakpoints by file, then line, before and after launch", async () => {
    const { run, call } = debugRun(project.dir);
    try {
      await call({ op: "breakpoints", file: "loop.py", lines: [5] });
      const set = await call({ op: "breakpoints", file: "app.py", lines: [12, 6] });
      expect(set.text).toBe(
        "app.py: lines 6, 12 pending; they are sent when the program is launched or attached",
      );
      const before = await call({ op: "status" });
      expect(before.text).toContain(
        "breakpoints:\napp.py: lines 6, 12 (pending: sent at launch or attach)\nloop.py: lines 5 (pending: sent at launch or attach)",
      );
      const launch = await call({ op: "launch", program: "app.py" });
      expect(launch.isError, launch.text).toBe(false);
      expect(launch.text).toMatch(
        /\napp\.py\n {2}line 6: verified[^\n]*\n {2}line 12: verified[^\n]*\nloop\.py\n {2}line 5: /,
      );
      const again = await call({ op: "breakpoints", file: "app.py", lines: [12, 6] });
      expect(again.text).toMatch(/^app\.py\n {2}line 6: verified[^\n]*\n {2}line 12: verified/);
    } finally {
      await run.dispose();
    }
  });

  it("names a program without a root marker by its path in the working directory", async () => {
    const bare = mkdtempSync(join(tmpdir(), "debug-no-marker-"));
    const { run, call } = debugRun(bare);
    try {
      mkdirSync(join(bare, "pyx"));
      writeFileSync(join(bare, "pyx", "s.py"), "print(1)\n");
      const launch = await call({ op: "launch", program: "pyx/s.py" });
      expect(launch.code).toBe("DEBUG_ADAPTER_UNUSABLE");
      expect(launch.text).toMatch(
        /^cannot debug pyx\/s\.py with debugpy: no root marker \(pyproject\.toml, setup\.py, requirements\.txt\) from pyx up to the working directory/,
      );
      expect(launch.text).not.toContain(bare);
    } finally {
      await run.dispose();
      rmSync(bare, { recursive: true, force: true });
    }
  });
});
