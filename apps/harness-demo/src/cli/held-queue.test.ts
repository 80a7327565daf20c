import { describe, expect, it } from "vitest";
import { HeldQueue } from "./held-queue.js";

describe("HeldQueue", () => {
  it("keeps every item without a key, and of those with a key only the latest, in its arrival place", () => {
    const queue = new HeldQueue<string>();
    queue.hold("w1: 10%", "w1");
    queue.hold("done: w0");
    queue.hold("w2: 5%", "w2");
    queue.hold("w1: 50%", "w1");
    queue.hold("done: w0");
    expect(queue.take()).toEqual(["done: w0", "w2: 5%", "w1: 50%", "done: w0"]);
  });

  it("is empty after a take", () => {
    const queue = new HeldQueue<number>();
    queue.hold(1, "a");
    expect(queue.take()).toEqual([1]);
    expect(queue.take()).toEqual([]);
  });
});
