// The demo harness's programmatic API, for tests and for later issues that wire more packages.

export { createDemoRun, noApproverHint, toolPackages } from "./create-demo-run.js";
export type { DemoRun, DemoRunOptions, ToolPackage, WireContext } from "./create-demo-run.js";
export {
  applyPatchTool,
  editTool,
  grepTool,
  harnessTools,
  readTool,
  shellTool,
  writeTool,
} from "./tools/index.js";
