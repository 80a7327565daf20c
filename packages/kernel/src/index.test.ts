import { describe, expect, it } from "vitest";
import * as api from "./index.js";

describe("public API", () => {
  it("exports exactly the named runtime values", () => {
    expect(Object.keys(api).sort()).toEqual([
      "KernelClient",
      "KernelError",
      "createKernelFactory",
      "defaultOutputLimits",
      "evalTool",
      "kernelFactoryKey",
      "rewriteCell",
    ]);
  });

  it("registers eval only when a kernel factory is wired", () => {
    expect(api.evalTool.requires).toEqual([api.kernelFactoryKey]);
    expect(api.evalTool.tier).toBe("exec");
    expect(api.evalTool.parallelSafe).toBe(false);
  });
});
