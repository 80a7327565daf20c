import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import {
  defineTool,
  resultText,
  textResult,
  ToolsError,
  type Registry,
  type Run,
  type ToolResult,
} from "@tools/registry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { ci, makeRun, makeWorkspace, pythonFound } from "../__fixtures__/workspace.js";

const describePython = describe.skipIf(!pythonFound && !ci);

/** Waits until `path` exists (a cell's thread writes it), for at most 30 s. */
async function untilExists(path: string): Promise<void> {
  for (const deadline = Date.now() + 30_000; !existsSync(path);) {
    if (Date.now() > deadline) throw new Error(`${path} never appeared`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

describePython("eval on a real ipykernel", () => {
  let workspace: ReturnType<typeof makeWorkspace>;
  let registry: Registry;
  let run: Run;
  const cell = (code: string, extra: Record<string, unknown> = {}): Promise<ToolResult> =>
    registry.invoke(run, {
      tool: "eval",
      args: { code, description: "run a python test cell here", ...extra },
    });

  beforeAll(() => {
    expect(pythonFound).toBe(true);
    workspace = makeWorkspace();
    ({ registry, run } = makeRun(workspace.directory));
  });
  afterAll(async () => {
    await run?.dispose();
    workspace?.remove();
  });

  it("keeps state between cells and echoes the last expression after the prints", async () => {
    const first = await cell("x = 20\nprint('set x')");
    expect(resultText(first)).toBe("set x");
    const second = await cell("import sys\nprint(sys.executable)\nx * 2 + 2");
    expect(second.isError).toBe(false);
    expect(resultText(second)).toBe(`${join(workspace.directory, ".venv", "bin", "python")}\n42`);
  });

  it("shows what a thread printed after its cell finished at the top of the next cell, labelled", async () => {
    const flag = join(workspace.directory, "late-thread.flag");
    const go = join(workspace.directory, "late-thread.go");
    // The thread waits for the test to say the cell has answered: it is late for certain.
    const started = await cell(
      `import threading, time, os\ndef w():\n    while not os.path.exists(${JSON.stringify(go)}):\n        time.sleep(0.02)\n    print('late thread line', flush=True)\n    open(${JSON.stringify(flag)}, 'w').close()\nthreading.Thread(target=w).start()\nprint('started')`,
    );
    expect(resultText(started)).toBe("started");
    writeFileSync(go, "");
    await untilExists(flag);
    const next = await cell("print('next cell')");
    expect(next.isError).toBe(false);
    expect(resultText(next)).toBe(
      "after the previous cell finished:\nlate thread line\n(end of what came after the previous cell)\n\nnext cell",
    );
    expect(resultText(await cell("print('and then')"))).toBe("and then");
  });

  it("keeps prints and stderr (a warning, a log line) in the order the cell wrote them", async () => {
    // Before: each stream was sent on its own timer, so stderr came out wherever its flush fell
    // ("a c d b", a warning after the prints that followed it, a log line before the prints
    // that came first).
    const mixed = await cell(
      "import sys, warnings, logging\nprint('a')\nsys.stderr.write('b\\n')\nprint('c')\n" +
        "warnings.warn('careful')\nprint('d')\nlogging.getLogger('order').error('logged')\nprint('e')",
    );
    expect(mixed.isError).toBe(false);
    expect(resultText(mixed)).toMatch(
      /^a\nb\nc\n\S+: UserWarning: careful\n {2}warnings\.warn\('careful'\)\nd\nlogged\ne$/,
    );
    const many = await cell("for i in range(20_000):\n    sys.stderr.write(f'warn {i}\\n')\nprint('done')");
    expect(resultText(many)).toMatch(/\nwarn 19999\ndone$/);
    // A child's output to both is sent as before: stdout's first once it has ended, then the rest.
    const child = await cell(
      "import os\nos.system('echo fd-out; echo fd-err >&2')\nprint('p')\n_ = sys.stderr.write('s\\n')",
    );
    expect(resultText(child)).toBe("fd-out\nfd-err\np\ns");
  });

  it("sends a cell switching between prints and stderr 20 000 times whole and in order, in a few messages", async () => {
    // Before: each switch was a message of its own, sent at once: 40 times slower than one
    // stream, and what the iopub socket could not queue (1 000 messages) was dropped, lines
    // missing from the middle; an interrupt's flush waited 10 s behind them.
    const wide = makeRun(workspace.directory, { limits: { maxChars: 1_000_000, maxLines: 100_000 } });
    try {
      const count = (code: string) =>
        wide.registry.invoke(wide.run, {
          tool: "eval",
          args: { code, description: "switch between stdout and stderr" },
        });
      await count(
        "import sys\nsent = [0]\nreally_send = sys.stdout.pub_thread._really_send\n" +
          "def counting(*args, **kwargs):\n    sent[0] += 1\n    return really_send(*args, **kwargs)\n" +
          "sys.stdout.pub_thread._really_send = counting",
      );
      const switching = await count(
        "sent[0] = 0\nfor i in range(20_000):\n    print(i)\n    print(-i, file=sys.stderr)",
      );
      const expected = Array.from({ length: 20_000 }, (_, i) => `${i}\n${-i}`).join("\n");
      expect(resultText(switching) === expected).toBe(true);
      // Four threads writing both at once: each one's lines all there, in its order.
      const threads = await count(
        "messages = sent[0]\nimport threading\ndef write(k):\n    for i in range(3000):\n" +
          "        sys.stdout.write(f'o{k} {i}\\n')\n        sys.stderr.write(f'e{k} {i}\\n')\n" +
          "workers = [threading.Thread(target=write, args=(k,)) for k in range(4)]\n" +
          "for worker in workers: worker.start()\nfor worker in workers: worker.join()",
      );
      const lines = resultText(threads).split("\n");
      for (const name of ["o0", "o1", "o2", "o3", "e0", "e1", "e2", "e3"]) {
        const own = lines.filter((line) => line.startsWith(`${name} `));
        expect(own.join("\n") === Array.from({ length: 3000 }, (_, i) => `${name} ${i}`).join("\n")).toBe(
          true,
        );
      }
      // The cell's messages (its streams, idle, the next cell's busy and input): a few, not 40 000.
      expect(
        Number(resultText(await count("sys.stdout.pub_thread._really_send = really_send\nmessages"))),
      ).toBeLessThan(100);
    } finally {
      await wide.run.dispose();
    }
  });

  it("finishes a cell whose signal handler writes while the cell switches between prints and stderr", async () => {
    // Before: a handler that ran while the cell's own write held the lock of the ordering of
    // prints and stderr waited for that lock for good (a plain Lock, held by the frame it
    // interrupted), and the cell hung.
    const own = makeRun(workspace.directory, { inactivityMs: 10_000 });
    try {
      const handled = await own.registry.invoke(own.run, {
        tool: "eval",
        args: {
          description: "a signal handler writes while the cell prints",
          code:
            "import signal, sys\nhits = [0]\ndef handler(signum, frame):\n    hits[0] += 1\n" +
            "    sys.stderr.write('tick\\n')\nsignal.signal(signal.SIGALRM, handler)\n" +
            "signal.setitimer(signal.ITIMER_REAL, 0.0005, 0.0005)\ntry:\n    for i in range(30_000):\n" +
            "        sys.stdout.write(f'{i}\\n')\n        sys.stderr.write(f'-{i}\\n')\n" +
            "finally:\n    signal.setitimer(signal.ITIMER_REAL, 0, 0)\n" +
            "print('done', hits[0] > 0)",
        },
      });
      expect(resultText(handled)).toMatch(/done True$/);
      // A handler's print(..., flush=True) there waited 10 s for the IO thread, which waited for
      // that lock; the handlers that came meanwhile piled up to a RecursionError. Every 20 ms, not
      // 5: one loaded CI run ended this cell in an error at 5 ms (its text was not logged then; the
      // assertion now shows it), likely handlers nesting while a starved flush outlasts a tick.
      const flushed = await own.registry.invoke(own.run, {
        tool: "eval",
        args: {
          description: "a signal handler flushes while the cell prints",
          code:
            "def handler(signum, frame):\n    hits[0] += 1\n    print('tick', file=sys.stderr, flush=True)\n" +
            "hits[0] = 0\nsignal.signal(signal.SIGALRM, handler)\nsignal.setitimer(signal.ITIMER_REAL, 0.02, 0.02)\n" +
            "try:\n    for i in range(100_000):\n        sys.stdout.write(f'{i}\\n')\n        sys.stderr.write(f'-{i}\\n')\n" +
            "finally:\n    signal.setitimer(signal.ITIMER_REAL, 0, 0)\nprint('done', hits[0] > 0)",
        },
      });
      expect(flushed.isError, resultText(flushed).slice(-1500)).toBe(false);
      expect(resultText(flushed)).toMatch(/done True$/);
    } finally {
      await own.run.dispose();
    }
  });

  it("applies carriage returns before bounding: 20 000 progress updates are the last one", async () => {
    const progress = await cell("for i in range(20000): print(f'\\r{i}', end='')");
    expect(resultText(progress)).toBe("19999");
  });

  it("returns an error with its traceback and no colour codes", async () => {
    const result = await cell("def f():\n    return 1 / 0\nprint('before')\nf()");
    expect(result.isError).toBe(true);
    expect(result.error?.code).toBe("CELL_ERROR");
    const text = resultText(result);
    expect(text.startsWith("before\n")).toBe(true);
    expect(text).toContain("ZeroDivisionError");
    expect(text).toContain("return 1 / 0");
    expect(text).not.toContain("\u001b[");
  });

  it("shows both lines of a frame that raises again an exception it caught (raise last)", async () => {
    // Before: a frame twice in a row in the traceback was shown once (meant for the one a trace
    // function of ours raises in), so the line that raised it again was left out.
    const result = await cell(
      "def do():\n    raise OSError('x')\ndef fetch():\n    last = None\n    for i in range(2):\n        try:\n" +
        "            return do()\n        except OSError as e:\n            last = e\n    raise last\nfetch()",
    );
    expect(result.error?.code).toBe("CELL_ERROR");
    expect(resultText(result)).toMatch(
      /---> 11 fetch\(\)\n\nCell In \[\d+\], line 10, in fetch\(\)\n[\s\S]*---> 10 +raise last\n\nCell In \[\d+\], line 7, in fetch\(\)\n[\s\S]*----> 7 +return do\(\)\n[\s\S]*----> 2 +raise OSError\('x'\)\n\nOSError: x$/,
    );
  });

  it("names an SVG it does not show, and reads Markdown, LaTeX and JSON displays as text", async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><circle r="5"/></svg>';
    const result = await cell(
      `from IPython.display import SVG, Markdown, Latex, JSON, display\ndisplay(SVG('${svg}'))\ndisplay(Markdown('# title'))\ndisplay(Latex('$x^2$'))\ndisplay(JSON({'a': 1}))`,
    );
    expect(result.isError).toBe(false);
    expect(resultText(result)).toBe(
      `[image/svg+xml, ${svg.length} bytes, not shown]\n# title\n$x^2$\n{\n  "a": 1\n}`,
    );
  });

  it("says an image over the size limit is over the size limit, not over a count", async () => {
    const result = await cell(
      "from IPython.display import Image, display\ndisplay(Image(data=b'\\x89PNG\\r\\n\\x1a\\n' + bytes(6 * 1024 * 1024), format='png'))",
    );
    expect(resultText(result)).toBe(
      "[image/png, 6,291,464 bytes, not shown: over the size limit of 5 MB per image (8,388,620 bytes as base64, as the model gets it)]\n\n" +
        "… 1 image was left out (over the size limits of 5 MB per image as base64 and 8000 pixels a side); draw smaller images (a smaller figure size or dpi), or save them to files.",
    );
  });

  it("leaves out an image whose base64 is over 5 MB, or a side over 8000 pixels: the model's API refuses either", async () => {
    // 4 MiB of PNG is 5.6 MB as base64, which is what the model gets (and what the 5 MB limit of
    // its API counts): a request holding it fails, and so does every later one of the conversation.
    const heavy = await cell(
      "from IPython.display import Image, display\ndisplay(Image(data=b'\\x89PNG\\r\\n\\x1a\\n' + bytes(4 * 1024 * 1024), format='png'))",
    );
    expect(heavy.content.filter((part) => part.type === "image")).toHaveLength(0);
    expect(resultText(heavy)).toBe(
      "[image/png, 4,194,312 bytes, not shown: over the size limit of 5 MB per image (5,592,416 bytes as base64, as the model gets it)]\n\n" +
        "… 1 image was left out (over the size limits of 5 MB per image as base64 and 8000 pixels a side); draw smaller images (a smaller figure size or dpi), or save them to files.",
    );
    // A long time series drawn wide: a few KB, over 9 000 pixels across.
    const wide = await cell(
      "import matplotlib.pyplot as plt\nfig = plt.figure(figsize=(120, 2), dpi=100)\nplt.plot(range(10))\nplt.close(fig)\ndisplay(fig)",
    );
    expect(wide.content.filter((part) => part.type === "image")).toHaveLength(0);
    expect(resultText(wide)).toMatch(
      /^\[image\/png, [\d,]+ bytes, not shown: over the size limit of 8000 pixels a side \(\d{4,}×\d+\)\]\n/,
    );
    const fits = await cell(
      "fig = plt.figure(figsize=(70, 2), dpi=100)\nplt.plot(range(10))\nplt.close(fig)\ndisplay(fig)",
    );
    expect(fits.content.filter((part) => part.type === "image")).toHaveLength(1);
  });

  it("keeps the raising frame and the exception's start in a deep traceback with a long message", async () => {
    const result = await cell(
      "src = '\\n'.join(f'def f{i}(x):\\n    return f{i+1}(x)' for i in range(900)) + '\\ndef f900(x):\\n    raise ValueError(\"deep \" * 2000)'\n" +
        "exec(src)\nf0(1)",
    );
    expect(result.error?.code).toBe("CELL_ERROR");
    const text = resultText(result);
    // The cell's own line, the innermost frames and the exception's type and start stay.
    expect(text).toMatch(/^-+\nValueError +Traceback \(most recent call last\)\n/);
    expect(text).toContain("f0(1)");
    expect(text).toMatch(/ in f899\(x\)\n+.* in f900\(x\)\n+ValueError: deep deep deep /);
    expect(text).toMatch(/of the traceback omitted here …/);
    expect(text).toMatch(
      /\nValueError: deep (deep )+[^\n]*\n… [\d,]+ characters of the message omitted here …$/,
    );
  });

  it("keeps each chained exception's line and the separator when both sides have deep tracebacks", async () => {
    const result = await cell(
      "src = '\\n'.join(f'def f{i}(x):\\n    return f{i+1}(x)' for i in range(200)) + '\\ndef f200(x):\\n    return {}[\"missing_key\"]'\n" +
        "src += '\\n' + '\\n'.join(f'def g{i}(x):\\n    return g{i+1}(x)' for i in range(200))\n" +
        "src += '\\ndef g200(x):\\n    try:\\n        f0(x)\\n    except KeyError as error:\\n        raise ValueError(\"lookup failed\") from error'\n" +
        "exec(src)\ng0(1)",
    );
    expect(result.error?.code).toBe("CELL_ERROR");
    const text = resultText(result);
    expect(text).toMatch(/ in f200\(x\)\n[\s\S]*\nKeyError: 'missing_key'\n/);
    expect(text).toContain("\nThe above exception was the direct cause of the following exception:\n");
    expect(text).toMatch(/ in g200\(x\)\n[\s\S]*\nValueError: lookup failed$/);
    expect(text.match(/of the traceback omitted here …/g)).toHaveLength(2);
  });

  it("renders a DataFrame as a table and display() in order", async () => {
    const result = await cell(
      "import pandas as pd\ndf = pd.DataFrame({'city': ['Oslo', 'Lima'], 'temp': [4, 19]})\ndisplay('shown first')\nprint('then this')\ndf",
    );
    const text = resultText(result);
    expect(text.indexOf("shown first")).toBeLessThan(text.indexOf("then this"));
    expect(text).toMatch(/city\s+temp\n0\s+Oslo\s+4\n1\s+Lima\s+19/);
  });

  it("renders the HTML of an object whose plain form is only its default repr: a Styler, an HTML object", async () => {
    const result = await cell(
      "import pandas as pd\nfrom IPython.display import HTML, display\n" +
        "df = pd.DataFrame({'city': ['Oslo', 'Lima', 'Rome'], 'temp': [4, 19, 15]})\n" +
        "display(HTML('<b>bold</b> <table><tr><td>1</td><td>2</td></tr></table>'))\n" +
        "df.head(3).style.highlight_max()",
    );
    expect(resultText(result)).toBe(
      "bold\n| 1 | 2 |\n| --- | --- |\n" +
        "|  | city | temp |\n| --- | --- | --- |\n| 0 | Oslo | 4 |\n| 1 | Lima | 19 |\n| 2 | Rome | 15 |",
    );
  });

  it("leaves out the table row that HTML past its limit is cut in, never showing a value cut short", async () => {
    // Padding (a comment) puts the 1 000 000-character cut three digits into a value.
    const result = await cell(
      "import pandas as pd\nfrom IPython.display import HTML\n" +
        "h = pd.DataFrame({'a': range(2_000_000_000, 2_000_060_000), 'b': range(60_000)}).to_html()\n" +
        "at = h.index('<td>', 990_000) + len('<td>') + 3\n" +
        "HTML('<!--' + ' ' * (1_000_000 - at - 7) + '-->' + h)",
    );
    expect(result.isError).toBe(false);
    const lines = resultText(result).split("\n");
    const shown =
      /the table cut there shows its first (\d+) rows under its header, the row cut short left out\)$/.exec(
        lines.at(-1) ?? "",
      );
    expect(shown).not.toBeNull();
    const rows = Number(shown?.[1]);
    expect(lines.at(-2)).toBe(`| ${rows - 1} | ${2_000_000_000 + rows - 1} | ${rows - 1} |`);
  });

  it("counts the rows of a cut table under a header of two rows (a named index) right", async () => {
    // A named index puts a second row in <thead>: the rows shown are the data rows only.
    const result = await cell(
      "import pandas as pd\nfrom IPython.display import HTML\n" +
        "h = pd.DataFrame({'a': range(2_000_000_000, 2_000_060_000), 'b': range(60_000)}).rename_axis('row').to_html()\n" +
        "at = h.index('<td>', 990_000) + len('<td>') + 3\n" +
        "HTML('<!--' + ' ' * (1_000_000 - at - 7) + '-->' + h)",
    );
    expect(result.isError).toBe(false);
    const lines = resultText(result).split("\n");
    const shown =
      /the table cut there shows its first (\d+) rows under its header \(its 2 header rows not counted\), the row cut short left out\)$/.exec(
        lines.at(-1) ?? "",
      );
    expect(shown).not.toBeNull();
    const rows = Number(shown?.[1]);
    // The last row shown is row rows - 1: df.iloc[rows:] goes on from the row after it.
    expect(lines.at(-2)).toBe(`| ${rows - 1} | ${2_000_000_000 + rows - 1} | ${rows - 1} |`);
  });

  it("returns a matplotlib figure as one PNG image part, even when it is the last expression", async () => {
    const result = await cell(
      "import matplotlib.pyplot as plt\nfig, ax = plt.subplots()\nax.plot([1, 2, 3], [3, 1, 2])\nfig",
    );
    const images = result.content.filter((part) => part.type === "image");
    expect(images).toHaveLength(1);
    const image = images[0]!;
    expect(image.type === "image" && image.mimeType).toBe("image/png");
    expect(image.type === "image" && Buffer.from(image.data.subarray(1, 4)).toString()).toBe("PNG");
  });

  it("bounds huge output and says once how much was left out", async () => {
    const result = await cell("print('y' * 3_000_000)");
    const text = resultText(result);
    expect(text.length).toBeLessThan(25_000);
    expect(text.match(/[\d,]+ characters/g)).toEqual([expect.stringMatching(/^2,9\d\d,\d{3} characters$/)]);
    expect(text).toMatch(
      /^y+\n… [\d,]+ characters of output omitted here; print less, or write large output to a file and read parts of it …\ny+$/,
    );
  });

  it("keeps the error and the last lines when a cell prints a lot and then fails", async () => {
    const result = await cell("for i in range(500):\n    print(i)\nraise ValueError('boom')");
    expect(result.error?.code).toBe("CELL_ERROR");
    const text = resultText(result);
    expect(text).toMatch(/^0\n1\n/);
    expect(text).toMatch(
      /\n498\n499\n-+\nValueError +Traceback \(most recent call last\)[\s\S]*ValueError: boom$/,
    );
    expect(text.match(/omitted here/g)).toHaveLength(1);
    expect(text).toMatch(/… \d+ lines \([\d,]+ characters\) of output omitted here/);
  });

  it("ignores the JavaScript kernel's own marks when a cell sets them: no display runs on in another", async () => {
    // `tools/cut` display metadata and output_omitted messages are trusted from our JavaScript
    // kernel only; a Python cell can send both (display metadata, or the kernel's own session).
    const result = await cell(
      "from IPython.display import display\ndisplay('a', metadata={'tools/cut': True})\ndisplay('b')\n" +
        "kernel = get_ipython().kernel\n" +
        "kernel.session.send(kernel.iopub_socket, 'output_omitted', {'chars': 5, 'lines': 1}, parent=kernel.get_parent('shell'))\n" +
        "print('c')",
    );
    expect(resultText(result)).toBe("'a'\n'b'\nc");
  });

  it("rewrites magics only where a statement starts: black-style != and strings stay Python", async () => {
    const shells: string[] = [];
    const off = registry.on((event) => {
      if (event.type === "call-start" && event.tool === "shell") shells.push(event.tool);
    });
    try {
      const black = await cell("a, b = 1, 2\nif (\n    a\n    != b\n):\n    print('different')");
      expect(resultText(black)).toBe("different");
      const doc = await cell("doc = '''\n!important note\n%cd here\n'''\nprint(doc.strip())");
      expect(resultText(doc)).toBe("!important note\n%cd here");
      expect(shells).toEqual([]);
    } finally {
      off();
    }
  });

  it("rewrites %cd, !cmd (through the shell tool) and %%timeit", async () => {
    mkdirSync(join(workspace.directory, "sub"), { recursive: true });
    const cd = await cell("%cd sub\nimport os\nos.getcwd()");
    expect(resultText(cd)).toBe(`${join(workspace.directory, "sub")}\n'${join(workspace.directory, "sub")}'`);
    // !cmd runs where %cd went, though the shell tool starts in the run's folder.
    writeFileSync(join(workspace.directory, "sub", "inner.txt"), "inside\n");
    expect(resultText(await cell("!cat inner.txt\n!pwd"))).toBe(
      `inside\n${join(workspace.directory, "sub")}`,
    );
    await cell("%cd ..");
    const bang = await cell("name = 'notes'\n!cat {name}.txt\nfiles = !ls\n'notes.txt' in files");
    expect(resultText(bang)).toBe("alpha\nbeta\nTrue");
    const timeit = await cell("%%timeit -n 5 -r 2\nsum(range(100))");
    expect(resultText(timeit)).toMatch(/per loop \(best of 2 runs, 5 loops each\)/);
  });

  it("%cd as IPython's: -q, - for the previous folder, $name and {expr}, alone for home; a missing folder in one line", async () => {
    const top = workspace.directory;
    mkdirSync(join(top, "cd-a", "inner"), { recursive: true });
    expect(resultText(await cell("%cd -q cd-a\nimport os\nos.getcwd()"))).toBe(`'${join(top, "cd-a")}'`);
    expect(resultText(await cell("d = 'inner'\n%cd $d"))).toBe(join(top, "cd-a", "inner"));
    expect(resultText(await cell("%cd -"))).toBe(join(top, "cd-a"));
    expect(resultText(await cell("%cd -q {d}\n%cd -q ..\nos.getcwd()"))).toBe(`'${join(top, "cd-a")}'`);
    expect(resultText(await cell("%cd\nos.getcwd() == os.path.expanduser('~')"))).toMatch(/\nTrue$/);
    const missing = await cell(`%cd -q ${top}\n%cd nowhere\nprint('not reached')`);
    expect(missing.isError).toBe(true);
    expect(resultText(missing)).toBe(
      `CdError: %cd nowhere: no such folder: 'nowhere' (the cell is in ${top})`,
    );
    expect(resultText(await cell("os.getcwd()"))).toBe(`'${top}'`);
  });

  it("%pip installs into the kernel's interpreter and the next import sees the new version", async () => {
    const makePackage = (version: string) => {
      const root = join(workspace.directory, `pkg${version}`);
      mkdirSync(join(root, "tkdemo"), { recursive: true });
      writeFileSync(join(root, "tkdemo", "__init__.py"), `VERSION = "${version}"\n`);
      writeFileSync(
        join(root, "setup.py"),
        `from setuptools import setup\nsetup(name="tkdemo", version="${version}", packages=["tkdemo"])\n`,
      );
      return root;
    };
    makePackage("1.0");
    makePackage("2.0");
    const pip = "%pip install -q --no-index --no-build-isolation --disable-pip-version-check";
    const first = await cell(`${pip} ./pkg1.0\nimport tkdemo\ntkdemo.VERSION`);
    expect(resultText(first)).toMatch(/'1\.0'$/);
    const second = await cell(`${pip} ./pkg2.0\nimport tkdemo\ntkdemo.VERSION`);
    expect(resultText(second)).toMatch(/the next import sees: tkdemo[\s\S]*'2\.0'$/);
  });

  it("bridges tool() to a registry tool with origin cell, and raises its errors in the cell", async () => {
    const origins: string[] = [];
    const off = registry.on((event) => {
      if (event.type === "call-start" && event.tool === "read") origins.push(event.origin);
    });
    const result = await cell(
      "text = tool('read', {'path': 'notes.txt'})\nprint(text.split())\ntry:\n    tool('read', {'path': '../outside.txt'})\nexcept ToolError as error:\n    print('refused:', error.code)",
    );
    off();
    expect(resultText(result)).toBe("['alpha', 'beta']\nrefused: GUARDRAIL_REFUSED");
    expect(origins).toEqual(["cell", "cell"]);
  });

  it("serialises 8 threads calling tool() at once", async () => {
    const result = await cell(
      "from concurrent.futures import ThreadPoolExecutor\nwith ThreadPoolExecutor(8) as pool:\n    texts = list(pool.map(lambda i: tool('read', {'path': 'notes.txt'}), range(8)))\nlen(set(texts)), len(texts)",
    );
    expect(resultText(result)).toBe("(1, 8)");
  });

  it("gives plain input() a clear error instead of hanging", async () => {
    const result = await cell("input('name? ')");
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain("input() is not available in eval");
    // No ask_user in this run: the refusal says how to ask an operator where there is one.
    expect(resultText(result)).toMatch(/no ask_user tool\)\. .*tool\('ask_user', \{'question': '\.\.\.'\}\)/);
  });

  it("gives sys.stdin's readline(), read() and iteration the same clear error as input(), not an empty string", async () => {
    for (const [code, via] of [
      ["import sys\nsys.stdin.readline()", "sys.stdin.readline()"],
      ["import sys\nsys.stdin.read()", "sys.stdin.read()"],
      ["import sys\n[line for line in sys.stdin]", "sys.stdin.readline()"],
    ] as const) {
      const result = await cell(code);
      expect(result.error?.code).toBe("CELL_ERROR");
      expect(resultText(result)).toContain(
        `StdinNotImplementedError: ${via} is not available in eval: nobody is there to type an answer (this run has no ask_user tool).`,
      );
    }
  });

  it("names the read a sys.stdin error comes from: read(n), sys.stdin.buffer's, as the cell called it", async () => {
    // Before, read(10) (and pandas' read_csv(sys.stdin), which reads in chunks) said readline().
    for (const [code, via] of [
      ["import sys\nsys.stdin.read(10)", "sys.stdin.read(10)"],
      ["import sys\nsys.stdin.buffer.read()", "sys.stdin.buffer.read()"],
      ["import sys\nsys.stdin.buffer.readline()", "sys.stdin.buffer.readline()"],
    ] as const) {
      const result = await cell(code);
      expect(resultText(result)).toContain(`StdinNotImplementedError: ${via} is not available in eval`);
    }
  });

  it("keeps what a script does with sys.stdin before reading it: reconfigure(), mode, encoding", async () => {
    // A script's sys.stdin.reconfigure(encoding="utf-8") raised AttributeError on the stand-in.
    const result = await cell(
      "import sys\nsys.stdin.reconfigure(encoding='utf-8', errors='replace')\nprint(sys.stdin.mode, sys.stdin.encoding, sys.stdin.errors, sys.stdin.isatty())",
    );
    expect(result.isError).toBe(false);
    expect(resultText(result)).toBe("r utf-8 replace False");
  });

  it("closes sys.stdin (with sys.stdin:, close()) for the rest of its cell only: the next cell's is open again", async () => {
    // Before, a `with sys.stdin:` closed it for good: every later read, in any cell, raised
    // "I/O operation on closed file", though each cell's input is meant to start again.
    const closing = await cell(
      "import sys\nwith sys.stdin as f:\n    pass\nprint(sys.stdin.closed, sys.stdin.buffer.closed)\n" +
        "try:\n    sys.stdin.readline()\nexcept ValueError as e:\n    print('text:', e)\n" +
        "try:\n    sys.stdin.buffer.read()\nexcept ValueError as e:\n    print('bytes:', e)",
    );
    expect(resultText(closing)).toBe(
      "True True\ntext: I/O operation on closed file.\nbytes: I/O operation on closed file.",
    );
    const buffer = await cell(
      "import sys\nprint(sys.stdin.closed)\nsys.stdin.buffer.close()\nprint(sys.stdin.buffer.closed)",
    );
    expect(resultText(buffer)).toBe("False\nTrue");
    const next = await cell(
      "import sys\nprint(sys.stdin.closed, sys.stdin.buffer.closed)\nsys.stdin.readline()",
    );
    expect(next.error?.code).toBe("CELL_ERROR");
    expect(resultText(next)).toMatch(/^False False\n/);
    expect(resultText(next)).toContain(
      "StdinNotImplementedError: sys.stdin.readline() is not available in eval",
    );
  });

  it("shows what each sub-exception of an ExceptionGroup was (asyncio.TaskGroup), with its frames", async () => {
    const result = await cell(
      "import asyncio\nasync def fetch(i):\n    if i == 2:\n        raise ConnectionError(f'host {i} refused')\n    return i\n" +
        "async def main():\n    async with asyncio.TaskGroup() as tg:\n        for i in range(4):\n            tg.create_task(fetch(i))\n" +
        "await main()",
    );
    expect(result.error?.code).toBe("CELL_ERROR");
    const text = resultText(result);
    // IPython 8.5 stopped at "(1 sub-exception)": what failed was nowhere.
    expect(text).toMatch(/\nExceptionGroup: unhandled errors in a TaskGroup \(1 sub-exception\)\n/);
    expect(text).toMatch(
      /sub-exception 1 of 1[\s\S]*, in fetch\(i\)\n[\s\S]*raise ConnectionError[\s\S]*\nConnectionError: host 2 refused$/,
    );
    const nested = await cell(
      "raise ExceptionGroup('outer', [ValueError('a'), ExceptionGroup('inner', [TypeError('b')]), *[KeyError(i) for i in range(20)]])",
    );
    const nestedText = resultText(nested);
    expect(nestedText).toMatch(/\nExceptionGroup: outer \(22 sub-exceptions\)\n/);
    expect(nestedText).toMatch(
      /\nValueError: a\n[\s\S]*\nExceptionGroup: inner \(1 sub-exception\)\n[\s\S]*\nTypeError: b\n/,
    );
    expect(nestedText).toContain("KeyError: 12");
    expect(nestedText).not.toContain("KeyError: 13");
    expect(nestedText).toMatch(/… and 7 more sub-exceptions$/);
    const sixteen = await cell("raise ExceptionGroup('sixteen', [KeyError(i) for i in range(16)])");
    expect(resultText(sixteen)).toMatch(/KeyError: 14\n\n… and 1 more sub-exception$/);
  });

  it("shows every sub-exception of a group whose messages are long, each message cut on its own", async () => {
    // Three sub-exceptions of 1 MB each: the group's line kept only the first message's start, and
    // sub-exceptions 2 and 3 were lost in "… 32 lines (2,996,542 characters) of the message omitted here …".
    const result = await cell(
      "def fail(i):\n    raise ValueError(f'sub {i} ' + 'x' * 1_000_000)\nerrors = []\nfor i in range(1, 4):\n" +
        "    try:\n        fail(i)\n    except ValueError as e:\n        errors.append(e)\nraise ExceptionGroup('three big', errors)",
    );
    expect(result.error?.code).toBe("CELL_ERROR");
    const text = resultText(result);
    expect(text).toMatch(/\nExceptionGroup: three big \(3 sub-exceptions\)\n/);
    for (const i of [1, 2, 3]) {
      expect(text).toContain(`sub-exception ${i} of 3`);
      const line = new RegExp(
        `\\nValueError: sub ${i} (x+) … \\(([\\d,]+) more characters of the message omitted\\)(\\n|$)`,
      ).exec(text);
      expect(line).not.toBeNull();
      const kept = line?.[1]?.length ?? 0;
      expect(kept).toBeGreaterThan(100);
      // An eighth of the traceback's half of the 20 000 characters, less room for the note.
      expect(kept).toBeLessThanOrEqual(1_250);
      expect(Number((line?.[2] ?? "0").replaceAll(",", "")) + kept).toBe(1_000_000);
    }
    expect(text).not.toContain("of the message omitted here");
    expect(text.length).toBeLessThanOrEqual(20_000);
    expect(text.split("\n").length).toBeLessThanOrEqual(400);
  });

  it("shows the sub-exceptions of a group that is the cause of the exception raised", async () => {
    const result = await cell(
      "try:\n    raise ExceptionGroup('tasks', [ValueError('a'), TypeError('b')])\nexcept ExceptionGroup as g:\n    raise RuntimeError('wrapped') from g",
    );
    expect(result.error?.code).toBe("CELL_ERROR");
    expect(resultText(result)).toMatch(
      /\nExceptionGroup: tasks \(2 sub-exceptions\)\n\n\+-+ sub-exception 1 of 2 -+\nValueError: a\n\n\+-+ sub-exception 2 of 2 -+\nTypeError: b\n\nThe above exception was the direct cause of the following exception:\n\nRuntimeError {2,}Traceback[\s\S]*\nRuntimeError: wrapped$/,
    );
  });

  it("bounds the sub-exceptions of nested groups in all, and says a group too deep has some", async () => {
    // 15 groups of 15, 4 deep: 50 625 tracebacks (4 MB) were made and sent, to be cut to 20 000 characters.
    const wide = await cell(
      "def mk(d):\n    return ValueError('x') if d == 0 else ExceptionGroup(f'd{d}', [mk(d - 1) for _ in range(15)])\nraise mk(4)",
    );
    const omitted = /… [\d,]+ lines \(([\d,]+) characters\) of the message omitted here …/.exec(
      resultText(wide),
    );
    expect(Number((omitted?.[1] ?? "0").replaceAll(",", ""))).toBeLessThan(100_000);
    const deep = await cell(
      "e = ValueError('leaf')\nfor i in range(12):\n    e = ExceptionGroup(f'lvl{i}', [e])\nraise e",
    );
    expect(resultText(deep)).toMatch(
      /\nExceptionGroup: lvl1 \(1 sub-exception\)\n… its 1 sub-exception not shown \(groups nested over 10 deep\)$/,
    );
  });

  it("leaves the helpers' frames out of a traceback: input() and a failing tool() show the cell's line", async () => {
    const input = await cell("x = 1\nname = input('name? ')");
    expect(input.isError).toBe(true);
    expect(resultText(input)).toMatch(
      /^-+\nStdinNotImplementedError +Traceback \(most recent call last\)\nCell In \[\d+\], line 2\n +1 x = 1\n----> 2 name = input\('name\? '\)\n\nStdinNotImplementedError: input\(\) is not available in eval/,
    );
    const failing = await cell("def use():\n    return tool('nope')\n\nuse()");
    expect(failing.isError).toBe(true);
    const text = resultText(failing);
    expect(text).toMatch(
      /----> 4 use\(\)\n\nCell In \[\d+\], line 2, in use\(\)\n +1 def use\(\):\n----> 2 +return tool\('nope'\)\n\nToolError: /,
    );
    for (const shown of [resultText(input), text])
      expect(shown).not.toMatch(/__tools_install|no_input|in tool|hidden|kernel\._input_request/);
  });

  it("leaves %%timeit's own frames (the timeit module's) out of a traceback: the cell's line, then the code timed", async () => {
    await cell("def slow_parse(text):\n    return int(text)");
    const result = await cell("%%timeit -n1 -r1\nslow_parse('x')");
    expect(result.error?.code).toBe("CELL_ERROR");
    const text = resultText(result);
    expect(text).toMatch(
      /, in slow_parse\(text\)\n[\s\S]*return int\(text\)\n\nValueError: invalid literal for int\(\) with base 10: 'x'$/,
    );
    expect(text).not.toMatch(/timeit\.py|Timer\.repeat|Timer\.timeit|<timeit-src>/);
  });

  it("leaves %%timeit's frames out of a SyntaxError in the code timed (IPython shows it apart)", async () => {
    const result = await cell("%%timeit -n1 -r1\nx = (\n");
    const text = resultText(result);
    expect(text).toMatch(/__tools__\.timeit\([\s\S]*\nSyntaxError: '\(' was never closed$/);
    expect(text).not.toMatch(/in timeit\n|timing\.Timer|with_traceback|timeit\.py/);
  });

  it("a SyntaxError raised while the cell runs (exec, compile, an import) starts at the cell's line, not IPython's run_code", async () => {
    // IPython shows these with SyntaxTB and the whole traceback: its own run_code frame came first
    // ("File …/IPython/core/interactiveshell.py:3378 in run_code", "exec(code_obj, …)").
    writeFileSync(join(workspace.directory, "broken_module.py"), "def f(:\n    pass\n");
    const cases: [string, RegExp][] = [
      [
        "exec('y = (')",
        /^Traceback \(most recent call last\):\n\n {2}Cell In \[\d+\], line 1\n {4}exec\('y = \('\)\n\n {2}File <string>:1\n {4}y = \(\n {8}\^\nSyntaxError: '\(' was never closed$/,
      ],
      [
        "compile('y = (', 'x', 'exec')",
        /^Traceback \(most recent call last\):\n\n {2}Cell In \[\d+\], line 1\n {4}compile\('y = \(', 'x', 'exec'\)\n\n {2}File x:1\n[\s\S]*\nSyntaxError: '\(' was never closed$/,
      ],
      [
        "import broken_module",
        /^Traceback \(most recent call last\):\n\n {2}Cell In \[\d+\], line 1\n {4}import broken_module\n\n {2}File \S+broken_module\.py:1\n[\s\S]*\nSyntaxError: invalid syntax$/,
      ],
      [
        "raise SyntaxError('by hand')",
        /^Traceback \(most recent call last\):\n\n {2}Cell In \[\d+\], line 1\n {4}raise SyntaxError\('by hand'\)\n[\s\S]*\nSyntaxError: by hand$/,
      ],
      [
        "try:\n    1/0\nexcept ZeroDivisionError:\n    exec('y = (')",
        /\nZeroDivisionError: division by zero\n[\s\S]*another exception occurred:\n\nTraceback \(most recent call last\):\n\n {2}Cell In \[\d+\], line 4\n {4}exec\('y = \('\)\n[\s\S]*\nSyntaxError: '\(' was never closed$/,
      ],
      [
        "import asyncio\nawait asyncio.sleep(0)\nexec('y = (')",
        /^Traceback \(most recent call last\):\n\n {2}Cell In \[\d+\], line 3\n {4}exec\('y = \('\)\n[\s\S]*\nSyntaxError: '\(' was never closed$/,
      ],
    ];
    for (const [code, shape] of cases) {
      const result = await cell(code);
      expect(result.error?.code).toBe("CELL_ERROR");
      expect(resultText(result)).toMatch(shape);
      expect(resultText(result)).not.toMatch(/run_code|interactiveshell\.py|exec\(code_obj/);
    }
  });

  it("exit(), quit() and sys.exit() say the interpreter keeps running and how to get a fresh one", async () => {
    await cell("kept = 'still here'");
    // IPython calls a bare exit or quit only when it is the whole cell.
    for (const code of ["print('before')\nexit()\nprint('after')", "quit"]) {
      const result = await cell(code);
      expect(result.isError).toBe(false);
      expect(resultText(result)).toMatch(
        /^(before\n)?SystemExit: the cell stopped here, but the interpreter keeps running, with its variables and imports; to start a fresh one, call eval with reset: true$/,
      );
    }
    const clean = await cell("import sys\nsys.exit(0)");
    expect(clean.isError).toBe(false);
    expect(resultText(clean)).toMatch(/^SystemExit\(0\): the cell stopped here/);
    const failed = await cell("import sys\nsys.exit(3)");
    expect(failed.isError).toBe(true);
    const text = resultText(failed);
    expect(text).toMatch(
      /^SystemExit\(3\): the cell stopped here, but the interpreter keeps running.*reset: true/,
    );
    expect(text).not.toMatch(/Ctrl-D|interactiveshell|UserWarning|%tb/);
    expect(resultText(await cell("exit('bad input')"))).toMatch(/^SystemExit\('bad input'\): /);
    expect(resultText(await cell("kept"))).toBe("'still here'");
  });

  it("refuses a NUL or an unpaired surrogate at once, saying where, and keeps the kernel's state", async () => {
    await cell("kept_state = 41");
    const nul = await cell("x = 'a\u0000b'; x");
    expect(nul.error?.code).toBe("INVALID_CODE");
    expect(resultText(nul)).toMatch(/NUL character \(U\+0000\) at line 1, column 7.*'\\x00'.*not run/);
    const surrogate = await cell("ok = 1\n'\ud800'");
    expect(surrogate.error?.code).toBe("INVALID_CODE");
    expect(resultText(surrogate)).toMatch(
      /unpaired UTF-16 surrogate \(U\+D800\) at line 2, column 2.*'\\ud800'/,
    );
    // A pair is one character (U+1F600) and runs as any other.
    expect(resultText(await cell("len('\ud83d\ude00'), kept_state + 1"))).toBe("(1, 42)");
  });

  it("refuses a description that is not 5–10 words, without running the cell", async () => {
    const result = await registry.invoke(run, {
      tool: "eval",
      args: { code: "ran = True", description: "test" },
    });
    expect(result.error?.code).toBe("INVALID_ARGUMENTS");
    expect(resultText(result)).toMatch(/description: must be 5–10 words .*got 1/);
    expect(resultText(await cell("'ran' in globals()"))).toBe("False");
  });
});

/**
 * A shell tool whose text has the demo harness's form (apps/harness-demo, tools/shell.ts): an
 * `exit code N` line, then the combined output, long output cut to its first 80 and last 120
 * lines with a note between them; a failing command is a result, not an error. It refuses a
 * command that mentions `refuse-me`, as a guardrail would, and records the commands it ran and the
 * mode of each file of ours they named.
 */
function harnessLikeShell() {
  const commands: string[] = [];
  const modes: number[] = [];
  const tool = defineTool({
    name: "harness_shell",
    tier: "exec",
    parallelSafe: false,
    description: 'Runs a shell command. Example: {"command": "ls"}',
    input: z.object({ command: z.string() }),
    execute: (args, context) => {
      if (args.command.includes("refuse-me"))
        throw new ToolsError({ code: "GUARDRAIL_REFUSED", message: "this command is refused here" });
      commands.push(args.command);
      for (const [, path = ""] of args.command.matchAll(/'?(\/[^' ]*tools-sh-[^' ]*)'?/g))
        modes.push(statSync(path).mode & 0o777);
      const run = spawnSync("/bin/bash", ["-c", `exec 2>&1\n${args.command}`], {
        cwd: context.run.workingDirectory,
        encoding: "utf8",
        maxBuffer: 1 << 26,
      });
      const lines = run.stdout.split("\n");
      if (lines.at(-1) === "") lines.pop();
      const shown =
        lines.length > 200
          ? [...lines.slice(0, 80), `… ${lines.length - 200} lines left out …`, ...lines.slice(-120)]
          : lines;
      return textResult(`exit code ${run.status}\n${lines.length === 0 ? "(no output)" : shown.join("\n")}`);
    },
  });
  return { tool, commands, modes };
}

describePython("eval's !cmd through a shell tool whose text is the harness's own", () => {
  let workspace: ReturnType<typeof makeWorkspace>;
  let registry: Registry;
  let run: Run;
  const shell = harnessLikeShell();
  const cell = (code: string): Promise<ToolResult> =>
    registry.invoke(run, { tool: "eval", args: { code, description: "run a python test cell here" } });

  beforeAll(() => {
    workspace = makeWorkspace();
    ({ registry, run } = makeRun(workspace.directory, { shellTool: "harness_shell" }, [shell.tool]));
  });
  afterAll(async () => {
    await run?.dispose();
    workspace?.remove();
  });

  it("x = !cmd is the command's own output, whole, as IPython's SList, not the shell tool's text", async () => {
    expect(resultText(await cell("x = !echo hi\nx"))).toBe("['hi']");
    const many = await cell("lines = !seq 1 100000\nlen(lines), lines[0], lines[-1], type(lines).__name__");
    expect(resultText(many)).toBe("(100000, '1', '100000', 'SList')");
    // stderr too, whatever the exit code; a comment or a backslash at the end; bytes not UTF-8.
    expect(resultText(await cell("both = !echo out; echo err >&2; exit 3\nboth"))).toBe("['out', 'err']");
    expect(resultText(await cell("c = !echo a # a comment\nc"))).toBe("['a']");
    await cell("d = !echo d \\");
    expect(resultText(await cell("d"))).toBe("['d']");
    expect(resultText(await cell("u = !printf 'ok\\377'\nu"))).toBe("['ok\ufffd']");
    // The shell's own errors are the output, as getoutput shows them; nothing in the command ends
    // the capture early: a line that is a closing brace, a quote left open, a lone comment.
    const open = resultText(await cell("v = !echo 'unterminated\nv"));
    expect(open).toMatch(/^\[.*unexpected EOF while looking for matching.*\]$/s);
    expect(resultText(await cell("w = !echo hi; }\nw"))).toMatch(
      /^\[.*syntax error near unexpected token.*\]$/s,
    );
    expect(resultText(await cell("t = !# just a comment\nt"))).toBe("[]");
    const brace = await cell("s = 'a\\n}\\necho b'\ny = !echo {s}\ny");
    expect(resultText(brace)).toMatch(/^\['a',\s+"[^"]*syntax error near unexpected token `}'",.*\]$/s);
    expect(resultText(await cell("z = !echo '}'; echo after\nz"))).toBe("['}', 'after']");
    // After %cd the command runs there, as before.
    mkdirSync(join(workspace.directory, "sub"), { recursive: true });
    expect(resultText(await cell("%cd sub\nwhere = !pwd\n%cd ..\nwhere[0]"))).toMatch(/\/sub'$/);
    // The output went through files of ours, private while there and gone after.
    expect(shell.modes.length).toBeGreaterThanOrEqual(7);
    expect(new Set(shell.modes)).toEqual(new Set([0o600]));
    for (const command of shell.commands) {
      for (const [, path = ""] of command.matchAll(/'?(\/[^' ]*tools-sh-[^' ]*)'?/g))
        expect(existsSync(path)).toBe(false);
    }
  }, 180_000);

  it("x = !cmd refused says why on stderr and is empty", async () => {
    const refused = resultText(await cell("r = !echo refuse-me\nprint(type(r).__name__, r)"));
    expect(refused).toMatch(/this command is refused here[\s\S]*\nSList \[\]$/);
  });

  it("!cmd and %%bash in a run without the shell tool say which tool they need and what works instead", async () => {
    // Before: "unknown tool 'shell'; tools for the main agent: eval, read, shell" — a tool the
    // cell never named, and nothing on what to do.
    const bare = makeRun(workspace.directory, { shellTool: "terminal" });
    try {
      const result = await bare.registry.invoke(bare.run, {
        tool: "eval",
        args: { code: "!echo hi\nx = !echo hi\nprint(x)", description: "run a shell command from python" },
      });
      const text = resultText(result);
      expect(
        text.match(
          /^!cmd and %%bash run the command through the harness's shell tool 'terminal', which this run does not have \(unknown tool 'terminal'[^\n]*\)\. Run it from the cell instead: subprocess\.run\(command, shell=True, capture_output=True, text=True\)$/gm,
        ),
      ).toHaveLength(2);
      expect(text).toMatch(/\n\[\]$/);
    } finally {
      await bare.run.dispose();
    }
  });

  it("!cmd and %%bash print the shell tool's text, so the exit code shows", async () => {
    expect(resultText(await cell("!echo hi"))).toBe("exit code 0\nhi");
    expect(resultText(await cell("!exit 3"))).toBe("exit code 3\n(no output)");
    expect(resultText(await cell("%%bash\necho from bash\nexit 4"))).toBe("exit code 4\nfrom bash");
  });
});

/**
 * A shell tool that records the arguments of each call and runs the command in the harness's own
 * environment (as the demo harness's does); a command naming `too-slow` fails as that tool's
 * timeout does, with its advice to raise timeout_seconds.
 */
function recordingShell(maxTimeoutSeconds = 600, name = "recording_shell") {
  const calls: Record<string, unknown>[] = [];
  /** The mode of the file of environment changes each command sourced. */
  const envModes: number[] = [];
  const tool = defineTool({
    name,
    tier: "exec",
    parallelSafe: false,
    description: 'Runs a shell command. Example: {"command": "ls"}',
    input: z.object({
      command: z.string(),
      timeout_seconds: z.number().int().max(maxTimeoutSeconds).optional(),
    }),
    execute: (args, context) => {
      calls.push(args);
      const file = environmentFile(args.command);
      if (file !== undefined) envModes.push(statSync(file).mode & 0o777);
      if (args.command.includes("too-slow"))
        throw new ToolsError({
          code: "TIMEOUT",
          message:
            "the command timed out after 120 s and was killed (its whole process group); raise timeout_seconds (at most 600) or run it in smaller steps. Output so far:\n(no output)",
        });
      const run = spawnSync("/bin/bash", ["-c", `exec 2>&1\n${args.command}`], {
        cwd: context.run.workingDirectory,
        encoding: "utf8",
      });
      return textResult(run.stdout);
    },
  });
  return { tool, calls, envModes };
}

/** The file of environment changes a command sources first (`. /tmp/tools-env-….sh; rm -f …`). */
function environmentFile(command: string): string | undefined {
  return /^\. '?([^' ;]*tools-env-[^' ;]*)'?;/.exec(command)?.[1];
}

describePython("eval's !cmd with a shell tool whose longest time limit is smaller", () => {
  let workspace: ReturnType<typeof makeWorkspace>;
  let registry: Registry;
  let run: Run;
  const shell = recordingShell(300, "short_shell");
  const cell = (code: string): Promise<ToolResult> =>
    registry.invoke(run, { tool: "eval", args: { code, description: "run a python test cell here" } });

  beforeAll(() => {
    workspace = makeWorkspace();
    ({ registry, run } = makeRun(workspace.directory, { shellTool: "short_shell" }, [shell.tool]));
  });
  afterAll(async () => {
    await run?.dispose();
    workspace?.remove();
  });

  it("asks for the largest the tool's refusal names, from then on, and says that limit on a timeout", async () => {
    expect(resultText(await cell("!echo one"))).toBe("one");
    expect(resultText(await cell("!echo two"))).toBe("two");
    // 600 refused once (the registry's argument check, before anything runs), then 300.
    expect(shell.calls.map((call) => call.timeout_seconds)).toEqual([300, 300]);
    const slow = resultText(await cell("!too-slow"));
    expect(slow).toMatch(/longest time limit \(300 s.*split the work into shorter commands/);
  });
});

describePython("eval's !cmd and %%bash: the shell tool's time limit and the kernel's environment", () => {
  let workspace: ReturnType<typeof makeWorkspace>;
  let registry: Registry;
  let run: Run;
  const shell = recordingShell();
  const cell = (code: string): Promise<ToolResult> =>
    registry.invoke(run, { tool: "eval", args: { code, description: "run a python test cell here" } });

  beforeAll(() => {
    // In the harness's environment and the kernel's at its start; a cell then deletes it.
    process.env.TOOLS_KERNEL_TEST_GONE = "still here";
    workspace = makeWorkspace();
    ({ registry, run } = makeRun(workspace.directory, { shellTool: "recording_shell" }, [shell.tool]));
  });
  afterAll(async () => {
    delete process.env.TOOLS_KERNEL_TEST_GONE;
    await run?.dispose();
    workspace?.remove();
  });

  it("asks the shell tool for its longest time limit, and a timeout says what a cell can do", async () => {
    await cell("!echo one\nx = !echo two");
    await cell("%%bash\necho three");
    expect(shell.calls.map((call) => call.timeout_seconds)).toEqual([600, 600, 600]);
    const slow = resultText(await cell("!too-slow"));
    expect(slow).toContain("timed out after 120 s");
    expect(slow).toMatch(/longest time limit \(600 s.*split the work into shorter commands/);
    expect(slow).not.toContain("raise timeout_seconds");
  });

  it("runs the command in the kernel's environment: %env, os.environ set and deleted", async () => {
    expect(resultText(await cell('%env FOO=bar\n!echo "[$FOO]"'))).toBe("env: FOO=bar\n[bar]");
    const set = await cell(
      'import os\nos.environ[\'MY_VAR\'] = "from py\'s side"\nout = !echo "[$MY_VAR]"\nout',
    );
    expect(resultText(set)).toBe(`["[from py's side]"]`);
    expect(resultText(await cell('!echo "[$TOOLS_KERNEL_TEST_GONE]"'))).toBe("[still here]");
    const gone = await cell(
      "del os.environ['TOOLS_KERNEL_TEST_GONE']\n!printenv TOOLS_KERNEL_TEST_GONE; echo \"status $?\"",
    );
    expect(resultText(gone)).toBe("status 1");
    // The environment the kernel started with is not spelt out on each command.
    expect(String(shell.calls.at(-1)?.command)).not.toContain("PATH=");
  });

  it("keeps changed values out of the command's text (the approval card): a private file, sourced and deleted", async () => {
    const before = shell.calls.length;
    await cell("import os\nos.environ['PGPASSWORD'] = 'pw-s3cret'");
    expect(resultText(await cell('!echo "[$PGPASSWORD]"'))).toBe("[pw-s3cret]");
    expect(resultText(await cell('out = !echo "[$PGPASSWORD]"\nout'))).toBe(`['[pw-s3cret]']`);
    // Refused by the shell tool: the kernel deletes the file it wrote.
    expect(resultText(await cell("!too-slow"))).toContain("timed out");
    const calls = shell.calls.slice(before);
    expect(calls).toHaveLength(3);
    for (const call of calls) {
      const command = String(call.command);
      expect(JSON.stringify(call)).not.toContain("pw-s3cret");
      const file = environmentFile(command);
      expect(file).toBeDefined();
      expect(existsSync(file ?? "")).toBe(false);
    }
    expect(shell.envModes.slice(-3)).toEqual([0o600, 0o600, 0o600]);
  });
});

/**
 * An ask_user as `@tools/ask`'s (read tier; its result's text in that form): it records each card's
 * arguments and answers with the next of `answers` — a string is typed text, `null` a decline —
 * after `delayMs`.
 */
function askUserLike(answers: (string | null)[], delayMs = 0) {
  const cards: Record<string, unknown>[] = [];
  const origins: string[] = [];
  const tool = defineTool({
    name: "ask_user",
    tier: "read",
    parallelSafe: true,
    description: 'Asks the operator. Example: {"question": "Which one?"}',
    input: z.object({
      question: z.string(),
      context: z.string().optional(),
      allow_free_text: z.boolean().optional(),
    }),
    execute: async (args, context) => {
      cards.push(args);
      origins.push(context.origin);
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      const answer = answers.shift();
      if (answer === undefined || answer === null)
        return textResult(
          "The operator declined to answer. This is not an answer. Carry on under an assumption.",
        );
      return textResult(`The operator answered.\nTheir answer: ${JSON.stringify(answer)}`);
    },
  });
  return { tool, cards, origins };
}

describePython("eval's input() and getpass() with an operator to ask (ask_user)", () => {
  let workspace: ReturnType<typeof makeWorkspace>;
  const runs: Run[] = [];
  const start = (ask: ReturnType<typeof askUserLike>, inactivityMs?: number) => {
    const made = makeRun(workspace.directory, inactivityMs === undefined ? {} : { inactivityMs }, [ask.tool]);
    runs.push(made.run);
    return (code: string): Promise<ToolResult> =>
      made.registry.invoke(made.run, {
        tool: "eval",
        args: { code, description: "run a python test cell here" },
      });
  };

  beforeAll(() => {
    workspace = makeWorkspace();
  });
  afterAll(async () => {
    await Promise.all(runs.map((run) => run.dispose()));
    workspace?.remove();
  });

  it("asks the prompt as a card and input() returns the typed answer; a password is not echoed", async () => {
    const ask = askUserLike(['Ada "the first"', "s3cret-pass"]);
    const cell = start(ask);
    const named = await cell("name = input('Your name? ')\nprint('hello', name)");
    expect(named.isError).toBe(false);
    expect(resultText(named)).toBe('Your name? Ada "the first"\nhello Ada "the first"');
    const secret = await cell(
      "import getpass\npw = getpass.getpass('Password: ')\nlen(pw), pw == 's3cret-pass'",
    );
    expect(resultText(secret)).not.toContain("s3cret");
    expect(resultText(secret)).toMatch(/^Password:\s*\n\(11, True\)$/);
    expect(ask.origins).toEqual(["cell", "cell"]);
    expect(ask.cards[0]).toMatchObject({ question: "Your name?", allow_free_text: true });
    expect(String(ask.cards[1]?.context)).toMatch(
      /getpass\(\).*password.*not shown as you type, nor in any result/,
    );
  });

  it("asks each line sys.stdin.readline() and iteration read on a card; a declined card ends the input", async () => {
    const ask = askUserLike(["first", "two\nlines", null, "whole\ntext"]);
    const cell = start(ask);
    const result = await cell(
      "import sys\nlines = [sys.stdin.readline()]\nlines += list(sys.stdin)\nlines.append(sys.stdin.readline())\nprint(repr(lines))",
    );
    expect(result.isError).toBe(false);
    // Each line read is echoed as a terminal shows it; the third card's decline is the end of input.
    expect(resultText(result)).toBe("first\ntwo\nlines\n['first\\n', 'two\\n', 'lines\\n', '']");
    expect(ask.cards).toHaveLength(3);
    expect(ask.cards[0]).toMatchObject({ allow_free_text: true });
    expect(String(ask.cards[0]?.question)).toContain("sys.stdin.readline()");
    expect(String(ask.cards[2]?.context)).toMatch(/Decline to end its input \(end of file\)\.$/);
    // The next cell's stdin starts again: read() asks once for the whole text.
    const whole = await cell(
      "import sys\ntext = sys.stdin.read()\nprint(repr(text), repr(sys.stdin.read()))",
    );
    expect(resultText(whole)).toBe("whole\ntext\n'whole\\ntext\\n' ''");
    expect(String(ask.cards[3]?.question)).toContain("sys.stdin.read()");
    expect(ask.origins).toEqual(["cell", "cell", "cell", "cell"]);
  });

  it("reads a large pasted answer line by line in linear time", async () => {
    // Each line read copied the rest of the text: 50 000 lines pasted took seconds to iterate.
    const pasted = Array.from({ length: 50_000 }, (_, i) => `row ${i} ${"x".repeat(90)}`).join("\n");
    const cell = start(askUserLike([pasted, null]));
    const result = await cell(
      "import sys, time\nfirst = sys.stdin.readline()\nstarted = time.perf_counter()\nrest = sum(1 for _ in sys.stdin)\n" +
        "elapsed = time.perf_counter() - started\nprint('lines', 1 + rest, 'fast' if elapsed < 1.5 else f'slow {elapsed:.1f} s')",
    );
    expect(resultText(result).split("\n").at(-1)).toBe("lines 50000 fast");
  });

  it("a declined card is an EOFError in the cell, saying so", async () => {
    const cell = start(askUserLike([null]));
    const result = await cell(
      "try:\n    input('Proceed? ')\nexcept EOFError as error:\n    print('EOFError:', error)",
    );
    expect(resultText(result)).toMatch(/^EOFError: input\(\) got no answer: The operator declined to answer/);
  });

  it("keeps the cell alive while the card is open longer than the inactivity budget", async () => {
    const cell = start(askUserLike(["late"], 2500), 1000);
    const result = await cell("answer = input('Slow? ')\nanswer.upper()");
    expect(result.isError).toBe(false);
    expect(resultText(result)).toBe("Slow? late\n'LATE'");
  });
});
