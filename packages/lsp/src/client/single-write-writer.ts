import type { Writable } from "node:stream";
import { AbstractMessageWriter, type Message, type MessageWriter } from "vscode-jsonrpc/node";

/**
 * Writes each message as one buffer (header and JSON body together). vscode-jsonrpc's stream
 * writer writes the header, waits for that write to complete, then writes the body: two
 * syscalls and two wake-ups of the server per message, and a turn of the event loop between
 * them. Messages keep their order: the stream queues writes in call order.
 */
export class SingleWriteMessageWriter extends AbstractMessageWriter implements MessageWriter {
  private readonly stream: Writable;
  private errorCount = 0;

  constructor(stream: Writable) {
    super();
    this.stream = stream;
    stream.on("error", (error: Error) => this.fireError(error));
    stream.on("close", () => this.fireClose());
  }

  write(message: Message): Promise<void> {
    const body = Buffer.from(JSON.stringify(message), "utf8");
    const frame = Buffer.concat([Buffer.from(`Content-Length: ${body.byteLength}\r\n\r\n`, "ascii"), body]);
    return new Promise((resolve, reject) => {
      this.stream.write(frame, (error) => {
        if (!error) {
          this.errorCount = 0;
          resolve();
          return;
        }
        this.errorCount += 1;
        this.fireError(error, message, this.errorCount);
        reject(error);
      });
    });
  }

  end(): void {
    this.stream.end();
  }
}
