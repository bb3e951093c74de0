// The trace format (docs/trace-format.md): one NDJSON record per line, a header first.
import type { JsonRpcId } from './classify.js';
import type { DiagnosticReason } from './gen/constants.gen.js';
import type { MethodInfo } from './gen/methods.gen.js';
import type { Violation } from './gen/types.gen.js';

/** The `format` member of every trace's header. */
export const TRACE_FORMAT = 'dsh-sdk-trace';
/** The version of the trace format written here; readers refuse a header with a newer one. */
export const TRACE_FORMAT_VERSION = 1;

/** Which way a frame went, in the IDL's words. */
export type TraceDirection = MethodInfo['direction'];

/** The first record of a trace. */
export interface TraceHeader {
  readonly type: 'header';
  readonly format: typeof TRACE_FORMAT;
  readonly version: typeof TRACE_FORMAT_VERSION;
  /** The protocol version of the bindings that validated the frames (`IDL_VERSION`, the IDL's semantic version; the field keeps its name). */
  readonly protocolVersion: string;
  /** Wall clock when recording started, epoch milliseconds; every `t` counts from here. */
  readonly startedAt: number;
  /** What recorded it, e.g. `dsh-sdk trace`. */
  readonly recorder: string;
  /** The runtime's command line, when the recorder started it. */
  readonly command?: readonly string[];
  /** The frame limit lines were read with (bytes before the `\n`). */
  readonly maxFrameBytes: number;
  /** How many first bytes of a dropped line a `frame` record keeps in `head`. */
  readonly headBytes: number;
}

/** Why the recorder flagged a frame: the transport's own reasons, plus the checks of a bystander. */
export type TraceFindingReason =
  | DiagnosticReason
  /** A request or notification whose method the IDL does not define. */
  | 'unknown-method'
  /** A method sent by the side that should receive it (a client sending a server notification). */
  | 'wrong-direction'
  /** A method sent as the wrong kind (a notification method sent as a request, or the reverse). */
  | 'wrong-kind'
  /** A request whose params break the method's schema (a runtime answers it `-32602`). */
  | 'invalid-params'
  /** A result that breaks the request method's schema. */
  | 'invalid-result'
  /** A request reusing the id of a request of the same direction still waiting for its answer. */
  | 'duplicate-request-id'
  /** A request that got no response before the stream ended (or that was no longer tracked). */
  | 'unanswered-request';

/** One violation of the protocol, found on a frame. */
export interface TraceFinding {
  readonly reason: TraceFindingReason;
  readonly message: string;
  /** For `invalid-params`, `invalid-result`, `invalid-notification-params`: every violation. */
  readonly violations?: readonly Violation[];
}

/** What a frame turned out to be, when it is a JSON-RPC message. */
export type TraceMessageKind = 'request' | 'notification' | 'result' | 'error';

/**
 * One line that went by. Exactly one of `json`, `text` and `head` holds its content: the parsed
 * value of a JSON line, the text of a UTF-8 line that is not JSON, or the first bytes (base64) of
 * a line that was not decoded (over the frame limit, not UTF-8, or cut short by the stream's end).
 */
export interface TraceFrame {
  readonly type: 'frame';
  /** 0-based index of this frame among the trace's frames, both directions together. */
  readonly seq: number;
  readonly dir: TraceDirection;
  /** Milliseconds since the header's `startedAt`, when the chunk that completed the line came. */
  readonly t: number;
  /** 1-based line number in this direction's stream, blank lines counted (they are not recorded). */
  readonly line: number;
  /** Bytes of the line before its `\n` (a trailing `\r` included). */
  readonly bytes: number;
  readonly kind?: TraceMessageKind;
  readonly method?: string;
  readonly id?: JsonRpcId;
  /** For a response: the `seq` of the request it answers, and the time between the two. */
  readonly request?: number;
  readonly latencyMs?: number;
  readonly findings?: readonly TraceFinding[];
  readonly json?: unknown;
  readonly text?: string;
  readonly head?: string;
}

/** A finding about no single line: a request left unanswered when recording finished. */
export interface TraceFindingRecord {
  readonly type: 'finding';
  readonly t: number;
  readonly dir: TraceDirection;
  /** The `seq` of the frame the finding is about. */
  readonly frame: number;
  readonly finding: TraceFinding;
}

/** One direction's stream ended (the client closed the runtime's stdin, or the runtime its stdout). */
export interface TraceEndOfStream {
  readonly type: 'end-of-stream';
  readonly t: number;
  readonly dir: TraceDirection;
}

/**
 * A launcher that started the runtime and stayed in between as its parent (npx, a shell script
 * without `exec`): its own process id, command line and status.
 */
export interface TraceLauncher {
  readonly pid: number;
  /** Its command line as the system shows it (e.g. `npm exec dsh-sdk-runtime`). */
  readonly command: string;
  readonly exitCode: number | null;
  readonly signal: string | null;
}

/** The last record: how the recording ended. */
export interface TraceExit {
  readonly type: 'exit';
  readonly t: number;
  /**
   * The runtime's exit code, or null when it was killed by a signal, could not be started, was
   * not started by the recorder, or its status is unknown.
   */
  readonly exitCode: number | null;
  readonly signal: string | null;
  /** Frames recorded per direction. */
  readonly frames: Readonly<Record<TraceDirection, number>>;
  /** Findings recorded, all records together. */
  readonly findings: number;
  /** The runtime's own process id, when the recorder started it (and it started). */
  readonly pid?: number;
  /** When a launcher stayed between the recorder and the runtime: the launcher's own status. */
  readonly launcher?: TraceLauncher;
  /** Why the runtime could not be started (its exit code and signal are then null). */
  readonly spawnError?: string;
}

export type TraceRecord =
  TraceHeader | TraceFrame | TraceFindingRecord | TraceEndOfStream | TraceExit;
