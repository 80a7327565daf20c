import { describe, expect, it } from "vitest";
import { moduleOf } from "./overrides-left-out.js";

describe("moduleOf", () => {
  it("names a library file's module from the folder packages are installed in", () => {
    expect(moduleOf("/x/typeshed-fallback/stdlib/threading.pyi")).toBe("threading");
    expect(moduleOf("/x/typeshed-fallback/stdlib/concurrent/futures/thread.pyi")).toBe(
      "concurrent.futures.thread",
    );
    expect(moduleOf("/x/typeshed-fallback/stubs/requests/requests/sessions.pyi")).toBe("requests.sessions");
    expect(moduleOf("/p/.venv/lib/python3.11/site-packages/worklib/__init__.py")).toBe("worklib");
    expect(moduleOf("/usr/lib/python3/dist-packages/pkg/sub/mod.py")).toBe("pkg.sub.mod");
    expect(moduleOf("/elsewhere/lib.py")).toBe("lib");
  });
});
