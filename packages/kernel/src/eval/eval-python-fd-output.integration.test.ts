import { readFileSync } from "node:fs";
import { join } from "node:path";
import { resultText, type Registry, type Run, type ToolResult } from "@tools/registry";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { identify, killStill, running } from "../__fixtures__/processes.js";
import { ci, makeRun, makeWorkspace, pythonFound } from "../__fixtures__/workspace.js";

const describePython = describe.skipIf(!pythonFound && !ci);

describePython("what a Python cell's child processes and C code write to fd 1 and 2", () => {
  let workspace: ReturnType<typeof makeWorkspace>;
  let registry: Registry;
  let run: Run;
  const cell = (code: string): Promise<ToolResult> =>
    registry.invoke(run, { tool: "eval", args: { code, description: "run a python test cell here" } });

  beforeAll(() => {
    expect(pythonFound).toBe(true);
    workspace = makeWorkspace();
    // A cell blocked for good is stopped after 30 s without output, not the default 5 minutes.
    ({ registry, run } = makeRun(workspace.directory, { inactivityMs: 30_000 }));
  });
  afterAll(async () => {
    await run?.dispose();
    workspace?.remove();
  });

  it("is still the cell's output after a character split between reads and a byte that is not UTF-8", async () => {
    // 6001 bytes: ipykernel 6.17 read them 1000 at a time, and "a" puts every cut inside an "é".
    const accented = await cell(
      "import subprocess, sys\nsubprocess.run([sys.executable, '-c', 'print(\"a\" + \"é\" * 3000)'])\nNone",
    );
    expect(resultText(accented)).toBe(`a${"é".repeat(3000)}`);
    const binary = await cell(
      "import os\nos.write(1, b'bin \\xff\\xfe\\n')\nos.write(2, 'err é\\n'.encode())\nNone",
    );
    expect(resultText(binary)).toBe("bin \ufffd\ufffd\nerr é");
    // More than the pipe holds: once nothing read the pipe, the child (and the cell) waited for good.
    const many = await cell("subprocess.run(['seq', '1', '100000']).returncode");
    expect(many.isError).toBe(false);
    const text = resultText(many);
    expect(text.startsWith("1\n2\n3\n")).toBe(true);
    expect(text.slice(-15)).toBe("\n99999\n100000\n0");
  });

  it("written just before the cell ends is that cell's, not output after it ended", async () => {
    for (let i = 0; i < 5; i++) {
      const result = await cell(`import os\nos.write(1, b'x' * 150000 + b'\\nend of cell ${i}\\n')\nNone`);
      const text = resultText(result);
      expect(text.startsWith("xxxx")).toBe(true);
      expect(text.endsWith(`x\nend of cell ${i}`)).toBe(true);
      expect(text).not.toContain("after the previous cell finished");
    }
  });

  it("lets a later cell fill the pipe after a child left it non-blocking", async () => {
    // Node makes its stdout pipe non-blocking. A child started from Python gets a description of
    // the pipe of its own; one started past Python's audit hooks (libc's system() through ctypes)
    // shares the kernel's, which the next cell makes blocking again.
    const child = await cell(
      [
        "import ctypes, os, signal, subprocess, time",
        "pid_file = os.path.join(os.getcwd(), 'node-pid')",
        'ctypes.CDLL(None).system(f"node -e \'process.stdout.write(String(process.pid)); require(\\"fs\\").writeFileSync(process.argv[1], String(process.pid)); setTimeout(() => {{}}, 30000)\' {pid_file} &".encode())',
        "deadline = time.monotonic() + 20",
        "while os.get_blocking(1) and time.monotonic() < deadline:\n    time.sleep(0.05)",
        "while not os.path.exists(pid_file) and time.monotonic() < deadline:\n    time.sleep(0.05)",
        "os.kill(int(open(pid_file).read()), signal.SIGKILL)",
        "os.get_blocking(1)",
      ].join("\n"),
    );
    // The pid may come before or after the flag changes; the child left the pipe non-blocking.
    expect(resultText(child).endsWith("False")).toBe(true);
    const many = await cell("subprocess.run(['seq', '1', '300000']).returncode");
    expect(many.isError).toBe(false);
    const text = resultText(many);
    expect(text).not.toContain("Resource temporarily unavailable");
    expect(text.slice(-16)).toBe("\n299999\n300000\n0");
  });

  it("keeps a cell's later fd output whole while a Node child it started runs, and after it is killed", async () => {
    // Node makes its stdout pipe non-blocking as it starts. Shared with the kernel's fd 1 and with
    // every other child, that made seq fail ("write error: Resource temporarily unavailable")
    // and os.write(1, …) raise BlockingIOError in the same cell, once the pipe was full.
    const result = await cell(
      [
        "import os, subprocess, time",
        "flag = os.path.join(os.getcwd(), 'node-started')",
        "node = subprocess.Popen(['node', '-e', 'process.stdout.write(\"node up\"); require(\"fs\").writeFileSync(process.argv[1], \"\"); setInterval(() => {}, 1000)', flag])",
        "deadline = time.monotonic() + 20",
        "while not os.path.exists(flag) and time.monotonic() < deadline:\n    time.sleep(0.05)",
        "filled = []",
        "def fill(tag):",
        "    seq = subprocess.run(['seq', '1', '300000']).returncode",
        "    filled.append(f'{tag}: seq {seq}, wrote {os.write(1, b\"y\" * 300000)}')",
        "fill('running')",
        "node.kill()\nnode.wait()",
        "fill('killed')",
        // The output's middle is cut: the echo, after all of it, says how each writer did.
        "[os.path.exists(flag), *filled]",
      ].join("\n"),
    );
    const text = resultText(result);
    expect(result.isError, text.slice(-1000)).toBe(false);
    expect(text).not.toContain("Resource temporarily unavailable");
    expect(
      text.endsWith("\n[True, 'running: seq 0, wrote 300000', 'killed: seq 0, wrote 300000']"),
      text.slice(-300),
    ).toBe(true);
  });

  it("keeps print and a child's output in the order they were written", async () => {
    // print goes through ipykernel's buffer at once; the child's output reaches it through our
    // reader thread, which had not always read it when the next print came.
    const lines = Array.from({ length: 20 }, (_, i) => [`print ${i}`, `child ${i}`]).flat();
    const result = await cell(
      [
        "import os, subprocess, sys",
        "for i in range(20):",
        "    print(f'print {i}')",
        "    subprocess.run(['echo', f'child {i}'])",
        "os.system('echo from os.system')",
        "print('err', file=sys.stderr)",
        "subprocess.run(['sh', '-c', 'echo child err >&2'])",
        "print('last')",
        "None",
      ].join("\n"),
    );
    expect(resultText(result)).toBe([...lines, "from os.system", "err", "child err", "last"].join("\n"));
  });

  it("leaves a forked child that forks again on the description it was given, not the kernel's", async () => {
    // O_APPEND (meaningless on a pipe) tags the kernel's own description; the forked child's is
    // a fresh one. A second fork in the child (a double fork, as a daemon does) ran the kernel's
    // after-fork hook there, which put the child's fd 1 back on the kernel's description.
    const result = await cell(
      [
        "import fcntl, os",
        "fcntl.fcntl(1, fcntl.F_SETFL, fcntl.fcntl(1, fcntl.F_GETFL) | os.O_APPEND)",
        "read_end, write_end = os.pipe()",
        "pid = os.fork()",
        "if pid == 0:",
        "    try:",
        "        before = bool(fcntl.fcntl(1, fcntl.F_GETFL) & os.O_APPEND)",
        "        grandchild = os.fork()",
        "        if grandchild == 0:\n            os._exit(0)",
        "        os.waitpid(grandchild, 0)",
        "        after = bool(fcntl.fcntl(1, fcntl.F_GETFL) & os.O_APPEND)",
        "        os.write(write_end, f'{before} {after}'.encode())",
        "    finally:\n        os._exit(0)",
        "os.close(write_end)\nos.waitpid(pid, 0)",
        "shared = os.read(read_end, 100).decode()\nos.close(read_end)",
        "seen = shared, bool(fcntl.fcntl(1, fcntl.F_GETFL) & os.O_APPEND)",
        "fcntl.fcntl(1, fcntl.F_SETFL, fcntl.fcntl(1, fcntl.F_GETFL) & ~os.O_APPEND)",
        "seen",
      ].join("\n"),
    );
    // In the child, before and after its own fork: not the kernel's; in the kernel, its own.
    expect(resultText(result)).toBe("('False False', True)");
  });

  it("keeps the order for a child reaped by poll() before wait(), once per child", async () => {
    // The round trip is made once per child (run() waits twice); poll() reaping it first does not
    // count as that once.
    const result = await cell(
      [
        "import subprocess, time",
        "child = subprocess.Popen(['echo', 'polled child'])",
        "deadline = time.monotonic() + 20",
        "while child.poll() is None and time.monotonic() < deadline:\n    time.sleep(0.01)",
        "child.wait()\nprint('after wait')\nchild.wait()\nprint('after second wait')",
        "subprocess.run(['echo', 'run child'])\nprint('after run')",
        "None",
      ].join("\n"),
    );
    expect(resultText(result)).toBe("polled child\nafter wait\nafter second wait\nrun child\nafter run");
  });

  it("keeps a character whole that a child still running split around another child's end", async () => {
    // Each child's end puts a mark in the pipe; a character split around it was U+FFFD twice.
    const writer = [
      "import os, sys, time",
      "os.write(1, 'é'.encode()[:1])",
      "open(sys.argv[1], 'w').close()",
      "deadline = time.monotonic() + 20",
      "while not os.path.exists(sys.argv[2]) and time.monotonic() < deadline:\n    time.sleep(0.02)",
      "os.write(1, 'é'.encode()[1:] + b' whole\\n')",
    ].join("\n");
    const result = await cell(
      [
        "import os, subprocess, sys, time",
        "started, go = os.path.join(os.getcwd(), 'split-started'), os.path.join(os.getcwd(), 'split-go')",
        `writer = subprocess.Popen([sys.executable, '-c', ${JSON.stringify(writer)}, started, go])`,
        "deadline = time.monotonic() + 20",
        "while not os.path.exists(started) and time.monotonic() < deadline:\n    time.sleep(0.02)",
        "subprocess.run(['true'])",
        "open(go, 'w').close()",
        "writer.wait(20)",
      ].join("\n"),
    );
    expect(resultText(result)).toBe("é whole\n0");
  });

  it("shows a child that failed to start or timed out with subprocess's frames only, no hidden-frame line", async () => {
    const missing = await cell("import subprocess\nsubprocess.run(['no-such-binary'])");
    expect(missing.isError).toBe(true);
    const late = await cell("subprocess.run(['sleep', '5'], timeout=0.2)");
    expect(late.isError).toBe(true);
    expect(resultText(missing)).toMatch(
      /, in Popen\._execute_child\([^]*\nFileNotFoundError: .*no-such-binary/,
    );
    expect(resultText(late)).toMatch(/, in Popen\._wait\([^]*\nTimeoutExpired: /);
    for (const text of [resultText(missing), resultText(late)]) {
      expect(text).not.toContain("skipping hidden");
      expect(text).not.toContain("__tools");
    }
  });

  it("ends a character a cell left unfinished with that cell, as U+FFFD", async () => {
    const first = await cell("import os\nos.write(1, b'hi\\xe2\\x82')\nNone");
    expect(resultText(first)).toBe("hi\ufffd");
    const second = await cell("os.write(1, b'\\xacok\\n')\nNone");
    expect(resultText(second)).toBe("\ufffdok");
  });

  it("puts no mark in a file a cell put on fd 1 in the pipe's place", async () => {
    const file = join(workspace.directory, "fd-one.txt");
    const into = await cell(
      [
        "import os\nsaved = os.dup(1)",
        `os.dup2(os.open(${JSON.stringify(file)}, os.O_WRONLY | os.O_CREAT | os.O_TRUNC), 1)`,
        "os.write(1, b'into the file\\n')",
        "None",
      ].join("\n"),
    );
    expect(into.isError).toBe(false);
    const back = await cell(
      "os.write(1, b'more\\n')\nos.dup2(saved, 1)\nos.write(1, b'back on the pipe\\n')\nNone",
    );
    expect(resultText(back)).toBe("back on the pipe");
    expect(readFileSync(file, "utf8")).toBe("into the file\nmore\n");
  });
  it("stops the cell on an interrupt that comes while a child's start flushes the output", async () => {
    // ipykernel turns an interrupt into SIGINT, and KeyboardInterrupt comes where the cell is:
    // here, in the flush before the child starts, which the audit hook ran and swallowed all of.
    const result = await cell(
      [
        "import signal, subprocess, sys",
        "flushed = []",
        "def interrupted_flush():",
        "    if not flushed:\n        flushed.append(1)\n        signal.raise_signal(signal.SIGINT)",
        "    return type(sys.stdout).flush(sys.stdout)",
        "sys.stdout.flush = interrupted_flush",
        "try:\n    subprocess.run(['echo', 'child ran'])\n    outcome = 'not interrupted'",
        "except KeyboardInterrupt:\n    outcome = 'interrupted'",
        "finally:\n    del sys.stdout.flush",
        "outcome",
      ].join("\n"),
    );
    expect(resultText(result)).toBe("'interrupted'");
  });

  it("keeps the order after an interrupt that came just after a mark was written", async () => {
    // The interrupt is made to come right after the mark's write (os.write is wrapped for that):
    // the mark was read but never counted as written, and every later wait ended one mark early.
    const lines = Array.from({ length: 20 }, (_, i) => [`print ${i}`, `child ${i}`]).flat();
    const result = await cell(
      [
        "import os, signal, subprocess, sys",
        "write, interrupted = os.write, []",
        "def write_then_interrupt(fd, data):",
        "    written = write(fd, data)",
        "    if not interrupted and b'tools-fd-mark' in bytes(data):",
        "        interrupted.append(1)\n        signal.raise_signal(signal.SIGINT)",
        "    return written",
        "os.write = write_then_interrupt",
        "try:\n    subprocess.run(['echo', 'interrupted child'])",
        // One write: print() writes the text and its line break apart, and the interrupted
        // child's line, read once the interrupt skipped the wait for it, can come between them.
        "except KeyboardInterrupt:\n    sys.stdout.write('interrupted\\n')",
        "finally:\n    os.write = write",
        "for i in range(20):",
        "    print(f'print {i}')",
        "    subprocess.run(['echo', f'child {i}'])",
        "None",
      ].join("\n"),
    );
    const text = resultText(result).split("\n");
    expect(text).toContain("interrupted");
    // The interrupted child's output comes before the next child's, not always before the print.
    expect(text.filter((line) => !line.startsWith("interrupted")).join("\n")).toBe(lines.join("\n"));
  });

  it("runs a child from a signal handler that came while a mark was being written", async () => {
    // The signal is raised as the mark's write starts (os.write is wrapped for that); the
    // handler's child waited for the mark lock the interrupted code held, in the same thread.
    const result = await cell(
      [
        "import os, signal, subprocess",
        "write, signalled = os.write, []",
        "def handler(signum, frame):\n    subprocess.run(['echo', 'from the handler'])",
        "previous = signal.signal(signal.SIGUSR1, handler)",
        "def write_with_signal(fd, data):",
        "    if not signalled and b'tools-fd-mark' in bytes(data):",
        "        signalled.append(1)\n        signal.raise_signal(signal.SIGUSR1)",
        "    return write(fd, data)",
        "os.write = write_with_signal",
        "try:\n    subprocess.run(['echo', 'outer child'])",
        "finally:\n    os.write = write\n    signal.signal(signal.SIGUSR1, previous)",
        "print('after')",
        "None",
      ].join("\n"),
    );
    expect(resultText(result)).toBe("outer child\nfrom the handler\nafter");
  });

  it("gives a child exactly the fds its Popen asked for: PIPE, DEVNULL, a file, STDOUT, 2 and 1", async () => {
    // A child given our pipe gets a description of it of its own; any other target is left as it is.
    const result = await cell(
      [
        "import os, subprocess, sys, tempfile",
        "probe = [sys.executable, '-c', 'import os, sys; os.write(int(sys.argv[1]), \" \".join(os.readlink(f\"/proc/self/fd/{fd}\") for fd in (1, 2)).encode())']",
        "def ends(**kwargs):",
        "    read_end, write_end = os.pipe()",
        "    subprocess.run(probe + [str(write_end)], pass_fds=(write_end,), **kwargs)",
        "    os.close(write_end)",
        "    got = os.read(read_end, 1000).decode().split()",
        "    os.close(read_end)",
        "    return got",
        "out, err = os.readlink('/proc/self/fd/1'), os.readlink('/proc/self/fd/2')",
        "file = tempfile.NamedTemporaryFile()",
        "cases = {",
        "    'inherit': (ends(), [out, err]),",
        "    'devnull': (ends(stdout=subprocess.DEVNULL), ['/dev/null', err]),",
        "    'file': (ends(stdout=file, stderr=subprocess.STDOUT), [file.name, file.name]),",
        "    'stdout': (ends(stderr=subprocess.STDOUT), [out, out]),",
        "    'swapped': (ends(stdout=2, stderr=1), [err, out]),",
        "}",
        "captured = ends(capture_output=True)",
        "cases['capture'] = (captured, [e for e in captured if e.startswith('pipe:') and e not in (out, err)])",
        "sorted(name for name, (got, want) in cases.items() if got != want or len(got) != 2)",
      ].join("\n"),
    );
    expect(resultText(result)).toBe("[]");
  });

  it("shows a child given stdout=sys.stdout or stderr=sys.stderr, and sys.stdout.fileno(), as the cell's output", async () => {
    // ipykernel's fileno() was the kernel's own stream (the harness's stderr): all of it was lost.
    const result = await cell(
      [
        "import os, subprocess, sys",
        "print('before')",
        "subprocess.run(['echo', 'to sys.stdout'], stdout=sys.stdout)",
        "subprocess.run(['echo', 'to sys.stderr'], stdout=sys.stderr)",
        "subprocess.run(['sh', '-c', 'echo stderr to sys.stdout >&2'], stderr=sys.stdout)",
        "print('between')",
        "os.write(sys.stdout.fileno(), b'written to fileno\\n')",
        "None",
      ].join("\n"),
    );
    expect(resultText(result)).toBe(
      "before\nto sys.stdout\nto sys.stderr\nstderr to sys.stdout\nbetween\nwritten to fileno",
    );
  });

  it("shows a forked child's sys.stdout.fileno() and stdout=sys.stdout as the cell's output", async () => {
    // In a forked child (multiprocessing's default "fork", os.fork) the reader thread is not alive,
    // so fileno() was ipykernel's copy of the kernel's own stream again: all of this was lost.
    const result = await cell(
      [
        "import multiprocessing, os, subprocess, sys",
        "def work(name):",
        "    os.write(sys.stdout.fileno(), f'{name}: os.write to fileno\\n'.encode())",
        "    subprocess.run(['echo', f'{name}: stdout=sys.stdout'], stdout=sys.stdout)",
        "    subprocess.run(['sh', '-c', f'echo {name}: stderr=sys.stdout >&2'], stderr=sys.stdout)",
        "child = multiprocessing.get_context('fork').Process(target=work, args=('multiprocessing',))",
        "child.start()\nchild.join(30)",
        "pid = os.fork()",
        "if pid == 0:",
        "    try:\n        work('os.fork')",
        "    finally:\n        os._exit(0)",
        "os.waitpid(pid, 0)\nNone",
      ].join("\n"),
    );
    expect(resultText(result)).toBe(
      [
        "multiprocessing: os.write to fileno",
        "multiprocessing: stdout=sys.stdout",
        "multiprocessing: stderr=sys.stdout",
        "os.fork: os.write to fileno",
        "os.fork: stdout=sys.stdout",
        "os.fork: stderr=sys.stdout",
      ].join("\n"),
    );
  });

  it("sends what a forked child writes through a handler holding ipykernel's stream to fd 1, in order with its prints", async () => {
    // A logging handler set up in the kernel keeps ipykernel's sys.stdout. In a forked child that
    // stream sent each write as a message of the kernel's own session (its key, its cell's header)
    // over a ZMQ connection made from the kernel's context copied by fork: out of order with the
    // child's prints, which go through fd 1. The session's send is watched for a call from a child.
    const result = await cell(
      [
        "import logging, multiprocessing, os, sys",
        "log = logging.getLogger('forked-child-test')",
        "log.addHandler(logging.StreamHandler(sys.stdout))",
        "log.setLevel(logging.INFO)",
        "log.propagate = False",
        "kernel, session = os.getpid(), sys.stdout.session",
        "send, sent_by_child = session.send, os.path.join(os.getcwd(), 'sent-by-child')",
        "def watched_send(*args, **kwargs):",
        "    if os.getpid() != kernel:\n        open(sent_by_child, 'a').write('sent\\n')",
        "    return send(*args, **kwargs)",
        "session.send = watched_send",
        "def work(tag):",
        "    for i in range(20):\n        print(f'{tag} print {i}')\n        log.info(f'{tag} log {i}')",
        "    sys.stdout.flush()",
        "try:",
        "    for tag in ('fork', 'os.fork'):",
        "        if tag == 'fork':",
        "            child = multiprocessing.get_context('fork').Process(target=work, args=(tag,))",
        "            child.start()\n            child.join(30)",
        "        else:",
        "            pid = os.fork()",
        "            if pid == 0:",
        "                try:\n                    work(tag)\n                finally:\n                    os._exit(0)",
        // os.waitpid waits for no output: the child's is read before the echo (the cell's end).
        "            os.waitpid(pid, 0)",
        "        if tag == 'fork':\n            print(f'{tag} joined')",
        "finally:",
        "    session.send = send",
        "    log.handlers.clear()",
        "os.path.exists(sent_by_child)",
      ].join("\n"),
    );
    const lines = (tag: string) =>
      Array.from({ length: 20 }, (_, i) => [`${tag} print ${i}`, `${tag} log ${i}`]).flat();
    expect(resultText(result)).toBe(
      [...lines("fork"), "fork joined", ...lines("os.fork"), "False"].join("\n"),
    );
  });

  it("leaks no fd over failed starts, timeouts and an interrupt while a child's fds are opened", async () => {
    // The interrupt is made to come inside the opening of the child's description (os.set_blocking
    // and os.open are wrapped for that): the one opened was left open in the kernel.
    const result = await cell(
      [
        "import os, subprocess",
        "def count():\n    return len(os.listdir('/proc/self/fd'))",
        "subprocess.run(['true'])\nbefore = count()",
        "for _ in range(300):",
        "    try:\n        subprocess.run(['no-such-binary'])",
        "    except FileNotFoundError:\n        pass",
        "for _ in range(5):",
        "    try:\n        subprocess.run(['sleep', '5'], timeout=0.01)",
        "    except subprocess.TimeoutExpired:\n        pass",
        "set_blocking, open_fd, calls = os.set_blocking, os.open, []",
        "def interrupt_set_blocking(fd, blocking):",
        "    if fd > 2 and blocking and not calls:\n        calls.append(fd)\n        raise KeyboardInterrupt",
        "    return set_blocking(fd, blocking)",
        "def interrupt_second_open(path, *args, **kwargs):",
        "    if str(path).startswith('/proc/self/fd/'):",
        "        calls.append(path)\n        if len(calls) == 3:\n            raise KeyboardInterrupt",
        "    return open_fd(path, *args, **kwargs)",
        "outcomes = []",
        "for patch in ('set_blocking', 'open'):",
        "    setattr(os, patch, interrupt_set_blocking if patch == 'set_blocking' else interrupt_second_open)",
        "    try:\n        subprocess.run(['true'])\n        outcomes.append('ran')",
        "    except KeyboardInterrupt:\n        outcomes.append('interrupted')",
        "    finally:\n        os.set_blocking, os.open = set_blocking, open_fd",
        "outcomes, count() - before",
      ].join("\n"),
    );
    expect(resultText(result)).toBe("(['interrupted', 'interrupted'], 0)");
  });

  it("leaks no fd when an interrupt comes just as the child's description is opened", async () => {
    // A profile function raising at the first C call's return in reopen stands for SIGINT's
    // KeyboardInterrupt raised there: as os.open returned, before its fd was bound to a name,
    // which left that fd open in the kernel for good (Popen, os.system and os.posix_spawn alike).
    const result = await cell(
      [
        "import os, subprocess, sys",
        "def count():\n    return len(os.listdir('/proc/self/fd'))",
        "subprocess.run(['true'])\nos.system('true')\nbefore = count()",
        "def interrupt_in_reopen(frame, event, arg):",
        "    if event == 'c_return' and frame.f_code.co_name == 'reopen':\n        raise KeyboardInterrupt",
        "starts = [lambda: subprocess.run(['true']), lambda: os.system('true'),",
        "          lambda: os.waitpid(os.posix_spawnp('true', ['true'], os.environ), 0)]",
        "outcomes = []",
        "for start in starts * 3:",
        "    sys.setprofile(interrupt_in_reopen)",
        "    try:\n        start()\n        outcomes.append('ran')",
        "    except KeyboardInterrupt:\n        outcomes.append('interrupted')",
        "    finally:\n        sys.setprofile(None)",
        "outcomes.count('interrupted'), count() - before",
      ].join("\n"),
    );
    expect(resultText(result)).toBe("(9, 0)");
  });

  it("gives a child a description of its own when _execute_child is called by keyword (process-wide swap)", async () => {
    // A Popen subclass passing _execute_child's arguments by name: they are not where this
    // Python puts them, so fd 1 and 2 of the whole process are swapped around the start.
    // O_APPEND tags the kernel's own description.
    const result = await cell(
      [
        "import fcntl, inspect, os, subprocess",
        "names = list(inspect.signature(subprocess.Popen._execute_child).parameters)[1:]",
        "class ByName(subprocess.Popen):",
        "    def _execute_child(self, *args):\n        return super()._execute_child(**dict(zip(names, args)))",
        "out = os.path.join(os.getcwd(), 'by-name-flags')",
        "fcntl.fcntl(1, fcntl.F_SETFL, fcntl.fcntl(1, fcntl.F_GETFL) | os.O_APPEND)",
        "for i in range(3):",
        "    print(f'print {i}')",
        "    ByName(['sh', '-c', 'flags=$(grep ^flags: /proc/$$/fdinfo/1); echo \"$flags\" >> \"$0\"; echo child', out]).wait()",
        "captured = ByName(['echo', 'captured'], stdout=subprocess.PIPE).communicate()[0]",
        "try:\n    ByName(['no-such-binary'])",
        "except FileNotFoundError:\n    pass",
        "kernel_own = bool(fcntl.fcntl(1, fcntl.F_GETFL) & os.O_APPEND)",
        "fcntl.fcntl(1, fcntl.F_SETFL, fcntl.fcntl(1, fcntl.F_GETFL) & ~os.O_APPEND)",
        "with open(out) as lines:\n    shared = sum(1 for line in lines if int(line.split()[1], 8) & os.O_APPEND)",
        "print(shared, captured, kernel_own)",
      ].join("\n"),
    );
    expect(resultText(result)).toBe("print 0\nchild\nprint 1\nchild\nprint 2\nchild\n0 b'captured\\n' True");
  });

  it("gives each child of concurrent threads a description of its own, never the kernel's", async () => {
    // O_APPEND tags the kernel's own description. fd 1 was swapped for the whole process: another
    // thread could put it back on the kernel's between one thread's swap and its child's start.
    const result = await cell(
      [
        "import fcntl, os, subprocess, threading",
        "out = os.path.join(os.getcwd(), 'child-flags')",
        "fcntl.fcntl(1, fcntl.F_SETFL, fcntl.fcntl(1, fcntl.F_GETFL) | os.O_APPEND)",
        "def spawn():",
        "    for _ in range(100):",
        // The flags of sh's own fd 1, read before any redirection of it.
        "        subprocess.run(['sh', '-c', 'flags=$(grep ^flags: /proc/$$/fdinfo/1); echo \"$flags\" >> \"$0\"', out])",
        "threads = [threading.Thread(target=spawn) for _ in range(8)]",
        "for thread in threads:\n    thread.start()",
        "for thread in threads:\n    thread.join(240)",
        "fcntl.fcntl(1, fcntl.F_SETFL, fcntl.fcntl(1, fcntl.F_GETFL) & ~os.O_APPEND)",
        "flags = [int(line.split()[1], 8) for line in open(out)]",
        "len(flags), sum(1 for flag in flags if flag & os.O_APPEND)",
      ].join("\n"),
    );
    expect(resultText(result)).toBe("(800, 0)");
  }, 300_000);
  it("never gives an os.system child of concurrent threads the kernel's own description", async () => {
    // O_APPEND tags the kernel's own description. fd 1 is swapped for the whole process before
    // os.system's child starts; another thread's child ending put it back on the kernel's between
    // that swap and the start (about 1 child in 100 here).
    const result = await cell(
      [
        "import fcntl, os, threading",
        "out = os.path.join(os.getcwd(), 'system-flags')",
        "fcntl.fcntl(1, fcntl.F_SETFL, fcntl.fcntl(1, fcntl.F_GETFL) | os.O_APPEND)",
        "def spawn():",
        "    for _ in range(100):",
        // The flags of sh's own fd 1, read before any redirection of it.
        "        os.system(f'flags=$(grep ^flags: /proc/$$/fdinfo/1); echo \"$flags\" >> {out}')",
        "threads = [threading.Thread(target=spawn) for _ in range(8)]",
        "for thread in threads:\n    thread.start()",
        "for thread in threads:\n    thread.join(240)",
        // Once they have ended, fd 1 is the kernel's own description again.
        "kernel_own = bool(fcntl.fcntl(1, fcntl.F_GETFL) & os.O_APPEND)",
        "fcntl.fcntl(1, fcntl.F_SETFL, fcntl.fcntl(1, fcntl.F_GETFL) & ~os.O_APPEND)",
        "flags = [int(line.split()[1], 8) for line in open(out)]",
        "len(flags), sum(1 for flag in flags if flag & os.O_APPEND), kernel_own, os.get_blocking(1)",
      ].join("\n"),
    );
    expect(resultText(result)).toBe("(800, 0, True, True)");
  }, 300_000);

  it("never gives a posix.system or raw os.system child of concurrent threads the kernel's own description", async () => {
    // O_APPEND tags the kernel's own description. posix.system (the builtin os.system wraps) and a
    // reference to the builtin taken before the wrapping (__wrapped__ stands for one) swapped fd 1
    // as their audit event came but held no swap: another thread's child ending put it back on the
    // kernel's before their child started (125 of 600 here, with libc's system() through ctypes).
    const result = await cell(
      [
        "import fcntl, os, posix, subprocess, threading",
        "out = os.path.join(os.getcwd(), 'raw-system-flags')",
        "fcntl.fcntl(1, fcntl.F_SETFL, fcntl.fcntl(1, fcntl.F_GETFL) | os.O_APPEND)",
        // The flags of sh's own fd 1, read before any redirection of it.
        "command = f'flags=$(grep ^flags: /proc/$$/fdinfo/1); echo \"$flags\" >> {out}'",
        "def spawn(system):",
        "    for _ in range(100):\n        system(command)",
        "def others():",
        "    for _ in range(100):\n        subprocess.run(['true'])",
        "threads = [threading.Thread(target=spawn, args=(posix.system,)) for _ in range(3)]",
        "threads += [threading.Thread(target=spawn, args=(os.system.__wrapped__,)) for _ in range(3)]",
        "threads += [threading.Thread(target=others) for _ in range(2)]",
        "for thread in threads:\n    thread.start()",
        "for thread in threads:\n    thread.join(240)",
        "kernel_own = bool(fcntl.fcntl(1, fcntl.F_GETFL) & os.O_APPEND)",
        "fcntl.fcntl(1, fcntl.F_SETFL, fcntl.fcntl(1, fcntl.F_GETFL) & ~os.O_APPEND)",
        "flags = [int(line.split()[1], 8) for line in open(out)]",
        "len(flags), sum(1 for flag in flags if flag & os.O_APPEND), kernel_own, os.get_blocking(1)",
      ].join("\n"),
    );
    expect(resultText(result)).toBe("(600, 0, True, True)");
  }, 300_000);

  it("keeps later cells' fd 1 off the description of an os.system child still running in a thread", async () => {
    // While an os.system child runs, no other thread's child end puts fd 1 and 2 back on the
    // kernel's own description. For one that kept running (a server started in a thread), every
    // later cell's fd 1 stayed on the description that child was given: once Node there made it
    // non-blocking, the kernel's os.write(1, ...) wrote 65536 bytes of 300000.
    const node = [
      "const fs = require('fs'), path = require('path');",
      "const at = (name) => path.join(process.argv[2], name), until = Date.now() + 60000;",
      "let written = false;",
      "const tick = setInterval(() => {",
      "  if (!written && fs.existsSync(at('go'))) {",
      "    written = true; process.stdout.write('node here\\n'); fs.writeFileSync(at('done'), '');",
      "  }",
      "  if (fs.existsSync(at('stop')) || Date.now() > until) clearInterval(tick);",
      "}, 20);",
    ].join("\n");
    await cell(
      [
        "import os, threading, time",
        "here = os.path.join(os.getcwd(), 'system-node')\nos.makedirs(here, exist_ok=True)",
        "script = os.path.join(here, 'late-stdout.js')",
        `open(script, 'w').write(${JSON.stringify(node)})`,
        "server = threading.Thread(target=os.system, args=(f'node {script} {here}',))\nserver.start()",
        "None",
      ].join("\n"),
    );
    // This cell starts while the child runs; Node makes its stdout non-blocking only now.
    const result = await cell(
      [
        "open(os.path.join(here, 'go'), 'w').close()",
        "deadline = time.monotonic() + 30",
        "while not os.path.exists(os.path.join(here, 'done')) and time.monotonic() < deadline:\n    time.sleep(0.05)",
        "blocking = os.get_blocking(1)",
        "try:\n    written = os.write(1, b'y' * 300000)\nexcept BlockingIOError:\n    written = 'EAGAIN'",
        "open(os.path.join(here, 'stop'), 'w').close()\nserver.join(60)",
        "os.path.exists(os.path.join(here, 'done')), blocking, written, server.is_alive()",
      ].join("\n"),
    );
    const text = resultText(result);
    expect(text.endsWith("(True, True, 300000, False)"), text.slice(-300)).toBe(true);
  }, 120_000);

  it("never gives a multiprocessing spawn child of concurrent threads the kernel's own description", async () => {
    // O_APPEND tags the kernel's own description. fd 1 is swapped for the whole process while a
    // "spawn" child starts; another thread's child ending put it back on the kernel's first.
    const result = await cell(
      [
        "import fcntl, multiprocessing, os, subprocess, threading",
        "out = os.path.join(os.getcwd(), 'mp-spawn-flags')",
        "code = f\"open({out!r}, 'a').write(open('/proc/self/fdinfo/1').read().split()[3] + chr(10))\"",
        "fcntl.fcntl(1, fcntl.F_SETFL, fcntl.fcntl(1, fcntl.F_GETFL) | os.O_APPEND)",
        "context = multiprocessing.get_context('spawn')",
        "def spawn():",
        "    for _ in range(15):",
        "        child = context.Process(target=exec, args=(code, {}))\n        child.start()\n        child.join(60)",
        "def run():",
        "    for _ in range(150):\n        subprocess.run(['true'])",
        "threads = [threading.Thread(target=spawn) for _ in range(4)] + [threading.Thread(target=run) for _ in range(4)]",
        "for thread in threads:\n    thread.start()",
        "for thread in threads:\n    thread.join(240)",
        "fcntl.fcntl(1, fcntl.F_SETFL, fcntl.fcntl(1, fcntl.F_GETFL) & ~os.O_APPEND)",
        "flags = [int(line, 8) for line in open(out)]",
        "len(flags), sum(1 for flag in flags if flag & os.O_APPEND)",
      ].join("\n"),
    );
    expect(resultText(result)).toBe("(60, 0)");
  }, 300_000);

  it("keeps the kernel's fd 1 blocking after a multiprocessing spawn or forkserver child starts Node", async () => {
    // Started past subprocess, the child (and the Node it starts) shared the kernel's description of
    // the pipe; Node made it non-blocking, and the kernel's os.write(1, ...) wrote 65536 bytes of 300000.
    const result = await cell(
      [
        "import multiprocessing, os, signal, subprocess, time",
        'node = \'process.stdout.write("node up\\\\n"); require("fs").writeFileSync(process.argv[1], String(process.pid)); setInterval(() => {}, 1000)\'',
        "outcomes = []",
        "for method in ('spawn', 'forkserver'):",
        "    pid_file = os.path.join(os.getcwd(), f'{method}-node-pid')",
        "    child = multiprocessing.get_context(method).Process(target=subprocess.Popen, args=(['node', '-e', node, pid_file],))",
        "    child.start()\n    child.join(30)",
        "    deadline = time.monotonic() + 20",
        "    while not os.path.exists(pid_file) and time.monotonic() < deadline:\n        time.sleep(0.05)",
        "    time.sleep(0.2)",
        "    try:\n        outcomes.append((method, os.get_blocking(1), os.write(1, b'y' * 300000)))",
        "    finally:\n        os.kill(int(open(pid_file).read()), signal.SIGKILL)",
        "outcomes",
      ].join("\n"),
    );
    const text = resultText(result);
    expect(result.isError, text.slice(-1000)).toBe(false);
    expect(text.endsWith("\n[('spawn', True, 300000), ('forkserver', True, 300000)]"), text.slice(-300)).toBe(
      true,
    );
  }, 120_000);

  it("has a joined multiprocessing child's output in its cell, in order, with fork, spawn and forkserver", async () => {
    // A forked child's print went to the kernel over ipykernel's own pipe (a ZMQ connection per
    // write, taken in any order), a spawn or forkserver child's through fd 1: neither was waited
    // for at join, so a child's output came out of order, after the parent's next print, or after
    // the cell ended (in the next call's output). The child makes the pipe hold 1 MiB, fills most
    // of it and ends at once: the kernel's reader has all of it still to read when join returns.
    await cell("import multiprocessing");
    try {
      for (const method of ["fork", "spawn", "forkserver"]) {
        for (let i = 0; i < 4; i++) {
          const tag = `${method} ${i}`;
          const child = [
            `child = multiprocessing.get_context('${method}').Process(target=exec, args=(`,
            `    "import fcntl, os, sys\\nfcntl.fcntl(1, 1031, 1 << 20)\\n"`,
            `    "for j in range(300):\\n    print(j, end=' ', flush=True)\\n"`,
            `    "sys.stdout.write('x' * 900000 + '\\\\n')\\nprint('${tag} end', flush=True)\\nos._exit(0)", {}))`,
            "child.start()\nchild.join(60)",
          ].join("\n");
          const between = await cell(`print('${tag} before')\n${child}\nprint('${tag} after')`);
          const text = resultText(between);
          expect(text.startsWith(`${tag} before\n0 1 2 3 4 5 `), text.slice(0, 200)).toBe(true);
          expect(text.endsWith(`x\n${tag} end\n${tag} after`), text.slice(-200)).toBe(true);
          // A join that ends the cell: the child's output is that cell's, not the next call's.
          const last = resultText(await cell(child));
          expect(last.startsWith("0 1 2 3 4 5 "), last.slice(0, 200)).toBe(true);
          expect(last.endsWith(`x\n${tag} end`), last.slice(-200)).toBe(true);
          expect(resultText(await cell("None"))).toBe("(no output)");
        }
      }
    } finally {
      // The pipe's usual size again, for the tests after this one.
      await cell("import fcntl\nfcntl.fcntl(1, 1031, 65536)\nNone");
    }
  }, 240_000);

  it("takes no wait for a joined child's output in the reader thread itself (a Pool's finalizer run there)", async () => {
    // The garbage collector runs a Pool's finalizer in whatever thread allocates: the fd 1 reader,
    // as it passes what it read to the stream. The finalizer joins the Pool's workers; each join
    // wrote a mark and waited for a reader to read it, which the reader itself never could while
    // it waited: 2 s per join (measured 2.2 s), that pipe's output held meanwhile. A Pool's
    // finalizer joins only workers still alive then, which made a test through it pass on the
    // old code now and then: the reader joins a child itself here, and waits for one with
    // Popen.wait and os.system. Counted: marks written in a reader thread.
    const result = await cell(
      [
        "import multiprocessing, os, subprocess, sys, threading, time",
        "stream, os_write = sys.stdout, os.write",
        "write, marks, done = stream.write, [], threading.Event()",
        "def counting_write(fd, data):",
        "    if b'tools-fd-mark' in bytes(data) and threading.current_thread().name.startswith('tools-fd'):",
        "        marks.append(fd)",
        "    return os_write(fd, data)",
        "child = multiprocessing.get_context('fork').Process(target=int)",
        "child.start()",
        "while child.is_alive():\n    time.sleep(0.01)",
        "def reader_write(text):",
        "    if threading.current_thread().name.startswith('tools-fd') and not done.is_set():",
        "        try:",
        "            child.join()\n            subprocess.Popen(['true']).wait()\n            os.system('true')",
        "        finally:\n            done.set()",
        "    return write(text)",
        "os.write, stream.write = counting_write, reader_write",
        "try:",
        "    os.write(1, b'wake the reader\\n')",
        "    done.wait(20)",
        "finally:",
        "    os.write = os_write\n    del stream.write",
        "done.is_set(), len(marks)",
      ].join("\n"),
    );
    expect(resultText(result)).toBe("wake the reader\n(True, 0)");
  });

  it("gives each os.posix_spawn child a description of its own while other threads' children end", async () => {
    // O_APPEND tags the kernel's own description. fd 1 was swapped for the whole process before an
    // os.posix_spawn child started; another thread's child ending put it back on the kernel's first.
    const result = await cell(
      [
        "import fcntl, os, subprocess, threading",
        "out = os.path.join(os.getcwd(), 'spawn-flags')",
        'script = \'flags=$(grep ^flags: /proc/$$/fdinfo/1); echo "$flags" >> "$0"\'',
        "fcntl.fcntl(1, fcntl.F_SETFL, fcntl.fcntl(1, fcntl.F_GETFL) | os.O_APPEND)",
        "def spawn():",
        "    for _ in range(100):",
        "        os.waitpid(os.posix_spawnp('sh', ['sh', '-c', script, out], os.environ), 0)",
        "def run():",
        "    for _ in range(100):\n        subprocess.run(['true'])",
        "threads = [threading.Thread(target=spawn) for _ in range(4)] + [threading.Thread(target=run) for _ in range(4)]",
        "for thread in threads:\n    thread.start()",
        "for thread in threads:\n    thread.join(240)",
        "fcntl.fcntl(1, fcntl.F_SETFL, fcntl.fcntl(1, fcntl.F_GETFL) & ~os.O_APPEND)",
        "flags = [int(line.split()[1], 8) for line in open(out)]",
        // The cell's own file actions still apply after ours, and a child left on fd 1 is the cell's output.
        "redirected = os.path.join(os.getcwd(), 'spawn-redirected')",
        "os.waitpid(os.posix_spawn('/bin/echo', ['echo', 'into the file'], os.environ, file_actions=[(os.POSIX_SPAWN_OPEN, 1, redirected, os.O_WRONLY | os.O_CREAT, 0o600)]), 0)",
        "os.waitpid(os.posix_spawnp('echo', ['echo', 'spawned'], os.environ), 0)",
        "len(flags), sum(1 for flag in flags if flag & os.O_APPEND), open(redirected).read()",
      ].join("\n"),
    );
    expect(resultText(result)).toBe("spawned\n(400, 0, 'into the file\\n')");
  }, 300_000);

  it("leaks no fd when an interrupt comes while an os.posix_spawn child is being started", async () => {
    // The child's file actions wait on a FIFO that a helper opens only after it has sent the kernel
    // SIGINT, so the interrupt comes inside os.posix_spawn. Python 3.11 raises it at the first check
    // after that call: after the wrapper had closed the first of the child's two fds, the second was
    // left open in the kernel, one per interrupted spawn.
    const result = await cell(
      [
        "import os, signal, subprocess",
        "def count():\n    return len(os.listdir('/proc/self/fd'))",
        "os.waitpid(os.posix_spawnp('true', ['true'], os.environ), 0)\nbefore = count()",
        "outcomes = []",
        "for attempt in range(3):",
        "    ready, go = (os.path.join(os.getcwd(), f'spawn-{name}-{attempt}') for name in ('ready', 'go'))",
        "    os.mkfifo(ready)\n    os.mkfifo(go)",
        "    helper = subprocess.Popen(['sh', '-c', 'exec 3<\"$1\"; kill -INT \"$3\"; exec cat \"$2\" >/dev/null', 'sh', ready, go, str(os.getpid())])",
        "    actions = [(os.POSIX_SPAWN_OPEN, 50, ready, os.O_WRONLY, 0), (os.POSIX_SPAWN_OPEN, 51, go, os.O_WRONLY, 0)]",
        "    try:",
        "        pid = os.posix_spawnp('true', ['true'], os.environ, file_actions=actions)",
        "        outcomes.append('ran')",
        "    except KeyboardInterrupt:",
        "        outcomes.append('interrupted')",
        "    helper.wait(20)",
        "outcomes, count() - before",
      ].join("\n"),
    );
    expect(resultText(result)).toBe("(['interrupted', 'interrupted', 'interrupted'], 0)");
  });

  it("fails an os.posix_spawn given file_actions that are not a sequence with Python's own message", async () => {
    // The wrapper unpacked them into its own list: "Value after * must be an iterable, not int", or
    // for 0 nothing at all (0 or () ran the child).
    const result = await cell(
      [
        "import os",
        "errors = []",
        "for actions in (5, 0):",
        "    try:\n        os.waitpid(os.posix_spawnp('true', ['true'], os.environ, file_actions=actions), 0)",
        "    except TypeError as error:\n        errors.append(str(error))",
        "print(errors)",
      ].join("\n"),
    );
    expect(resultText(result)).toBe(
      "['file_actions must be a sequence or None', 'file_actions must be a sequence or None']",
    );
  });

  it("gives fd 1 and 2 back to later cells after a cell closed sys.stdout.fileno() and sys.stderr.fileno()", async () => {
    // fileno() is fd 1 and 2 now: a file opened on it and closed, or os.close, closed the pipe for
    // good, and every later cell's child failed ("echo: write error: Bad file descriptor").
    const closing = await cell(
      [
        "import os, subprocess, sys",
        "with open(sys.stdout.fileno(), 'w') as out:\n    out.write('written through fileno\\n')",
        "os.close(sys.stderr.fileno())",
        "None",
      ].join("\n"),
    );
    expect(resultText(closing)).toBe("written through fileno");
    const later = await cell(
      [
        "subprocess.run(['echo', 'a later child'])",
        "subprocess.run(['sh', '-c', 'echo a later error >&2'])",
        "os.write(1, b'a later os.write\\n')",
        "None",
      ].join("\n"),
    );
    expect(resultText(later)).toBe("a later child\na later error\na later os.write");
    // A file the cell put in the pipe's place stays there.
    const replaced = await cell(
      [
        "path = os.path.join(os.getcwd(), 'in-place-of-fd-1')",
        "saved = os.dup(1)\nos.close(1)",
        "placed = os.open(path, os.O_WRONLY | os.O_CREAT, 0o600)",
        "os.set_inheritable(placed, True)",
        "placed",
      ].join("\n"),
    );
    expect(resultText(replaced)).toBe("1");
    const back = await cell(
      "subprocess.run(['echo', 'into the file'])\nos.dup2(saved, 1)\nos.close(saved)\nopen(path).read()",
    );
    expect(resultText(back)).toBe("'into the file\\n'");
  });
});

describePython("what a Python cell's children write to fd 1 once our reader has stopped", () => {
  let workspace: ReturnType<typeof makeWorkspace>;
  let registry: Registry;
  let run: Run;

  beforeAll(() => {
    expect(pythonFound).toBe(true);
    workspace = makeWorkspace();
    ({ registry, run } = makeRun(workspace.directory, { inactivityMs: 30_000 }));
  });
  afterAll(async () => {
    await run?.dispose();
    workspace?.remove();
  });

  it("writes no mark and does not block on a full pipe when the reader has stopped", async () => {
    // The reader is stopped as ipykernel stops it at shutdown. A mark went into the pipe
    // anyway (and the cell waited 2 s for it); into a full pipe its write blocked for good.
    const result = await registry.invoke(run, {
      tool: "eval",
      args: {
        description: "stop the fd reader and run a child",
        code: [
          "import os, subprocess, sys",
          "reader = sys.stdout.watch_fd_thread",
          "sys.stdout._should_watch = False",
          "os.write(1, b'last read\\n')",
          "reader.join(10)",
          "filler = os.open('/proc/self/fd/1', os.O_WRONLY | os.O_NONBLOCK)",
          "try:\n    while True:\n        os.write(filler, b'z' * 4096)",
          "except BlockingIOError:\n    pass",
          "os.close(filler)",
          "code = subprocess.run(['true']).returncode",
          "read_end, left = sys.stdout._fid, b''",
          "os.set_blocking(read_end, False)",
          "try:\n    while chunk := os.read(read_end, 65536):\n        left += chunk",
          "except BlockingIOError:\n    pass",
          "print(reader.is_alive(), code, b'tools-fd-mark' in left, len(left) > 0)",
        ].join("\n"),
      },
    });
    expect(resultText(result)).toContain("False 0 False True");
  });
});

describePython("a forked child printing when its kernel dies", () => {
  it("gets an error writing (its own copy of the pipe's read end is closed), not blocked for good on a pipe nobody reads", async () => {
    // A forked child inherited the read end of the kernel's output pipe. Once the kernel was gone
    // (a crash, killed on its own) the child held the only read end: its print filled the pipe and
    // blocked for good, an orphan until the run ended. It now gets EPIPE and ends.
    const workspace = makeWorkspace();
    const { registry, run } = makeRun(workspace.directory);
    const pidFile = join(workspace.directory, "child.pid");
    let child = 0;
    let childProcess: ReturnType<typeof identify>;
    try {
      const cell = (code: string) =>
        registry.invoke(run, { tool: "eval", args: { code, description: "fork a printer and exit" } });
      const kernel = Number(resultText(await cell("import os\nos.getpid()")));
      await cell(
        [
          "import time",
          "pid = os.fork()",
          "if pid == 0:",
          "    try:\n        while True:\n            print('y' * 1000)",
          "    finally:\n        os._exit(0)",
          `open(${JSON.stringify(pidFile)}, 'w').write(str(pid))`,
          "time.sleep(0.2)",
          // The kernel dies (a crash); exit() cannot end it from a cell.
          "os._exit(3)",
        ].join("\n"),
      );
      child = Number(readFileSync(pidFile, "utf8"));
      childProcess = identify(child);
      expect(child).toBeGreaterThan(0);
      await expect.poll(() => running(kernel), { timeout: 10_000 }).toBe(false);
      // Before the run ends (which would end it by its process mark).
      await expect.poll(() => running(child), { timeout: 10_000 }).toBe(false);
    } finally {
      killStill(childProcess);
      await run.dispose();
      workspace.remove();
    }
  });
});
