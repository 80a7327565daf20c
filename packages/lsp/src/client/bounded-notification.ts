import type { EventEmitter } from "node:events";
import type { MessageConnection } from "vscode-jsonrpc/node";

/**
 * What became of a notification sent with a bound: written to the server's input, not taken
 * within the bound ("stalled"), or the server crashed or was stopped first ("ended").
 */
export type NotificationOutcome = "sent" | "stalled" | "ended";

/**
 * Sends a notification and races its write against `timeoutMs` and the server's crash or stop
 * (`events` emitting "crash" or "stop"); whichever comes first settles it and removes the others.
 * A server that stops reading its input leaves a large notification unwritten in a full pipe:
 * without the bound the write would be waited for forever (see `LanguageClient.notify`).
 */
export function boundedNotification(
  connection: MessageConnection,
  method: string,
  params: unknown,
  timeoutMs: number,
  events: EventEmitter,
): Promise<NotificationOutcome> {
  let timer: NodeJS.Timeout | undefined;
  let onCrash: () => void = () => undefined;
  return Promise.race([
    connection.sendNotification(method, params).then(() => "sent" as const),
    new Promise<"stalled">((resolve) => {
      timer = setTimeout(() => resolve("stalled"), timeoutMs);
    }),
    new Promise<"ended">((resolve) => {
      onCrash = () => resolve("ended");
      events.once("crash", onCrash).once("stop", onCrash);
    }),
  ]).finally(() => {
    clearTimeout(timer);
    events.off("crash", onCrash).off("stop", onCrash);
  });
}
