import { mkdtemp, realpath, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ServeSession } from "../__fixtures__/cli-process.js";

let dir: string;
let session: ServeSession | undefined;
let stderr = "";

beforeEach(async () => {
  dir = await realpath(await mkdtemp(join(tmpdir(), "harness-demo-secret-")));
  stderr = "";
});

afterEach(async () => {
  if (session && session.child.exitCode === null && session.child.signalCode === null) await session.close();
  session = undefined;
  await rm(dir, { recursive: true, force: true });
});

const password = "pw 0: s3cret";

describe("harness-demo serve --operator jsonl: getpass() in eval asks a secret card", () => {
  it(
    "marks the card line secret, takes the answer from a line, and writes the password nowhere",
    { timeout: 60_000 },
    async () => {
      session = new ServeSession([
        "--workdir",
        dir,
        "--operator",
        "jsonl",
        "--approval",
        "auto",
        "--python",
        "/usr/bin/python3",
      ]);
      session.child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString("utf8");
      });
      session.sendLine(
        JSON.stringify({
          id: "cell",
          tool: "eval",
          args: {
            code: `import getpass\npw = getpass.getpass('DB password: ')\nlen(pw), pw == ${JSON.stringify(password)}`,
            description: "read the database password with getpass",
          },
        }),
      );
      const card = await session.response((response) => response["event"] === "card", 45_000);
      expect(card["card"]).toMatchObject({
        kind: "question",
        question: "DB password:",
        secret: true,
        allowFreeText: true,
        options: [],
      });
      // An empty reply is refused; the card stays open.
      session.sendLine(JSON.stringify({ card_id: card["card_id"], answer: "  " }));
      const refused = await session.response((response) => response["event"] === "card_error");
      expect(refused["error"]).toContain("Nothing was typed");
      session.sendLine(JSON.stringify({ card_id: card["card_id"], answer: password }));
      const cell = await session.response((response) => response["id"] === "cell", 30_000);
      expect(cell).toMatchObject({
        ok: true,
        content: [{ type: "text", text: `DB password: \n(${password.length}, True)` }],
      });

      // input() stays an ordinary card.
      session.sendLine(
        JSON.stringify({
          id: "name",
          tool: "eval",
          args: { code: "input('Name? ')", description: "ask the operator for a name" },
        }),
      );
      const plain = await session.response(
        (response) => response["event"] === "card" && response["card_id"] !== card["card_id"],
        30_000,
      );
      expect(plain["card"]).not.toHaveProperty("secret");
      session.sendLine(JSON.stringify({ card_id: plain["card_id"], answer: "Ada" }));
      expect(await session.response((response) => response["id"] === "name", 30_000)).toMatchObject({
        ok: true,
      });

      expect(await session.close(20_000)).toBe(0);
      const everything = JSON.stringify(session.responses) + session.stray.join("\n") + stderr;
      expect(everything).not.toContain("s3cret");
    },
  );
});

describe("harness-demo serve: a card reply that is not JSON", () => {
  it("is answered with the fault's offset, never with the line's text", { timeout: 30_000 }, async () => {
    session = new ServeSession(["--workdir", dir, "--operator", "jsonl", "--approval", "auto"]);
    session.child.stderr.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
    });
    // The answer's quotes were forgotten: the line is not JSON, so it is read as a request line.
    session.sendLine('{"card_id":"card_3","answer":hunter2}');
    const answer = await session.response((response) => response["ok"] === false);
    expect(answer["error"]).toContain("malformed request line: not valid JSON at character offset 29");
    expect(await session.close()).toBe(0);
    const everything = JSON.stringify(session.responses) + session.stray.join("\n") + stderr;
    expect(everything).not.toContain("hunter2");
  });
});
