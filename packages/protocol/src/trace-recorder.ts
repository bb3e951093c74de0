// A bystander's view of a connection: every line of both directions, recorded and checked against
// the IDL, without ever touching what passes. The recording proxy (`dsh-sdk trace`) and any client
// that records its own connection feed it the chunks they forward.
/// <reference types="node" preserve="true" />
import { classifyMessage } from './classify.js';
import type { JsonRpcId } from './classify.js';
import { lineRejectionMessage } from './diagnostics.js';
import {
  DEFAULT_MAX_FRAME_BYTES,
  formatMessage,
  IDL_VERSION,
  MAX_NESTING_DEPTH,
  WireMessage,
} from './gen/constants.gen.js';
import { METHODS } from './gen/methods.gen.js';
import type { MethodInfo, MethodName } from './gen/methods.gen.js';
import { METHOD_VALIDATORS } from './gen/validators.gen.js';
import type { Validator } from './gen/validators.gen.js';
import { LineReader } from './line-reader.js';
import type { LineRejectionReason } from './line-reader.js';
import { exceedsNestingDepth, readTopLevel, SHORT_LINE_CHARS } from './nesting.js';
import { TRACE_FORMAT, TRACE_FORMAT_VERSION } from './trace-format.js';
import type {
  TraceDirection,
  TraceFinding,
  TraceFindingReason,
  TraceHeader,
  TraceLauncher,
  TraceMessageKind,
} from './trace-format.js';
import { toViolations } from './violations.js';

/** Where a finding was made, for a reader of the recorder's reports (the proxy prints them). */
export interface TraceFindingContext {
  readonly dir: TraceDirection;
  /** The frame's `seq`. */
  readonly seq: number;
  /** The frame's line in its direction's stream. */
  readonly line: number;
  readonly method?: string;
  readonly id?: JsonRpcId;
}

/** Options of a {@link TraceRecorder}. */
export interface TraceRecorderOptions {
  /** Receives every record, in order, as one compact JSON text without its `\n`. */
  readonly write: (record: string) => void;
  /** Receives every finding as it is made (the record holding it is written right after). */
  readonly onFinding?: (finding: TraceFinding, context: TraceFindingContext) => void;
  /** Written into the header: what is recording. */
  readonly recorder: string;
  /** Written into the header: the runtime's command line, when known. */
  readonly command?: readonly string[];
  /** The frame limit lines are read with; defaults to `DEFAULT_MAX_FRAME_BYTES`. */
  readonly maxFrameBytes?: number;
  /** First bytes kept of a line that is not decoded (default 1024). */
  readonly headBytes?: number;
  /** Requests tracked per direction while they wait for a response (default 65536). */
  readonly maxPendingRequests?: number;
  /** A monotonic clock in milliseconds (default `performance.now`). */
  readonly now?: () => number;
}

/** How the recording ended, for the last record (docs/trace-format.md, `exit`). */
export interface TraceFinish {
  readonly exitCode?: number | null;
  readonly signal?: string | null;
  readonly pid?: number;
  readonly launcher?: TraceLauncher;
  readonly spawnError?: string;
}

interface PendingRequest {
  readonly seq: number;
  readonly t: number;
  readonly method: string;
}

interface FrameFacts {
  kind?: TraceMessageKind;
  method?: string;
  id?: JsonRpcId;
  request?: number;
  latencyMs?: number;
}

const DEFAULT_HEAD_BYTES = 1024;
const DEFAULT_MAX_PENDING = 65_536;
const DIRECTIONS: readonly TraceDirection[] = ['clientToServer', 'serverToClient'];
const METHOD_INFO = new Map<string, MethodInfo>(METHODS.map((m) => [m.wireName, m]));

function other(dir: TraceDirection): TraceDirection {
  return dir === 'clientToServer' ? 'serverToClient' : 'clientToServer';
}

/** A pending-request key that keeps `"1"` and `1` apart, as the transports do. */
function idKey(id: JsonRpcId): string {
  return `${typeof id}:${String(id)}`;
}

function roundMs(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}

/**
 * Records both directions of one connection as trace records (docs/trace-format.md).
 *
 * Feed it every chunk after forwarding it: `push` never changes, holds or delays the bytes, it
 * only reads them. Lines are split by the protocol's own {@link LineReader}, so memory is bounded
 * by the frame limit, and checked with the generated validators: the method is known and goes its
 * IDL direction, params and results are valid, every response answers a pending request.
 */
export class TraceRecorder {
  readonly #options: TraceRecorderOptions;
  readonly #now: () => number;
  readonly #t0: number;
  readonly #maxPending: number;
  readonly #readers: Record<TraceDirection, LineReader>;
  readonly #pending: Record<TraceDirection, Map<string, PendingRequest>> = {
    clientToServer: new Map(),
    serverToClient: new Map(),
  };
  readonly #frames: Record<TraceDirection, number> = { clientToServer: 0, serverToClient: 0 };
  readonly #ended = new Set<TraceDirection>();
  #seq = 0;
  #findings = 0;
  #chunkTime = 0;
  #finished = false;
  readonly #maxFrameBytes: number;

  constructor(options: TraceRecorderOptions) {
    this.#options = options;
    this.#now = options.now ?? (() => performance.now());
    this.#t0 = this.#now();
    this.#maxPending = options.maxPendingRequests ?? DEFAULT_MAX_PENDING;
    const maxFrameBytes = options.maxFrameBytes ?? DEFAULT_MAX_FRAME_BYTES;
    this.#maxFrameBytes = maxFrameBytes;
    const headBytes = options.headBytes ?? DEFAULT_HEAD_BYTES;
    const reader = (dir: TraceDirection): LineReader =>
      new LineReader(
        {
          acceptLine: (text, line, bytes) => this.#acceptLine(dir, text, line, bytes),
          rejectLine: (reason, line, bytes, head) =>
            this.#rejectLine(dir, reason, line, bytes, head),
        },
        { maxFrameBytes, rejectedHeadBytes: headBytes },
      );
    this.#readers = {
      clientToServer: reader('clientToServer'),
      serverToClient: reader('serverToClient'),
    };
    const header: TraceHeader = {
      type: 'header',
      format: TRACE_FORMAT,
      version: TRACE_FORMAT_VERSION,
      protocolVersion: IDL_VERSION,
      startedAt: Date.now(),
      recorder: options.recorder,
      ...(options.command ? { command: options.command } : {}),
      maxFrameBytes,
      headBytes,
    };
    options.write(JSON.stringify(header));
  }

  /** Records the frames a chunk completes. Call it after forwarding the chunk. */
  push(dir: TraceDirection, chunk: Buffer): void {
    if (this.#finished || this.#ended.has(dir)) return;
    this.#chunkTime = this.#elapsed();
    this.#readers[dir].push(chunk);
  }

  /** One direction's stream ended: a last line without `\n` is recorded as `truncated-frame`. */
  endOfStream(dir: TraceDirection): void {
    if (this.#finished || this.#ended.has(dir)) return;
    this.#chunkTime = this.#elapsed();
    this.#readers[dir].end();
    this.#ended.add(dir);
    this.#options.write(JSON.stringify({ type: 'end-of-stream', t: this.#chunkTime, dir }));
  }

  /** Ends the recording: unanswered requests become findings, then the `exit` record. Idempotent. */
  finish(how: TraceFinish = {}): void {
    if (this.#finished) return;
    for (const dir of DIRECTIONS) this.endOfStream(dir);
    this.#finished = true;
    const t = this.#elapsed();
    for (const dir of DIRECTIONS) {
      for (const request of this.#pending[dir].values()) {
        this.#reportUnanswered(dir, request, t, 'no response came before the recording ended');
      }
      this.#pending[dir].clear();
    }
    const exit = {
      type: 'exit',
      t,
      exitCode: how.exitCode ?? null,
      signal: how.signal ?? null,
      frames: { ...this.#frames },
      findings: this.#findings,
      ...(how.pid === undefined ? {} : { pid: how.pid }),
      ...(how.launcher === undefined ? {} : { launcher: how.launcher }),
      ...(how.spawnError === undefined ? {} : { spawnError: how.spawnError }),
    };
    this.#options.write(JSON.stringify(exit));
  }

  /** Findings so far, all records together. */
  get findingCount(): number {
    return this.#findings;
  }

  #elapsed(): number {
    return roundMs(this.#now() - this.#t0);
  }

  #rejectLine(
    dir: TraceDirection,
    reason: LineRejectionReason,
    line: number,
    bytes: number,
    head: Buffer,
  ): void {
    const finding = { reason, message: lineRejectionMessage(reason, this.#maxFrameBytes) };
    this.#writeFrame(
      dir,
      line,
      bytes,
      {},
      [finding],
      `"head":${JSON.stringify(head.toString('base64'))}`,
    );
  }

  #acceptLine(dir: TraceDirection, text: string, line: number, bytes: number): void {
    // The transports' order: too deep comes before anything else, a short line's only when it fails to parse.
    if (text.length > SHORT_LINE_CHARS && exceedsNestingDepth(text))
      return this.#acceptDeepLine(dir, text, line, bytes);
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      if (exceedsNestingDepth(text)) return this.#acceptDeepLine(dir, text, line, bytes);
      const message = `${WireMessage.InvalidJson}: ${error instanceof Error ? error.message : ''}`;
      const finding = { reason: 'invalid-json' as const, message };
      this.#writeFrame(dir, line, bytes, {}, [finding], `"text":${JSON.stringify(text)}`);
      return;
    }
    const facts: FrameFacts = {};
    const findings: TraceFinding[] = [];
    this.#check(dir, value, facts, findings);
    // The line is valid JSON without a raw `\n`, so it goes into the record as it came, unless a
    // bare `\r` (insignificant whitespace) would break readers that also split on `\r` (SSE).
    const json = text.includes('\r') ? JSON.stringify(value) : text;
    this.#writeFrame(dir, line, bytes, facts, findings, `"json":${json}`);
  }

  /**
   * A line nested deeper than the limit, kept as text: the transports never parse it. A request
   * whose top level reads is tracked, since the transport answers it (`-32600`).
   */
  #acceptDeepLine(dir: TraceDirection, text: string, line: number, bytes: number): void {
    const message = formatMessage(WireMessage.NestingTooDeep, { limit: MAX_NESTING_DEPTH });
    const findings: TraceFinding[] = [{ reason: 'nesting-too-deep', message }];
    const facts: FrameFacts = {};
    const top = classifyMessage(readTopLevel(text));
    if (top.kind === 'request') {
      const { id, method } = top.message;
      Object.assign(facts, { kind: 'request', method, id });
      this.#track(dir, id, method, findings);
    } else if (top.kind === 'notification') {
      Object.assign(facts, { kind: 'notification', method: top.message.method });
    }
    this.#writeFrame(dir, line, bytes, facts, findings, `"text":${JSON.stringify(text)}`);
  }

  #check(dir: TraceDirection, value: unknown, facts: FrameFacts, findings: TraceFinding[]): void {
    const classified = classifyMessage(value);
    switch (classified.kind) {
      case 'malformed':
        findings.push({ reason: classified.reason, message: classified.detail });
        if (classified.method !== undefined) facts.method = classified.method;
        if (classified.id !== undefined) facts.id = classified.id;
        return;
      case 'request': {
        const { id, method, params } = classified.message;
        Object.assign(facts, { kind: 'request', method, id });
        this.#checkMethod(dir, method, 'request', params, findings);
        this.#track(dir, id, method, findings);
        return;
      }
      case 'notification': {
        const { method, params } = classified.message;
        Object.assign(facts, { kind: 'notification', method });
        this.#checkMethod(dir, method, 'notification', params, findings);
        return;
      }
      case 'success':
      case 'error': {
        const { id } = classified.message;
        Object.assign(facts, { kind: classified.kind === 'success' ? 'result' : 'error', id });
        const request = this.#pending[other(dir)].get(idKey(id));
        if (request === undefined) {
          const message = formatMessage(WireMessage.UnknownResponseId, { id: JSON.stringify(id) });
          findings.push({ reason: 'unknown-response-id', message });
          return;
        }
        this.#pending[other(dir)].delete(idKey(id));
        Object.assign(facts, {
          method: request.method,
          request: request.seq,
          latencyMs: roundMs(this.#chunkTime - request.t),
        });
        if (classified.kind === 'success') {
          this.#checkResult(request.method, classified.message.result, findings);
        }
        return;
      }
    }
  }

  #checkMethod(
    dir: TraceDirection,
    method: string,
    kind: MethodInfo['kind'],
    params: unknown,
    findings: TraceFinding[],
  ): void {
    const info = METHOD_INFO.get(method);
    if (info === undefined) {
      findings.push({ reason: 'unknown-method', message: `the IDL has no method ${method}` });
      return;
    }
    if (info.direction !== dir) {
      const message = `${method} goes ${info.direction}, but was sent ${dir}`;
      findings.push({ reason: 'wrong-direction', message });
    }
    if (info.kind !== kind) {
      findings.push({
        reason: 'wrong-kind',
        message: `${method} is a ${info.kind}, sent as a ${kind}`,
      });
    }
    // A method without params takes absent params too (the IDL's `shutdown`: params absent, `{}` or `null`).
    if (params === undefined && info.paramsType === null) return;
    const validate = METHOD_VALIDATORS[info.wireName].params;
    const reason = info.kind === 'request' ? 'invalid-params' : 'invalid-notification-params';
    pushViolations(findings, reason, `${method} params break the schema`, validate, params);
  }

  #checkResult(method: string, result: unknown, findings: TraceFinding[]): void {
    const validate = METHOD_VALIDATORS[method as MethodName]?.result;
    if (!validate) return;
    pushViolations(
      findings,
      'invalid-result',
      `the result of ${method} breaks the schema`,
      validate,
      result,
    );
  }

  #track(dir: TraceDirection, id: JsonRpcId, method: string, findings: TraceFinding[]): void {
    const pending = this.#pending[dir];
    const key = idKey(id);
    if (pending.has(key)) {
      const message = `id ${JSON.stringify(id)} is already used by a pending request`;
      findings.push({ reason: 'duplicate-request-id', message });
    }
    pending.set(key, { seq: this.#seq, t: this.#chunkTime, method });
    if (pending.size <= this.#maxPending) return;
    // Memory stays bounded: the oldest request is given up on, with a report.
    const [oldestKey, oldest] = pending.entries().next().value as [string, PendingRequest];
    pending.delete(oldestKey);
    const message = `no longer tracked: more than ${this.#maxPending} requests are pending`;
    this.#reportUnanswered(dir, oldest, this.#chunkTime, message);
  }

  #reportUnanswered(dir: TraceDirection, request: PendingRequest, t: number, why: string): void {
    const finding: TraceFinding = {
      reason: 'unanswered-request',
      message: `${request.method} (frame ${request.seq}): ${why}`,
    };
    this.#findings += 1;
    this.#options.onFinding?.(finding, { dir, seq: request.seq, line: 0, method: request.method });
    this.#options.write(JSON.stringify({ type: 'finding', t, dir, frame: request.seq, finding }));
  }

  #writeFrame(
    dir: TraceDirection,
    line: number,
    bytes: number,
    facts: FrameFacts,
    findings: readonly TraceFinding[],
    content: string,
  ): void {
    const seq = this.#seq++;
    this.#frames[dir] += 1;
    const record = {
      type: 'frame',
      seq,
      dir,
      t: this.#chunkTime,
      line,
      bytes,
      ...facts,
      ...(findings.length > 0 ? { findings } : {}),
    };
    if (findings.length > 0) {
      this.#findings += findings.length;
      const context: TraceFindingContext = {
        dir,
        seq,
        line,
        ...(facts.method === undefined ? {} : { method: facts.method }),
        ...(facts.id === undefined ? {} : { id: facts.id }),
      };
      for (const finding of findings) this.#options.onFinding?.(finding, context);
    }
    const meta = JSON.stringify(record);
    this.#options.write(`${meta.slice(0, -1)},${content}}`);
  }
}

function pushViolations(
  findings: TraceFinding[],
  reason: TraceFindingReason,
  what: string,
  validate: Validator<unknown>,
  value: unknown,
): void {
  if (validate(value)) return;
  const violations = toViolations(validate.errors);
  const summary = violations.map((v) => `${v.pointer || '/'} ${v.message}`).join('; ');
  findings.push({ reason, message: `${what}: ${summary}`, violations });
}
