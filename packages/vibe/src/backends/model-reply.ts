import { headOf } from "@tools/registry";
import { VibeError } from "../errors/vibe-error.js";
import type { CallTally } from "./call-tally.js";

/** Most characters of an odd reply's body quoted in the error that names it. */
const quotedChars = 200;

/** What a model server sent back, as far as an error about it needs to tell. */
export interface ReplySeen {
  /** The API's base URL, naming the server. */
  readonly baseURL: string;
  readonly model: string;
  readonly status: number;
  readonly contentType: string | null;
  /** The body as the SDK parsed it: an object for JSON, a string for anything else. */
  readonly body: unknown;
}

/** What an SDK's `withResponse()` resolves to, as far as {@link replySeen} reads it. */
export interface SdkReply {
  readonly response: { readonly status: number; readonly headers: { get(name: string): string | null } };
  readonly data: unknown;
}

/** The {@link ReplySeen} of `reply`, the answer of the server at `baseURL` for `model`. */
export function replySeen(baseURL: string, model: string, reply: SdkReply): ReplySeen {
  return {
    baseURL,
    model,
    status: reply.response.status,
    contentType: reply.response.headers.get("content-type"),
    body: reply.data,
  };
}

/**
 * A 200 reply that is not what the API returns (`<html>proxy login</html>` from a proxy, an
 * `{"error": …}` body with status 200, a completion with no choice): which server answered what,
 * and that it was not `what` ("a chat completion", "a message"). `INVALID_BACKEND_CONFIG` when the
 * body is no JSON object (what answered is not the model API the configuration meant), else
 * `WORKER_FAILED`: a JSON object is the API's own, and a compatible server sends an odd one now and
 * then (an empty `choices` after a moderation hiccup), which the configuration does not mend.
 */
export function notAReply(seen: ReplySeen, what: string): VibeError {
  const carried = carriedError(seen.body);
  // A body that is no JSON object is another service's (a proxy's login page, a plain-text
  // page): the configuration names the wrong server, which no rerun mends.
  const otherService = !isRecord(seen.body);
  return new VibeError({
    code: otherService ? "INVALID_BACKEND_CONFIG" : "WORKER_FAILED",
    message:
      `the server at ${seen.baseURL} answered the request for ${seen.model} with status ${seen.status} ` +
      `(${seen.contentType ?? "no content type"}), but the reply is not ${what}` +
      (carried === undefined ? "" : `; it carried the error "${carried}"`) +
      `; the reply starts: ${bodyStart(seen.body)}` +
      (otherService
        ? ". Check that the backend's baseURL names the model API itself (not a proxy's login page or another service)"
        : ""),
    data: { status: seen.status, contentType: seen.contentType, body: bodyStart(seen.body) },
  });
}

/**
 * What a worker's model is told, once per attempt, after a reply with no text and no tool call
 * that ended its turn: models sometimes end a turn with nothing in it (after a long tool result,
 * a stop sequence hit at once), and asked again they usually answer.
 */
export const emptyReplyNudge =
  "Your last reply was empty: no text and no tool call. Give your final answer now, or call a tool.";

/**
 * The failure of a worker whose model answered with an empty reply (`what`: which model, and the
 * reply's finish or stop reason) when it may not be nudged again: it was nudged at turn
 * `nudgedAt` already (the turn before: it answered the nudge with nothing too), or no turn is left.
 */
export function emptyReplyError(what: string, nudgedAt: number | undefined, tally: CallTally): VibeError {
  const after =
    nudgedAt === undefined
      ? "; no turn was left to ask it again"
      : nudgedAt === tally.turns - 1
        ? ", also after it was told that its last reply was empty and asked for its final answer or a tool call"
        : `, again: after its empty reply at turn ${nudgedAt} it was told so and asked for its final answer once already`;
  return new VibeError({
    code: "WORKER_FAILED",
    message: `${what}${after} (after ${tally.summary()})`,
    data: { emptyReplies: nudgedAt === undefined ? 1 : 2 },
  });
}

/** The start of a reply body, on one line, at most {@link quotedChars} characters. */
export function bodyStart(body: unknown): string {
  const text = typeof body === "string" ? body : (JSON.stringify(body) ?? String(body));
  const line = text.replace(/\s+/g, " ").trim();
  if (line === "") return "(an empty body)";
  return line.length > quotedChars ? `${headOf(line, quotedChars)}… (${line.length} characters)` : line;
}

/** The message of an `{"error": {"message": …}}` or `{"error": "…"}` body. */
function carriedError(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  const error = body["error"];
  if (typeof error === "string") return error;
  if (isRecord(error) && typeof error["message"] === "string") return error["message"];
  return undefined;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** A tool call's arguments: parsed, or what to tell the model about them. */
export type ParsedArguments = { ok: true; value: unknown } | { ok: false; message: string };

/**
 * Tool-call arguments as an OpenAI-compatible server sent them: JSON text (the API's form; empty
 * text is `{}`), or an object (some compatible servers send one), taken as is. Missing, or anything
 * else, is an INVALID_ARGUMENTS error for the model, which must hear about it.
 */
export function parseArguments(raw: unknown): ParsedArguments {
  const expected = "send a JSON object matching the tool's schema";
  if (isRecord(raw)) return { ok: true, value: raw };
  if (raw === undefined || raw === null) {
    return { ok: false, message: `error (INVALID_ARGUMENTS): the call carried no arguments; ${expected}` };
  }
  if (typeof raw !== "string") {
    return {
      ok: false,
      message: `error (INVALID_ARGUMENTS): the arguments are ${Array.isArray(raw) ? "an array" : `a ${typeof raw}`}, not a JSON object; ${expected}`,
    };
  }
  if (raw.trim() === "") return { ok: true, value: {} };
  try {
    return { ok: true, value: JSON.parse(raw) as unknown };
  } catch (error) {
    return {
      ok: false,
      message: `error (INVALID_ARGUMENTS): the arguments are not valid JSON (${(error as Error).message}); ${expected}`,
    };
  }
}

/** Arguments as the terminal or a log shows them: the text sent, or the object's JSON. */
export function argumentsText(raw: unknown): string {
  if (typeof raw === "string") return raw;
  return JSON.stringify(raw) ?? "(no arguments)";
}
