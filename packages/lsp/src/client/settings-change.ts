import type { EventEmitter } from "node:events";

/** The longest a settings change waits for the server to read them (see {@link sendSettingsChange}). */
const settingsReadMs = 2_000;

/**
 * Sends a settings change (`send`: the `workspace/didChangeConfiguration` notification), then
 * waits until the server asked for them again (`events` emitting "configuration", once our
 * answer went out), crashed or was stopped ("crash", "stop"), at most 2 s: a server that reads no
 * configuration never asks (see `LanguageClient.changeSettings`).
 */
export async function sendSettingsChange(events: EventEmitter, send: () => Promise<void>): Promise<void> {
  // Until it asked for them (after our answer went out), a question could still be answered
  // with the old ones. Bounded: a server that reads no configuration never asks.
  let onAsked: () => void = () => undefined;
  let timer: NodeJS.Timeout | undefined;
  const asked = new Promise<void>((resolve) => {
    onAsked = resolve;
    timer = setTimeout(resolve, settingsReadMs);
    events.once("configuration", onAsked).once("crash", onAsked).once("stop", onAsked);
  });
  try {
    await send();
    await asked;
  } finally {
    clearTimeout(timer);
    events.off("configuration", onAsked).off("crash", onAsked).off("stop", onAsked);
  }
}
