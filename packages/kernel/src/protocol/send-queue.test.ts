import { Pull, Push } from "zeromq";
import { afterEach, describe, expect, it } from "vitest";
import { SendQueue } from "./send-queue.js";

describe("SendQueue", () => {
  const sockets: { close(): void }[] = [];
  const pair = async (name: string) => {
    const push = new Push({ linger: 0 });
    const pull = new Pull({ linger: 0 });
    sockets.push(push, pull);
    await pull.bind(`inproc://${name}`);
    push.connect(`inproc://${name}`);
    return { push, pull };
  };
  afterEach(() => {
    for (const socket of sockets.splice(0)) socket.close();
  });

  it("is needed: zeromq throws at once on a send while one is in flight", async () => {
    const { push } = await pair("send-queue-raw");
    const thrown: unknown[] = [];
    const sends: Promise<void>[] = [];
    for (let i = 0; i < 600 && thrown.length === 0; i++) {
      try {
        sends.push(push.send(String(i)).catch(() => undefined));
      } catch (error) {
        thrown.push(error);
      }
    }
    expect(thrown).toHaveLength(1);
    expect(String(thrown[0])).toMatch(/busy writing/);
    await Promise.all(sends);
  });

  it("sends 2000 messages queued at once, in order, without an error", async () => {
    const { push, pull } = await pair("send-queue-queued");
    const errors: unknown[] = [];
    const queue = new SendQueue(push, (error) => errors.push(error));
    for (let i = 0; i < 2000; i++) queue.send([String(i)]);
    const received: string[] = [];
    for await (const [frame] of pull) {
      received.push(String(frame));
      if (received.length === 2000) break;
    }
    await queue.drained();
    expect(errors).toEqual([]);
    expect(received).toEqual(Array.from({ length: 2000 }, (_, i) => String(i)));
  });

  it("hands a send on a closed socket to onError and goes on", async () => {
    const { push } = await pair("send-queue-closed");
    const errors: unknown[] = [];
    const queue = new SendQueue(push, (error) => errors.push(error));
    push.close();
    queue.send(["lost"]);
    queue.send(["lost too"]);
    await queue.drained();
    expect(errors).toHaveLength(2);
  });
});
