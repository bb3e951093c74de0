// What the model is made of: rows (one per frame), lanes (one per life of a session, and the
// connection's), their marks and turns; and how they read in words.
import type { TraceExit, TraceFinding, TraceFrame } from '@dsh-sdk/protocol';
import type { Span } from './spans.js';
import type { SubRows } from './spans.js';

/** One frame of the trace, with what the page derived from it. */
export interface Row {
  readonly index: number;
  readonly frame: TraceFrame;
  /** The record's line, for search (lower-cased on first use). */
  readonly raw: string;
  readonly sessionId: string | undefined;
  /** The key of the lane it belongs to (a response: its request's). */
  readonly lane: string;
  readonly eventType: string | undefined;
  readonly summary: string;
  /** The frame's findings and those recorded about it later (an unanswered request). */
  readonly findings: TraceFinding[];
  /** For a request: the row of its response, once seen. */
  responseIndex: number | undefined;
}

/** A moment on a lane: a request the client sent about the session, or the runtime's exit. */
export type MarkKind = 'prompt' | 'interrupt' | 'close' | 'exit';

export interface Mark {
  readonly kind: MarkKind;
  readonly t: number;
  /** The row it was made at (the request; for the exit, the last frame), if any. */
  readonly row: number | undefined;
  readonly label: string;
}

/** The streamed reply of one turn, as the chunks came. */
export interface TurnText {
  readonly turn: number;
  /** The user's message the turn answers (its `user/message` text), once seen. */
  prompt: string | undefined;
  text: string;
  reasoning: string;
  chunks: number;
  /** The final `assistant/message` text, once seen. */
  finalText: string | undefined;
  endReason: string | undefined;
  readonly tools: { name: string; arguments: string; result: string | undefined }[];
}

/** One life of a session. The connection itself (initialize, shutdown) has a lane too, key ''. */
export interface Lane {
  /** Unique in the trace: the session id for its first life, `<id>#<life>` after. */
  readonly key: string;
  /** The session id on the wire ('' for the connection). */
  readonly sessionId: string;
  /** 1, then one more each time the id is prompted again after its `session/close`. */
  readonly life: number;
  /** The parent's lane key, for a child session. */
  parent: string | undefined;
  /** The children's lane keys. */
  readonly children: string[];
  readonly spans: Span[];
  /** Rows of this lane that carry findings. */
  readonly invalidRows: number[];
  readonly turns: Map<number, TurnText>;
  readonly marks: Mark[];
  /** A `session/close` was sent: a prompt after it starts the next life. */
  closing: boolean;
  /** The `session/close` was answered (or the parent's was): this life is over. */
  closed: boolean;
  readonly firstRow: number;
  rows: number;
  /** Its overlapping requests' rows (the connection's lane). */
  readonly subRows: SubRows;
}

/** The lane of frames that belong to no session. */
export const CONNECTION_LANE = '';

/** A lane's name for people: `s1`, `s1 · life 2`, `connection`. */
export function laneName(lane: Lane): string {
  if (lane.key === CONNECTION_LANE) return 'connection';
  return lane.life === 1 ? lane.sessionId : `${lane.sessionId} · life ${lane.life}`;
}

/** How the runtime ended, in words: "exited with code 3", "was killed by SIGKILL"… */
export function describeExit(exit: TraceExit): string {
  if (exit.spawnError !== undefined) return `could not be started: ${exit.spawnError}`;
  if (exit.signal !== null) return `was killed by ${exit.signal}`;
  if (exit.exitCode !== null) return `exited with code ${exit.exitCode}`;
  return 'ended (its exit status is unknown)';
}
