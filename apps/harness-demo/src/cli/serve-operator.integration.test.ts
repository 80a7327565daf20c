import { mkdtemp, readFile, realpath, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ServeSession } from "../__fixtures__/cli-process.js";

let dir: string;
let session: ServeSession | undefined;

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "harness-demo-operator-")));
  await writeFile(join(dir, "hello.txt"), "hello\n");
});

afterEach(async () => {
  if (session && session.child.exitCode === null && session.child.signalCode === null) await session.close();
  session = undefined;
  await rm(dir, { recursive: true, force: true });
});

const isCard = (response: Record<string, unknown>) => response["event"] === "card";

describe("harness-demo serve --operator jsonl (the peer is the human)", () => {
  it("writes cards as lines, keeps other requests flowing, and takes answers and declines from lines", async () => {
    session = new ServeSession(["--workdir", dir, "--operator", "jsonl", "--approval", "ask"]);

    session.sendLine(
      JSON.stringify({
        id: "q",
        tool: "ask_user",
        args: { question: "Which region first?", options: [{ label: "north" }, { label: "south" }] },
      }),
    );
    const card = await session.response(isCard);
    expect(card["card_id"]).toEqual(expect.any(String));
    expect(card["card"]).toMatchObject({ kind: "question", question: "Which region first?" });
    expect(JSON.stringify(card["card"])).toContain("2. south");

    // While the card waits, other requests are answered.
    const read = await session.call({ id: "r", tool: "read", args: { path: "hello.txt" } });
    expect(read).toMatchObject({ ok: true, content: [{ type: "text", text: "1\thello" }] });
    expect(session.responses.some((response) => response["id"] === "q")).toBe(false);

    // A reply that does not fit the card is refused and the card stays open.
    session.sendLine(JSON.stringify({ card_id: card["card_id"], answer: "7" }));
    const bad = await session.response((response) => response["event"] === "card_error");
    expect(bad).toMatchObject({ card_id: card["card_id"] });
    expect(bad["error"]).toContain("There is no option 7");

    session.sendLine(JSON.stringify({ card_id: card["card_id"], answer: "2" }));
    const answered = await session.response((response) => response["id"] === "q");
    expect(answered["ok"]).toBe(true);
    expect(JSON.stringify(answered["content"])).toContain('Chosen option: \\"south\\"');

    // A write under --approval ask: a permission card, answered "Allow once" by label.
    session.sendLine(
      JSON.stringify({ id: "w", tool: "write", args: { path: "notes.txt", content: "ok\n" } }),
    );
    const permission = await session.response(
      (response) => isCard(response) && response["card_id"] !== card["card_id"],
    );
    expect(permission["card"]).toMatchObject({ kind: "permission" });
    expect(JSON.stringify(permission["card"])).toContain("notes.txt");
    session.sendLine(
      JSON.stringify({ card_id: permission["card_id"], answer: { selected: ["Allow once"] } }),
    );
    expect(await session.response((response) => response["id"] === "w")).toMatchObject({ ok: true });
    expect(await readFile(join(dir, "notes.txt"), "utf8")).toBe("ok\n");

    // A declined permission card denies the call; nothing is written.
    session.sendLine(JSON.stringify({ id: "d", tool: "write", args: { path: "no.txt", content: "x" } }));
    const second = await session.response(
      (response) =>
        isCard(response) && ![card["card_id"], permission["card_id"]].includes(response["card_id"]),
    );
    session.sendLine(JSON.stringify({ card_id: second["card_id"], decline: true }));
    const denied = await session.response((response) => response["id"] === "d");
    expect(denied["ok"]).toBe(false);
    await expect(readFile(join(dir, "no.txt"), "utf8")).rejects.toThrow();

    expect(await session.close()).toBe(0);
    expect(session.stray).toEqual([]);
  });

  it("fails an open card closed at end of input, and without --operator a card reply line is refused", async () => {
    session = new ServeSession(["--workdir", dir, "--operator", "jsonl"]);
    session.sendLine(
      JSON.stringify({
        id: 1,
        tool: "ask_user",
        args: { question: "Ship it?", options: [{ label: "yes" }, { label: "no" }] },
      }),
    );
    const card = await session.response(isCard);
    expect(await session.close()).toBe(0);
    expect(session.responses.find((response) => response["event"] === "card_closed")).toMatchObject({
      card_id: card["card_id"],
    });
    expect(session.responses.find((response) => response["id"] === 1)).toMatchObject({ ok: false });

    session = new ServeSession(["--workdir", dir]);
    session.sendLine(JSON.stringify({ card_id: "card_1", answer: "1" }));
    const refused = await session.response((response) => response["event"] === "card_error");
    expect(refused["error"]).toContain("--operator jsonl");
    const asked = await session.call({
      id: 2,
      tool: "ask_user",
      args: { question: "Ship it?", options: [{ label: "yes" }, { label: "no" }] },
    });
    expect(asked["ok"]).toBe(false);
    expect(session.responses.some(isCard)).toBe(false);
    expect(await session.close()).toBe(0);
  });
});
