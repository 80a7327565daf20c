import { once } from "node:events";
import { createServer, connect, type AddressInfo, type Socket } from "node:net";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { describeBudget, InactivityTimer, RunningTimeLimit } from "./inactivity-timer.js";

describe("InactivityTimer on a starved event loop", () => {
  it("reads a message already waiting on a socket before calling the budget spent", async () => {
    // This process is blocked past the budget while the cell's next message sits in a socket:
    // Node runs the expired timer before reading it, and the timer must still see the message.
    const server = createServer();
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    const accepted = once(server, "connection") as Promise<[Socket]>;
    const client = connect((server.address() as AddressInfo).port, "127.0.0.1");
    await once(client, "connect");
    const [socket] = await accepted;
    let fired = 0;
    const timer = new InactivityTimer(20, () => fired++);
    socket.on("data", () => timer.touch());
    client.write("output");
    const blockedUntil = Date.now() + 100;
    while (Date.now() < blockedUntil) {
      // starved: the budget runs out while the message waits
    }
    await new Promise((resolve) => setTimeout(resolve, 5));
    expect(fired).toBe(0);
    timer.stop();
    client.destroy();
    socket.destroy();
    server.close();
  });
});

describe("InactivityTimer", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "setImmediate", "clearImmediate"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("fires after the budget without activity, and activity restarts it", () => {
    let fired = 0;
    const timer = new InactivityTimer(1000, () => fired++);
    vi.advanceTimersByTime(900);
    timer.touch();
    vi.advanceTimersByTime(900);
    expect(fired).toBe(0);
    vi.advanceTimersByTime(100);
    vi.runOnlyPendingTimers(); // the one loop turn the timer gives waiting I/O
    expect(fired).toBe(1);
  });

  it("never fires while paused (a bridged call in flight), and resumes with a full budget", () => {
    let fired = 0;
    const timer = new InactivityTimer(1000, () => fired++);
    timer.pause();
    vi.advanceTimersByTime(60_000);
    expect(fired).toBe(0);
    timer.resume();
    vi.advanceTimersByTime(999);
    expect(fired).toBe(0);
    vi.advanceTimersByTime(1);
    vi.runOnlyPendingTimers();
    expect(fired).toBe(1);
    timer.stop();
  });

  it("describes a budget in the unit a person reads", () => {
    expect(describeBudget(300_000)).toBe("5 minutes");
    expect(describeBudget(90_000)).toBe("90 s");
    expect(describeBudget(1000)).toBe("1 s");
    expect(describeBudget(400)).toBe("0.4 s");
    expect(describeBudget(1250)).toBe("1.3 s");
  });
});

describe("RunningTimeLimit", () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout"] });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("fires after the running time in all, however busy the cell is, leaving out paused stretches", () => {
    let clock = 0;
    let fired = 0;
    const advance = (ms: number) => {
      clock += ms;
      vi.advanceTimersByTime(ms);
    };
    const limit = new RunningTimeLimit(
      1000,
      () => fired++,
      () => clock,
    );
    advance(600);
    limit.pause();
    limit.pause(); // nested: two bridged calls at once
    advance(60_000);
    limit.resume();
    advance(60_000);
    expect(fired).toBe(0);
    limit.resume();
    advance(399);
    expect(fired).toBe(0);
    advance(1);
    expect(fired).toBe(1);
    advance(5000);
    expect(fired).toBe(1);
  });

  it("never fires once stopped", () => {
    let fired = 0;
    const limit = new RunningTimeLimit(
      100,
      () => fired++,
      () => 0,
    );
    limit.stop();
    vi.advanceTimersByTime(1000);
    expect(fired).toBe(0);
  });
});
