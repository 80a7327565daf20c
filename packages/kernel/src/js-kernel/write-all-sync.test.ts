import { describe, expect, it } from "vitest";
import { bytesOfWriteSync, writeAllSync, type WriteSome } from "./write-all-sync.js";

// A pipe flipped to non-blocking by a child mid-write cannot be timed reliably in a test: the
// write function is injected here, playing the pipe's short writes and EAGAIN.
const eagain = (): Error =>
  Object.assign(new Error("EAGAIN: resource temporarily unavailable"), { code: "EAGAIN" });

describe("writeAllSync", () => {
  it("writes the rest after a short write and after EAGAIN, setting blocking again each time", () => {
    const written: number[] = [];
    const steps: ("short" | "eagain" | "all")[] = ["short", "eagain", "short", "all"];
    let blocking = 0;
    const write: WriteSome = (_fd, bytes, offset, length) => {
      const step = steps.shift() ?? "all";
      if (step === "eagain") throw eagain();
      const count = step === "short" ? Math.min(3, length) : length;
      written.push(...bytes.subarray(offset, offset + count));
      return count;
    };
    const bytes = new TextEncoder().encode("hello, pipe");
    expect(writeAllSync(write, 1, bytes, () => blocking++)).toBe(bytes.length);
    expect(new TextDecoder().decode(new Uint8Array(written))).toBe("hello, pipe");
    expect(blocking).toBe(3);
  });

  it("throws the EAGAIN once nothing could be written for the stall bound, never losing it silently", () => {
    const write: WriteSome = () => {
      throw eagain();
    };
    expect(() => writeAllSync(write, 1, new Uint8Array([1, 2]), () => {}, 20)).toThrow("EAGAIN");
  });

  it("throws other errors at once", () => {
    let calls = 0;
    const write: WriteSome = () => {
      calls++;
      throw Object.assign(new Error("EBADF: bad file descriptor"), { code: "EBADF" });
    };
    expect(() => writeAllSync(write, 1, new Uint8Array([1]), () => {})).toThrow("EBADF");
    expect(calls).toBe(1);
  });
});

describe("bytesOfWriteSync", () => {
  it("takes a string with its encoding, and a view's offset and length", () => {
    expect(Buffer.from(bytesOfWriteSync(["é"])!).toString("utf8")).toBe("é");
    expect(Buffer.from(bytesOfWriteSync(["6869", null, "hex"])!).toString("utf8")).toBe("hi");
    expect(Buffer.from(bytesOfWriteSync([Buffer.from("abcdef"), 1, 3])!).toString("utf8")).toBe("bcd");
    expect(Buffer.from(bytesOfWriteSync([Buffer.from("abc")])!).toString("utf8")).toBe("abc");
  });

  it("leaves a write at a position, or with an options object, to fs.writeSync as it is", () => {
    expect(bytesOfWriteSync(["x", 0])).toBeUndefined();
    expect(bytesOfWriteSync([Buffer.from("x"), 0, 1, 5])).toBeUndefined();
    expect(bytesOfWriteSync([Buffer.from("x"), { offset: 0 }])).toBeUndefined();
  });
});
