import { errorResponse, type JsonLinesResponse } from "./json-lines.js";

type RequestId = string | number;

/** A cancel line of `serve`: `{"cancel": 1}`, or `{"id": "c1", "cancel": 1}` to get an answer of its own. */
export interface CancelRequest {
  /** The cancel line's own id (null when it has none). */
  readonly id: RequestId | null;
  /** The id of the call to cancel. */
  readonly cancel: RequestId;
}

/** A cancel request, or the error response for a cancel line that names no usable id. */
export type ParsedCancel =
  | { readonly ok: true; readonly request: CancelRequest }
  | { readonly ok: false; readonly response: JsonLinesResponse };

const expected = 'expected {"cancel": <the id of a call in flight>} (optionally with its own "id")';

function isId(value: unknown): value is RequestId {
  return typeof value === "string" || (typeof value === "number" && Number.isFinite(value));
}

/**
 * The line's cancel request when it is a cancel line (an object with `cancel` and no `tool`), an
 * error response when its ids are unusable, undefined for any other line. Never throws.
 */
export function parseCancelLine(line: string): ParsedCancel | undefined {
  if (!line.includes('"cancel"')) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(line.replace(/^\uFEFF/, "")) as unknown;
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const record = value as Record<string, unknown>;
  if (!("cancel" in record) || "tool" in record) return undefined;
  const own = record["id"] ?? null;
  const id = own === null || isId(own) ? own : null;
  if (own !== null && !isId(own)) {
    return {
      ok: false,
      response: errorResponse(null, `malformed cancel: "id" must be a string or a number; ${expected}`),
    };
  }
  const target = record["cancel"];
  if (!isId(target)) {
    return {
      ok: false,
      response: errorResponse(
        id,
        `malformed cancel: "cancel" must be a call's id (a string or a number); ${expected}`,
      ),
    };
  }
  return { ok: true, request: { id, cancel: target } };
}

/** The reason a cancelled call's signal carries. */
export class CancelledByPeer extends Error {
  constructor(id: RequestId) {
    super(`cancelled by a cancel line for id ${JSON.stringify(id)}`);
    this.name = "CancelledByPeer";
  }
}

/**
 * The calls of a `serve` session in flight, by request id: each runs under its own abort signal,
 * so a cancel line stops that call only (a shell command's process group, an eval, a card waiting
 * on the operator) and leaves the run, its servers and kernels alone. Ids must be unique among the
 * calls in flight: a second request with the id of a call still running is refused. Requests
 * without an id (null) are not tracked and cannot be cancelled.
 */
export class CallsInFlight {
  private readonly calls = new Map<string, AbortController>();

  /**
   * Runs `call` under a signal of its own and resolves with its response; a request whose id is
   * still in flight gets a refusal instead and `call` is not made. The id is free again before the
   * response is handed back, so a peer that reuses an id after its answer is never refused.
   */
  async run(
    id: RequestId | null,
    call: (signal: AbortSignal) => Promise<JsonLinesResponse>,
  ): Promise<JsonLinesResponse> {
    if (id === null) return call(new AbortController().signal);
    const key = keyOf(id);
    if (this.calls.has(key)) {
      return errorResponse(
        id,
        `request id ${JSON.stringify(id)} is already in flight: this request was not run (the call in flight still answers with that id); give every request an id of its own, e.g. a counter, since a cancel line names the call by it`,
      );
    }
    const controller = new AbortController();
    this.calls.set(key, controller);
    try {
      return await call(controller.signal);
    } finally {
      this.calls.delete(key);
    }
  }

  /**
   * Aborts the call with the request's `cancel` id. Returns the answer to the cancel line: an
   * error for an id with no call in flight, or (with id null, nothing cancelled) when the cancel
   * line's own id is that of a call in flight; for a found call, a success when the cancel line has
   * an id of its own, else undefined (the cancelled call's own response says it was cancelled).
   */
  cancel(request: CancelRequest): JsonLinesResponse | undefined {
    const target = JSON.stringify(request.cancel);
    // Its answer would share an id with that call's own response: refused, answered with id null.
    if (request.id !== null && this.calls.has(keyOf(request.id))) {
      const own = JSON.stringify(request.id);
      return errorResponse(
        null,
        `the cancel line's own id ${own} is the id of a call in flight, so its answer could not be told from that call's: nothing was cancelled (the call with id ${target} still runs); send the cancel line again with an id of its own, or with none`,
      );
    }
    const controller = this.calls.get(keyOf(request.cancel));
    if (controller === undefined) {
      return errorResponse(
        request.id,
        `no call with id ${target} is in flight (it already answered, was already cancelled, or was never made); nothing was cancelled`,
      );
    }
    if (controller.signal.aborted) {
      return errorResponse(request.id, `the call with id ${target} is already being cancelled`);
    }
    controller.abort(new CancelledByPeer(request.cancel));
    if (request.id === null) return undefined;
    const text = `cancelled the call with id ${target}: its own response follows, as a cancelled error`;
    return { id: request.id, ok: true, content: [{ type: "text", text }], error: null };
  }
}

/** 1 and "1" are different ids. */
function keyOf(id: RequestId): string {
  return typeof id === "number" ? `n:${id}` : `s:${id}`;
}

/**
 * Serve's handling of one input line as a cancel line: true when it was one (answered through
 * `send` as {@link CallsInFlight.cancel} says), false for any other line.
 */
export function handleCancelLine(
  line: string,
  calls: CallsInFlight,
  send: (response: JsonLinesResponse) => void,
): boolean {
  const parsed = parseCancelLine(line);
  if (parsed === undefined) return false;
  const response = parsed.ok ? calls.cancel(parsed.request) : parsed.response;
  if (response !== undefined) send(response);
  return true;
}
