import type { AnthropicToolSchema, OpenAiToolSchema } from "@tools/registry";

/** How much a worker is trusted with: `fast` for mechanical work with a clear spec, `good` for judgement. */
export type WorkerTier = "fast" | "good";

/** The two worker tiers, in order. */
export const workerTiers: readonly WorkerTier[] = ["fast", "good"];

/** A model name per tier; fast and good are meant to be different models. */
export interface TierModels {
  readonly fast: string;
  readonly good: string;
}

/** What a tool call of a worker returned, as text for the model. */
export interface WorkerToolOutcome {
  readonly text: string;
  readonly isError: boolean;
}

/**
 * The tools a worker may call: the run's tools on the worker surface (so write and exec calls
 * pass the approval gate), without the vibe_* tools themselves (a worker does not steer workers).
 */
export interface WorkerToolbox {
  /** The surface's tools in OpenAI's strict function format. */
  openAiTools(): OpenAiToolSchema[];
  /** The surface's tools in Anthropic's Messages API format. */
  anthropicTools(): AnthropicToolSchema[];
  /**
   * Calls a tool through the registry; cancelled with the worker. Never throws. `callId` is the
   * model's own id of the call (OpenAI's tool call id, Anthropic's tool_use id) when it sent one:
   * a host driving its own agent with a backend passes it on as the registry call's `callId`, so
   * events and approval cards name the call its transcript shows.
   */
  call(tool: string, args: unknown, callId?: string): Promise<WorkerToolOutcome>;
  /**
   * Told of a call the backend answered itself without running it (its arguments are not valid
   * JSON, or were cut at the token limit): `args` is the text the model sent, `error` what the
   * model gets back. Optional; a host that shows every call shows these too.
   */
  refused?(tool: string, args: string, error: string): void;
}

/** One attempt of a worker, as a backend receives it. */
export interface WorkerTask {
  readonly workerId: string;
  readonly label: string;
  readonly tier: WorkerTier;
  /** The brief, with every message sent since appended. */
  readonly brief: string;
  /** The run's working directory. */
  readonly workingDirectory: string;
  /** Aborted when the worker is killed, re-briefed (vibe_send) or the run ends. */
  readonly signal: AbortSignal;
  readonly toolbox: WorkerToolbox;
  /**
   * Reports what the worker is doing ("turn 3: calling read"); shown by vibe_list and vibe_wait as
   * one line of plain text, 200 characters at most (lines joined by spaces, a longer one cut).
   */
  progress(message: string): void;
  /**
   * Gives the list a way to read what the attempt has done so far (a CLI's output until now, a
   * model's turn and tool calls), as plain text saying what it is; `stopped` is true once the
   * attempt was stopped (killed, re-briefed, the run ended): its past tense. vibe_wait shows it
   * while the worker runs, and a killed worker's result and vibe_kill's answer once it stopped
   * (its edits stay). Optional for a backend to call, and for a host calling `perform` itself.
   */
  soFar?(read: (stopped: boolean) => string): void;
}

/**
 * Runs workers: a model backend (an agent loop over the worker surface's tools) or a command
 * backend (an external agent CLI). `perform` resolves with the worker's final answer and must
 * settle soon after `task.signal` aborts, having stopped everything it started.
 */
export interface WorkerBackend {
  /** How the backend reads in messages: "openai-compatible API (fast: m1, good: m2)". */
  readonly description: string;
  /**
   * True when every action of a worker passes the registry's approval gate (a model backend: its
   * edits and commands are the run's tools, called on the gated worker surface). False when the
   * worker acts on its own (a command backend's CLI edits and runs commands itself): vibe_spawn
   * and vibe_send then are exec tools, approved per call and absent from read-capped surfaces.
   */
  readonly gated: boolean;
  /**
   * At most how long an attempt takes to stop once its signal aborts, in milliseconds, when that
   * is longer than usual (a command backend: its `graceMs` between SIGTERM and SIGKILL, and the
   * wait for its output after). A kill, re-brief or dispose waits at least this long before it
   * gives up on the attempt, so a run's dispose does not end while a worker's process still runs.
   */
  readonly stopMs?: number;
  perform(task: WorkerTask): Promise<string>;
}
