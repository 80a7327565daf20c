import type { Tool } from "@tools/registry";
import { vibeKillTool } from "./vibe-kill.js";
import { vibeListTool } from "./vibe-list.js";
import { vibeSendTool } from "./vibe-send.js";
import { vibeSpawnTool } from "./vibe-spawn.js";
import { vibeWaitTool } from "./vibe-wait.js";

/** The five vibe_* tools, all read tier, registered in a run only while its vibe list is wired. */
export const vibeTools: readonly Tool[] = [
  vibeSpawnTool,
  vibeSendTool,
  vibeWaitTool,
  vibeKillTool,
  vibeListTool,
];
