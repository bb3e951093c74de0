/// <reference types="node" preserve="true" />
// Checks every line a runtime writes, in every case, against the rules that hold for all traffic:
// framing, stdout hygiene, classification, answers and their ids, the schema, `-32602`'s data and
// the order of `seq`. Findings go to the case as failures of the requirement they break.
import { ErrorCode, METHOD_VALIDATORS, METHODS, toViolations } from '@dsh-sdk/protocol';
import type { MethodName } from '@dsh-sdk/protocol';
import { excerpt, firstLooseWhitespace, idKey, isObject } from './server-line.js';
import type { JsonObject, ServerLine } from './server-line.js';

/** The requirements the monitor judges in every case. */
export const MONITORED_REQUIREMENTS = [
  'DSH-FRAME-001',
  'DSH-FRAME-002',
  'DSH-FRAME-003',
  'DSH-FRAME-004',
  'DSH-FRAME-006',
  'DSH-STDOUT-001',
  'DSH-STDOUT-002',
  'DSH-MSG-001',
  'DSH-MSG-002',
  'DSH-MSG-003',
  'DSH-MSG-004',
  'DSH-MSG-005',
  'DSH-MSG-006',
  'DSH-MSG-007',
  'DSH-ERR-002',
  'DSH-ERR-004',
  'DSH-EVENT-001',
  'DSH-EVENT-002',
  'DSH-EVENT-003',
] as const;

/** Where findings go: a failure of a requirement, or a sign that it was exercised. */
export interface MonitorSink {
  fail(requirement: string, message: string): void;
  exercised(requirement: string): void;
}

interface Pending {
  readonly method: string;
  /** The session a `session/close` names: its log starts anew once answered. */
  readonly closes?: string;
}

const METHOD_INFO = new Map<string, (typeof METHODS)[number]>(METHODS.map((m) => [m.wireName, m]));
const ALWAYS_ALLOWED_CODES = new Set<number>([ErrorCode.MethodNotFound, ErrorCode.InternalError]);

export class WireMonitor {
  readonly #sink: MonitorSink;
  readonly #pending = new Map<string, Pending>();
  readonly #answered = new Set<string>();
  /** Ids that must never be answered (hostile lines), with the requirement they test. */
  readonly #forbidden = new Map<string, { requirement: string; why: string }>();
  readonly #lastSeq = new Map<string, number>();
  readonly #endedTurns = new Map<string, Set<number>>();
  #hasClientWritten = false;

  constructor(sink: MonitorSink) {
    this.#sink = sink;
  }

  /** The client's first write: output before it breaks DSH-STDOUT-001. */
  clientWrote(): void {
    this.#hasClientWritten = true;
  }

  expectAnswer(id: unknown, method: string, params?: unknown): void {
    const key = idKey(id);
    this.#answered.delete(key);
    const sessionId = isObject(params) ? params['sessionId'] : undefined;
    const closes =
      method === 'session/close' && typeof sessionId === 'string' ? { closes: sessionId } : {};
    this.#pending.set(key, { method, ...closes });
  }

  forbidAnswer(id: unknown, requirement: string, why: string): void {
    this.#forbidden.set(idKey(id), { requirement, why });
  }

  /** Forgets the ids forbidden so far (a new series of hostile lines starts). */
  clearForbidden(): void {
    this.#forbidden.clear();
  }

  /** A request that needs no answer any more (the runtime may have stopped reading). */
  forget(id: unknown): void {
    this.#pending.delete(idKey(id));
  }

  /** The session was closed: a later prompt with its id starts a new log. */
  sessionClosed(sessionId: string): void {
    this.#lastSeq.delete(sessionId);
    this.#endedTurns.delete(sessionId);
  }

  check(line: ServerLine): void {
    const sink = this.#sink;
    if (!this.#hasClientWritten)
      sink.fail('DSH-STDOUT-001', `wrote ${excerpt(line)} before any request was sent`);
    else sink.exercised('DSH-STDOUT-001');
    if (line.text === undefined) {
      sink.fail('DSH-FRAME-001', `line ${line.index + 1} is not valid UTF-8: ${excerpt(line)}`);
      return;
    }
    sink.exercised('DSH-FRAME-001');
    if (line.raw.length === 0 || line.value === undefined) {
      const what = line.raw.length === 0 ? 'a blank line' : `not JSON: ${excerpt(line)}`;
      sink.fail(
        line.raw.length === 0 ? 'DSH-FRAME-003' : 'DSH-FRAME-002',
        `line ${line.index + 1} is ${what}`,
      );
      if (line.raw.length > 0)
        sink.fail(
          'DSH-STDOUT-002',
          `line ${line.index + 1} is not a protocol frame (a log line?): ${excerpt(line)}`,
        );
      return;
    }
    if (!line.message) {
      const what = Array.isArray(line.value) ? 'an array (a batch)' : 'not an object';
      sink.fail('DSH-FRAME-002', `line ${line.index + 1} is ${what}: ${excerpt(line)}`);
      if (Array.isArray(line.value)) this.#checkBatchAnswers(line, line.value);
      return;
    }
    sink.exercised('DSH-FRAME-002');
    const loose = firstLooseWhitespace(line.raw);
    if (loose >= 0)
      sink.fail(
        'DSH-FRAME-003',
        `line ${line.index + 1} has insignificant whitespace at byte ${loose}: ${excerpt(line)}`,
      );
    else sink.exercised('DSH-FRAME-003');
    if (line.message['jsonrpc'] !== '2.0')
      sink.fail('DSH-FRAME-004', `line ${line.index + 1} lacks "jsonrpc":"2.0": ${excerpt(line)}`);
    else sink.exercised('DSH-FRAME-004');
    this.#checkKind(line, line.message);
  }

  #checkKind(line: ServerLine, message: JsonObject): void {
    const sink = this.#sink;
    switch (line.kind) {
      case 'response':
        sink.exercised('DSH-STDOUT-002');
        return this.#checkResponse(line, message);
      case 'notification':
        sink.exercised('DSH-STDOUT-002');
        return this.#checkNotification(line, message);
      case 'request':
        sink.exercised('DSH-STDOUT-002');
        sink.fail(
          'DSH-MSG-004',
          `the runtime sent a request (${JSON.stringify(message['method'])}): no server → client request exists`,
        );
        return;
      default: {
        const hasBoth = message['result'] !== undefined && message['error'] !== undefined;
        if (message['jsonrpc'] === undefined)
          sink.fail(
            'DSH-STDOUT-002',
            `an object that is not a JSON-RPC message (a log line?): ${excerpt(line)}`,
          );
        else if (message['id'] !== undefined && message['method'] === undefined)
          sink.fail(
            'DSH-MSG-003',
            `a response with ${hasBoth ? 'both' : 'neither of'} result and error: ${excerpt(line)}`,
          );
        else
          sink.fail(
            'DSH-STDOUT-002',
            `an object that is not a JSON-RPC message (a log line?): ${excerpt(line)}`,
          );
      }
    }
  }

  /** Answers inside an array: to a forbidden id (a batch the runtime should have ignored). */
  #checkBatchAnswers(line: ServerLine, items: readonly unknown[]): void {
    for (const item of items) {
      if (!isObject(item) || item['id'] === undefined) continue;
      const forbidden = this.#forbidden.get(idKey(item['id']));
      if (forbidden)
        this.#sink.fail(
          forbidden.requirement,
          `answered ${forbidden.why}, in an array: ${excerpt(line)}`,
        );
    }
  }

  #checkResponse(line: ServerLine, message: JsonObject): void {
    const sink = this.#sink;
    const key = idKey(message['id']);
    const forbidden = this.#forbidden.get(key);
    if (forbidden) sink.fail(forbidden.requirement, `answered ${forbidden.why}: ${excerpt(line)}`);
    const pending = this.#pending.get(key);
    if (!pending) {
      if (this.#answered.has(key))
        sink.fail('DSH-MSG-002', `answered id ${key} a second time: ${excerpt(line)}`);
      else if (!forbidden)
        sink.fail(
          'DSH-MSG-001',
          `answered id ${key}, which no pending request has${this.#sameValueOtherType(message['id'])}: ${excerpt(line)}`,
        );
      return;
    }
    this.#pending.delete(key);
    this.#answered.add(key);
    sink.exercised('DSH-MSG-001');
    sink.exercised('DSH-MSG-002');
    if (message['error'] !== undefined) this.#checkError(line, message['error'], pending.method);
    else this.#checkResult(message['result'], pending.method);
    if (pending.closes !== undefined && message['result'] !== undefined)
      this.sessionClosed(pending.closes);
  }

  /** ` (a request with id 1, a number, is pending)` when only the id's type differs. */
  #sameValueOtherType(id: unknown): string {
    const other =
      typeof id === 'string' ? Number(id) : typeof id === 'number' ? String(id) : undefined;
    if (other === undefined || !this.#pending.has(idKey(other))) return '';
    return ` (a request with id ${idKey(other)}, a ${typeof other}, is pending: the id's type changed)`;
  }

  #checkError(line: ServerLine, error: unknown, method: string): void {
    const sink = this.#sink;
    if (
      !isObject(error) ||
      !Number.isInteger(error['code']) ||
      typeof error['message'] !== 'string'
    ) {
      sink.fail(
        'DSH-MSG-003',
        `an error without an integer code and a string message: ${excerpt(line)}`,
      );
      return;
    }
    sink.exercised('DSH-MSG-003');
    const code = error['code'] as number;
    const info = METHOD_INFO.get(method);
    if (info) {
      if (info.errorCodes.includes(code) || ALWAYS_ALLOWED_CODES.has(code))
        sink.exercised('DSH-ERR-004');
      else
        sink.fail(
          'DSH-ERR-004',
          `${method} answered code ${code}, which the IDL does not list for it (${info.errorCodes.join(', ')})`,
        );
    }
    if (code === ErrorCode.InvalidParams) this.#checkViolations(line, error['data']);
  }

  #checkViolations(line: ServerLine, data: unknown): void {
    const isViolation = (v: unknown): boolean =>
      isObject(v) &&
      typeof v['pointer'] === 'string' &&
      (v['pointer'] === '' || v['pointer'].startsWith('/')) &&
      typeof v['message'] === 'string';
    if (!Array.isArray(data) || data.length === 0 || !data.every(isViolation))
      this.#sink.fail(
        'DSH-ERR-002',
        `-32602 without a list of {pointer, message} violations in data: ${excerpt(line)}`,
      );
    else this.#sink.exercised('DSH-ERR-002');
  }

  #checkResult(result: unknown, method: string): void {
    const validators = METHOD_VALIDATORS[method as MethodName];
    if (!validators?.result) return;
    if (validators.result(result)) this.#sink.exercised('DSH-MSG-006');
    else
      this.#sink.fail(
        'DSH-MSG-006',
        `the result of ${method} breaks the schema: ${describeViolations(validators.result.errors)}: ${JSON.stringify(result).slice(0, 200)}`,
      );
  }

  #checkNotification(line: ServerLine, message: JsonObject): void {
    const sink = this.#sink;
    const method = String(message['method']);
    const info = METHOD_INFO.get(method);
    if (!info) {
      sink.fail(
        'DSH-MSG-007',
        `a notification of a method the IDL does not define: ${excerpt(line)}`,
      );
      return;
    }
    if (info.direction !== 'serverToClient' || info.kind !== 'notification') {
      sink.fail(
        'DSH-MSG-004',
        `the runtime sent ${method}, a client → server method, as a notification`,
      );
      return;
    }
    sink.exercised('DSH-MSG-004');
    sink.exercised('DSH-MSG-007');
    const validate = METHOD_VALIDATORS[method as MethodName].params;
    if (!validate(message['params'])) {
      sink.fail(
        'DSH-MSG-005',
        `${method} params break the schema: ${describeViolations(validate.errors)}: ${excerpt(line)}`,
      );
      return;
    }
    sink.exercised('DSH-MSG-005');
    if (method === 'session.event') this.#checkEvent(message['params'] as JsonObject);
  }

  #checkEvent(params: JsonObject): void {
    const sink = this.#sink;
    const sessionId = String(params['sessionId']);
    const event = params['event'] as JsonObject;
    const seq = event['seq'] as number;
    const last = this.#lastSeq.get(sessionId);
    this.#lastSeq.set(sessionId, seq);
    if (last !== undefined && seq <= last)
      sink.fail(
        'DSH-EVENT-001',
        `session ${sessionId}: seq ${seq} after ${last} (${String(event['type'])})`,
      );
    else sink.exercised('DSH-EVENT-001');
    if (last !== undefined && seq !== last + 1 && seq > last)
      sink.fail(
        'DSH-EVENT-002',
        `session ${sessionId}: seq ${seq} after ${last}, a gap (${String(event['type'])})`,
      );
    else if (last !== undefined) sink.exercised('DSH-EVENT-002');
    this.#checkTurnEnded(sessionId, event);
  }

  #checkTurnEnded(sessionId: string, event: JsonObject): void {
    const data = isObject(event['data']) ? event['data'] : {};
    const turn = data['turn'];
    if (typeof turn !== 'number') return;
    const ended = this.#endedTurns.get(sessionId) ?? new Set<number>();
    if (ended.has(turn))
      this.#sink.fail(
        'DSH-EVENT-003',
        `session ${sessionId}: ${String(event['type'])} of turn ${turn} after its turn/end`,
      );
    else this.#sink.exercised('DSH-EVENT-003');
    if (event['type'] === 'turn/end') {
      ended.add(turn);
      this.#endedTurns.set(sessionId, ended);
    }
  }

  /** The runtime's output ended: an unterminated last line breaks DSH-FRAME-006. */
  outputEnded(unterminated: Buffer): void {
    if (unterminated.length > 0)
      this.#sink.fail(
        'DSH-FRAME-006',
        `the output ended inside a line (${unterminated.length} bytes without \\n): ${excerpt({ raw: unterminated })}`,
      );
    else this.#sink.exercised('DSH-FRAME-006');
  }
}

function describeViolations(errors: Parameters<typeof toViolations>[0]): string {
  return toViolations(errors)
    .slice(0, 3)
    .map((v) => `${v.pointer || '/'} ${v.message}`)
    .join('; ');
}
