import { createHmac, randomUUID, timingSafeEqual } from "node:crypto";

/** The delimiter between routing frames and the signed part of a Jupyter message. */
export const delimiter = "<IDS|MSG>";

/** The header of a Jupyter message (protocol 5.3). */
export interface MessageHeader {
  readonly msg_id: string;
  readonly msg_type: string;
  readonly session: string;
  readonly username: string;
  readonly date: string;
  readonly version: string;
}

/** A decoded Jupyter message. Content stays `unknown`-ish: each handler parses what it reads. */
export interface JupyterMessage {
  readonly identities: readonly Buffer[];
  readonly header: MessageHeader;
  readonly parentHeader: Partial<MessageHeader>;
  readonly metadata: Record<string, unknown>;
  readonly content: Record<string, unknown>;
  readonly buffers: readonly Buffer[];
}

/** Signs and checks messages with the connection's HMAC-SHA256 key (an empty key disables signing). */
export class MessageCodec {
  constructor(
    private readonly key: string,
    readonly session: string = randomUUID(),
  ) {}

  /** A fresh header for a message this side sends. */
  header(msgType: string): MessageHeader {
    return {
      msg_id: randomUUID(),
      msg_type: msgType,
      session: this.session,
      username: "tools",
      date: new Date().toISOString(),
      version: "5.3",
    };
  }

  private sign(frames: readonly string[]): string {
    if (this.key === "") return "";
    const hmac = createHmac("sha256", this.key);
    for (const frame of frames) hmac.update(frame);
    return hmac.digest("hex");
  }

  /** The frames of a message, routing identities first. */
  encode(message: {
    identities?: readonly (Buffer | string)[];
    header: MessageHeader;
    parentHeader?: Partial<MessageHeader>;
    metadata?: Record<string, unknown>;
    content: Record<string, unknown>;
  }): (Buffer | string)[] {
    const parts = [
      JSON.stringify(message.header),
      JSON.stringify(message.parentHeader ?? {}),
      JSON.stringify(message.metadata ?? {}),
      JSON.stringify(message.content),
    ];
    return [...(message.identities ?? []), delimiter, this.sign(parts), ...parts];
  }

  /** Decodes received frames; undefined for a malformed or badly signed message (dropped). */
  decode(frames: readonly Buffer[]): JupyterMessage | undefined {
    const at = frames.findIndex(
      (frame) => frame.length === delimiter.length && frame.toString() === delimiter,
    );
    if (at < 0 || frames.length < at + 6) return undefined;
    const signature = frames[at + 1]?.toString() ?? "";
    const parts = frames.slice(at + 2, at + 6).map((frame) => frame.toString("utf8"));
    if (this.key !== "") {
      const expected = Buffer.from(this.sign(parts));
      const actual = Buffer.from(signature);
      if (expected.length !== actual.length || !timingSafeEqual(expected, actual)) return undefined;
    }
    try {
      const [header, parentHeader, metadata, content] = parts.map((part) => JSON.parse(part) as unknown);
      if (!isRecord(header) || typeof header.msg_type !== "string") return undefined;
      return {
        identities: frames.slice(0, at),
        header: header as unknown as MessageHeader,
        parentHeader: (isRecord(parentHeader) ? parentHeader : {}) as Partial<MessageHeader>,
        metadata: isRecord(metadata) ? metadata : {},
        content: isRecord(content) ? content : {},
        buffers: frames.slice(at + 6),
      };
    } catch {
      return undefined;
    }
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
