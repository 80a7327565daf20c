import { describe, expect, it } from "vitest";
import { awaitAnalysis, type AnalysedClient } from "./analysed-documents.js";

/** Never reached: a call that waits on it would hang the test. */
const forever = { waitMs: 2_147_483_647, watchMs: 2_147_483_647 };

/**
 * A client whose open documents the test sets and whose analyses it ends by hand (`finish`);
 * `asked` lists each watch started, as uri@version.
 */
function stubClient() {
  const versions = new Map<string, number>();
  const asked: string[] = [];
  const finishers = new Map<string, (fresh: boolean | Error) => void>();
  const client: AnalysedClient = {
    isOpen: (uri) => versions.has(uri),
    versionOf: (uri) => versions.get(uri),
    freshDiagnostics: (uri) => {
      asked.push(`${uri}@${versions.get(uri)}`);
      return new Promise((resolve, reject) =>
        finishers.set(uri, (fresh) =>
          fresh instanceof Error ? reject(fresh) : resolve({ diagnostics: [], fresh }),
        ),
      );
    },
  };
  const finish = (uri: string, fresh: boolean | Error) => finishers.get(uri)!(fresh);
  return { client, versions, asked, finish };
}

/** Resolves once the promise callbacks queued so far have run (a finished analysis is recorded). */
const callbacksRun = () => new Promise((resolve) => setImmediate(resolve));

describe("awaitAnalysis", () => {
  it("does not wait on a server that computes searches on request (tsserver)", async () => {
    const { client, versions, asked } = stubClient();
    versions.set("file:///a.ts", 1);
    const onRequest: AnalysedClient = { ...client, spec: { searchReady: "on-request" } };
    expect(await awaitAnalysis(onRequest, ["file:///a.ts"], forever)).toEqual([]);
    expect(asked).toEqual([]);
  });

  it("waits for each document once per version, again after an edit", async () => {
    const { client, versions, asked, finish } = stubClient();
    versions.set("file:///a.c", 1).set("file:///b.c", 1);
    const uris = ["file:///a.c", "file:///b.c"];
    const first = awaitAnalysis(client, uris, forever);
    finish("file:///a.c", true);
    finish("file:///b.c", true);
    expect(await first).toEqual([]);
    expect(await awaitAnalysis(client, uris, forever)).toEqual([]);
    versions.set("file:///b.c", 2);
    const edited = awaitAnalysis(client, uris, forever);
    finish("file:///b.c", true);
    expect(await edited).toEqual([]);
    expect(asked).toEqual(["file:///a.c@1", "file:///b.c@1", "file:///b.c@2"]);
  });

  it("shares one watch between concurrent calls", async () => {
    const { client, versions, asked, finish } = stubClient();
    versions.set("file:///a.py", 1);
    const first = awaitAnalysis(client, ["file:///a.py"], forever);
    const second = awaitAnalysis(client, ["file:///a.py"], forever);
    finish("file:///a.py", true);
    expect(await Promise.all([first, second])).toEqual([[], []]);
    expect(asked).toEqual(["file:///a.py@1"]);
  });

  it("returns a document still being analysed at the bound, and does not wait for it again", async () => {
    const { client, versions, asked, finish } = stubClient();
    versions.set("file:///slow.c", 1).set("file:///ok.c", 1);
    const uris = ["file:///slow.c", "file:///ok.c"];
    const first = awaitAnalysis(client, uris, { waitMs: 0, watchMs: forever.watchMs });
    finish("file:///ok.c", true);
    expect(await first).toEqual(["file:///slow.c"]);
    // Waited out once: reported at once while its analysis goes on (a wait would hang here).
    expect(await awaitAnalysis(client, uris, forever)).toEqual(["file:///slow.c"]);
    finish("file:///slow.c", true);
    await callbacksRun();
    expect(await awaitAnalysis(client, uris, forever)).toEqual([]);
    expect(asked).toEqual(["file:///slow.c@1", "file:///ok.c@1"]);
  });

  it("never throws: a failed or unconfirmed analysis is reported, not waited for again", async () => {
    const { client, versions, asked, finish } = stubClient();
    versions.set("file:///gone.c", 1).set("file:///silent.c", 1);
    const uris = ["file:///gone.c", "file:///silent.c"];
    const first = awaitAnalysis(client, uris, forever);
    finish("file:///gone.c", new Error("server stopped"));
    finish("file:///silent.c", false);
    expect(await first).toEqual(uris);
    expect(await awaitAnalysis(client, uris, forever)).toEqual(uris);
    expect(asked).toHaveLength(2);
  });

  it("forgets a closed document: reopened, its version 1 is analysed again", async () => {
    const { client, versions, asked, finish } = stubClient();
    versions.set("file:///a.c", 1);
    const opened = awaitAnalysis(client, ["file:///a.c"], forever);
    finish("file:///a.c", true);
    await opened;
    versions.delete("file:///a.c");
    expect(await awaitAnalysis(client, ["file:///a.c"], forever)).toEqual([]);
    versions.set("file:///a.c", 1);
    const reopened = awaitAnalysis(client, ["file:///a.c"], forever);
    finish("file:///a.c", true);
    expect(await reopened).toEqual([]);
    expect(asked).toEqual(["file:///a.c@1", "file:///a.c@1"]);
  });
});
