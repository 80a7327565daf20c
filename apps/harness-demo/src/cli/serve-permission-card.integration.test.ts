import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ServeSession } from "../__fixtures__/cli-process.js";

let dir: string;
let session: ServeSession | undefined;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "harness-demo-permission-")));
  await writeFile(join(dir, "old.txt"), "old\n");
  await writeFile(join(dir, "keep.txt"), "keep\n");
});

afterEach(async () => {
  if (session && session.child.exitCode === null && session.child.signalCode === null) await session.close();
  session = undefined;
  await rm(dir, { recursive: true, force: true });
});

type Line = Record<string, unknown>;
interface CardLine {
  readonly card_id: string;
  readonly card: { readonly question: string; readonly text: string; readonly arguments?: Line };
}

/** The next permission card line after the `seen` ones. */
async function nextCard(open: ServeSession, seen: Set<string>): Promise<CardLine> {
  const line = await open.response(
    (response) => response["event"] === "card" && !seen.has(String(response["card_id"])),
  );
  seen.add(String(line["card_id"]));
  return line as unknown as CardLine;
}

describe("serve --operator jsonl: the permission card shows what would run", () => {
  it("shows a long shell command's end in the text and carries it whole in the card's arguments", async () => {
    session = new ServeSession(["--workdir", dir, "--operator", "jsonl", "--approval", "ask"]);
    const seen = new Set<string>();
    const command = `npm test -- --reporter=dot ${Array.from({ length: 30 }, (_, i) => `--grep=case${i}`).join(" ")} ; rm -rf ./important`;
    expect(command.length).toBeGreaterThan(350);
    session.sendLine(JSON.stringify({ id: "s", tool: "shell", args: { command } }));
    const card = await nextCard(session, seen);
    expect(card.card.arguments).toEqual({ command });
    expect(card.card.question).toContain("; rm -rf ./important`?");
    expect(card.card.text).toContain(`Arguments: command=${JSON.stringify(command)}`);
    session.sendLine(JSON.stringify({ card_id: card.card_id, answer: "3" }));
    expect(await session.response((response) => response["id"] === "s")).toMatchObject({ ok: false });

    // A write: the path, its size and the content (whole in arguments; folded in the text, both ends kept).
    const content = `first line\n${"filler\n".repeat(2_000)}last line\n`;
    session.sendLine(JSON.stringify({ id: "w", tool: "write", args: { path: "big.txt", content } }));
    const write = await nextCard(session, seen);
    expect(write.card.arguments).toEqual({ path: "big.txt", content });
    expect(write.card.question).toContain("big.txt");
    expect(write.card.text).toMatch(
      /content="first line\\nfiller.* …\[\d+ characters left out\]… .*last line\\n"/,
    );
    session.sendLine(JSON.stringify({ card_id: write.card_id, answer: "3" }));
    expect(await session.response((response) => response["id"] === "w")).toMatchObject({ ok: false });

    // apply_patch: every file with its operation, not only the first four names.
    const patch = [
      "*** Begin Patch",
      ...["a", "b", "c", "d"].flatMap((name) => [`*** Add File: ${name}.txt`, `+${name}`]),
      "*** Delete File: keep.txt",
      "*** Update File: old.txt",
      "*** Move to: new.txt",
      "@@",
      "-old",
      "+new",
      "*** End Patch",
    ].join("\n");
    session.sendLine(JSON.stringify({ id: "p", tool: "apply_patch", args: { patch } }));
    const patchCard = await nextCard(session, seen);
    expect(patchCard.card.arguments).toEqual({ patch });
    expect(patchCard.card.question).toContain("delete keep.txt");
    expect(patchCard.card.question).toContain("move old.txt → new.txt");
    session.sendLine(JSON.stringify({ card_id: patchCard.card_id, answer: "3" }));
    expect(await session.response((response) => response["id"] === "p")).toMatchObject({ ok: false });
    expect(await readFile(join(dir, "keep.txt"), "utf8")).toBe("keep\n");

    expect(await session.close()).toBe(0);
    expect(session.stray).toEqual([]);
  });

  it("passes a decline's reason on to the agent", async () => {
    session = new ServeSession(["--workdir", dir, "--operator", "jsonl", "--approval", "ask"]);
    session.sendLine(JSON.stringify({ id: "w", tool: "write", args: { path: "out.txt", content: "x" } }));
    const card = await nextCard(session, new Set());
    session.sendLine(
      JSON.stringify({ card_id: card.card_id, decline: true, reason: "use the tmp folder instead" }),
    );
    const denied = await session.response((response) => response["id"] === "w");
    expect(denied["ok"]).toBe(false);
    expect(denied["error"]).toContain("use the tmp folder instead");
    expect(await session.close()).toBe(0);
  });
});
