import { afterEach, describe, expect, it } from "vitest";
import { createKit, RecordingApprover, reachStatus, type Kit } from "../__fixtures__/test-kit.js";
import { createCommandBackend } from "../backends/command-backend.js";

/** The permission card folds a summary over this many characters, keeping its start and end. */
const cardSummaryLimit = 500;
/** What of a summary the card shows: whole within the bound, else about 235 characters of each end. */
function cardShows(summary: string): string {
  return summary.length <= cardSummaryLimit ? summary : `${summary.slice(0, 235)} … ${summary.slice(-235)}`;
}
/** A 182-character --vibe-command: long enough to fill the start of a folded summary. */
const longCommand = ["sh", "-c", `cat > /dev/null; echo done # ${"padding-".repeat(19)}`.slice(0, 176)];

// What the operator must read on the card survives the card's fold: the summary starts with
// UNGATED and fits the bound (so the card shows it whole), and vibe_send's new message is in it.
describe("the approval card of an ungated vibe_spawn and vibe_send", () => {
  let kit: Kit | undefined;
  afterEach(async () => {
    await kit?.cleanup();
    kit = undefined;
  });

  it("keeps UNGATED in sight with a long command and a long brief", async () => {
    expect(longCommand.join(" ")).toHaveLength(182);
    const approver = new RecordingApprover(false);
    kit = createKit({ backend: createCommandBackend({ command: longCommand }), approver, approval: "ask" });
    const brief = `Rename getUser to fetchUser everywhere. ${"Check every caller and the tests. ".repeat(20)}`;
    const denied = await kit.call("vibe_spawn", { brief, label: "rename getUser" });
    expect(denied.error?.code).toBe("APPROVAL_DENIED");
    const summary = approver.requests[0]?.summary ?? "";
    expect(cardShows(summary)).toContain("UNGATED");
    expect(cardShows(summary)).toContain("do not ask for approval");
    expect(summary.startsWith("UNGATED (sh) spawn fast worker")).toBe(true);
    expect(summary.length).toBeLessThanOrEqual(cardSummaryLimit);
    expect(summary).toContain("do not ask for approval");
    expect(summary).toContain("Rename getUser to fetchUser");
  });

  it("shows vibe_send's new message first, whole, after a long brief", async () => {
    const approver = new RecordingApprover(true);
    kit = createKit({ backend: createCommandBackend({ command: longCommand }), approver, approval: "ask" });
    const brief = `Old task. ${"Line of the old brief.\n".repeat(100)}`;
    expect((await kit.call("vibe_spawn", { brief, label: "old" })).isError).toBe(false);
    await reachStatus(kit.list, "w1", "done");
    const message = "Also update the docs in README.md, then STOP.";
    expect((await kit.call("vibe_send", { worker_id: "w1", message })).isError).toBe(false);
    const summary = approver.requests[1]?.summary ?? "";
    expect(cardShows(summary)).toContain("UNGATED");
    expect(cardShows(summary)).toContain(message);
    expect(summary.startsWith("UNGATED (sh) re-brief worker w1")).toBe(true);
    expect(summary.length).toBeLessThanOrEqual(cardSummaryLimit);
    expect(summary).toContain(message);
    expect(summary.indexOf(message)).toBeLessThan(summary.indexOf("Old task."));
  });
});
