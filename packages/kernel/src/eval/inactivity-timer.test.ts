import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { describeBudget, InactivityTimer } from "./inactivity-timer.js";

describe("InactivityTimer", () => {
  beforeEach(() => {
    vi.useFakeTimers();
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
