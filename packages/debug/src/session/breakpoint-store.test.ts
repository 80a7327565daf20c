import { describe, expect, it } from "vitest";
import { BreakpointStore } from "./breakpoint-store.js";

describe("BreakpointStore", () => {
  it("applies a breakpoint event that overtook the setBreakpoints answer", () => {
    const store = new BreakpointStore();
    store.set("/p/a.dart", [3, 3, 7]);
    expect(store.files.get("/p/a.dart")!.lines).toEqual([3, 7]);
    store.update(1, { verified: true, line: 4 });
    const results = store.store("/p/a.dart", [
      { requested: 3, line: undefined, verified: false, message: undefined, id: 1 },
      { requested: 7, line: undefined, verified: false, message: "pending", id: 2 },
    ]);
    expect(results[0]).toMatchObject({ requested: 3, line: 4, verified: true });
    store.update(2, { verified: false, message: "no code at line 7" });
    expect(store.files.get("/p/a.dart")!.results![1]).toMatchObject({
      verified: false,
      message: "no code at line 7",
    });
  });

  it("clears a file with an empty list", () => {
    const store = new BreakpointStore();
    store.set("/p/a.py", [1]);
    store.set("/p/a.py", []);
    expect(store.files.size).toBe(0);
  });

  it("keeps a file's lines in order, whatever order they were given in", () => {
    const store = new BreakpointStore();
    store.set("/p/a.py", [16, 9, 16]);
    expect(store.files.get("/p/a.py")!.lines).toEqual([9, 16]);
  });

  it("forgets the lines a failed request left in a session when the next session starts", () => {
    const store = new BreakpointStore();
    store.set("/p/main.go", [15]);
    store.fail("/p/main.go", "not known in this session", [11, 15, 16]);
    expect(store.files.get("/p/main.go")).toMatchObject({ lines: [15], held: [11, 15, 16] });
    store.resetResults();
    expect(store.files.get("/p/main.go")).toMatchObject({ lines: [15], held: undefined, failed: undefined });
  });
});
