import { expectText, sequenceStep, type TourSection } from "./tour-step.js";
import { holdMarker } from "./scripted-model-server.js";

/** Part 8: vibe workers on a local scripted model server. */
export const vibeTourSection: TourSection = {
  title: "vibe: background workers",
  note: "The workers talk to a local SCRIPTED model server on 127.0.0.1 (OpenAI-compatible API), not a real model: its answers are fixed by the tour.",
  steps: [
    sequenceStep("spawn two workers, list them, wait for one, kill the other", async (call) => {
      const first = expectText(
        await call("vibe_spawn", {
          brief: "Summarise the stats helpers: read python/stats.py and report its first line.",
          label: "summarise stats",
        }),
        /Spawned (w\d+)/,
      );
      const second = expectText(
        await call("vibe_spawn", {
          brief: `Review the Go module: read go/main.go. ${holdMarker}`,
          label: "review go (held by the script)",
        }),
        /Spawned (w\d+)/,
      );
      const firstId = /Spawned (w\d+)/.exec(first)?.[1] ?? "";
      const secondId = /Spawned (w\d+)/.exec(second)?.[1] ?? "";
      expectText(await call("vibe_list", {}), secondId);
      expectText(
        await call("vibe_wait", { worker_id: firstId, timeout_seconds: 30 }),
        "[scripted model] I read it",
      );
      expectText(await call("vibe_kill", { worker_id: secondId }), secondId);
      const list = expectText(await call("vibe_list", {}), firstId);
      if (!/killed|cancel/i.test(list)) throw new Error(`vibe_list does not show ${secondId} as killed`);
      return true;
    }),
  ],
};
