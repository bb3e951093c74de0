// Checks every line a client writes, in every scenario: framing, the handshake first and once,
// ids, methods and params against the IDL, guarded methods only with their capability, nothing
// after `shutdown`, and `shutdown` before the end of stdin.
import { capabilityGuarding, METHOD_VALIDATORS, METHODS, toViolations } from '@dsh-sdk/protocol';
import type { MethodName } from '@dsh-sdk/protocol';
import type { CaseVerdicts } from '../verdicts.js';
import { excerpt, firstLooseWhitespace, idKey } from '../runtime/server-line.js';
import type { JsonObject, ServerLine } from '../runtime/server-line.js';

export const CLIENT_MONITORED = [
  'DSH-CLIENT-001',
  'DSH-CLIENT-002',
  'DSH-CLIENT-003',
  'DSH-CLIENT-004',
  'DSH-CLIENT-005',
  'DSH-CLIENT-006',
  'DSH-CLIENT-008',
  'DSH-CLIENT-021',
  'DSH-CLIENT-023',
] as const;

/** What the fake runtime did that the checks depend on. */
export interface RuntimeSide {
  /** The capabilities it reported (none until the handshake). */
  capabilities: JsonObject;
  hasAnsweredInitialize: boolean;
  hasAnsweredShutdown: boolean;
  /** It exited or was told to die: closing its stdin needs no shutdown then. */
  isGone: boolean;
}

export class ClientMonitor {
  readonly side: RuntimeSide = {
    capabilities: {},
    hasAnsweredInitialize: false,
    hasAnsweredShutdown: false,
    isGone: false,
  };
  readonly #sink: CaseVerdicts;
  readonly #pending = new Set<string>();
  readonly #used = new Set<string>();
  #initializeCount = 0;
  #hasSentShutdown = false;

  constructor(sink: CaseVerdicts) {
    this.#sink = sink;
  }

  /** The fake answered request `id`: it is no longer pending. */
  answered(id: unknown): void {
    this.#pending.delete(idKey(id));
  }

  check(line: ServerLine): void {
    const sink = this.#sink;
    const where = `line ${line.index + 1}`;
    if (line.text === undefined) return sink.fail('DSH-CLIENT-003', `${where} is not valid UTF-8`);
    if (!line.message)
      return sink.fail('DSH-CLIENT-003', `${where} is not a JSON object: ${excerpt(line)}`);
    const loose = firstLooseWhitespace(line.raw);
    if (loose >= 0)
      sink.fail(
        'DSH-CLIENT-003',
        `${where} has insignificant whitespace at byte ${loose}: ${excerpt(line)}`,
      );
    else if (line.message['jsonrpc'] !== '2.0')
      sink.fail('DSH-CLIENT-003', `${where} lacks "jsonrpc":"2.0": ${excerpt(line)}`);
    else sink.exercised('DSH-CLIENT-003');
    if (line.kind !== 'request') {
      if (line.kind !== 'response')
        sink.fail('DSH-CLIENT-005', `${where} is not a request: ${excerpt(line)}`);
      return;
    }
    this.#checkRequest(line.message, where);
  }

  #checkRequest(message: JsonObject, where: string): void {
    const sink = this.#sink;
    const method = String(message['method']);
    const id = message['id'];
    if (method === 'initialize') {
      this.#initializeCount += 1;
      sink.check('DSH-CLIENT-002', this.#initializeCount === 1, `${where}: initialize sent again`);
    } else
      sink.check(
        'DSH-CLIENT-001',
        this.side.hasAnsweredInitialize,
        `${where}: ${method} sent before the answer to initialize`,
      );
    if (this.side.hasAnsweredShutdown)
      sink.fail('DSH-CLIENT-021', `${where}: ${method} sent after shutdown was answered`);
    else sink.exercised('DSH-CLIENT-021');
    if (method === 'shutdown') this.#hasSentShutdown = true;
    this.#checkId(id, where);
    this.#checkMethod(method, message['params'], where);
  }

  #checkId(id: unknown, where: string): void {
    const key = idKey(id);
    const isValid = typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id));
    if (!isValid || this.#pending.has(key))
      this.#sink.fail(
        'DSH-CLIENT-004',
        `${where}: id ${key} ${isValid ? 'is already pending' : 'is not a string or a number'}`,
      );
    else this.#sink.exercised('DSH-CLIENT-004');
    this.#sink.check('DSH-CLIENT-023', !this.#used.has(key), `${where}: id ${key} used again`);
    this.#pending.add(key);
    this.#used.add(key);
  }

  #checkMethod(method: string, params: unknown, where: string): void {
    const sink = this.#sink;
    const info = METHODS.find((m) => m.wireName === method);
    if (!info || info.kind !== 'request' || info.direction !== 'clientToServer') {
      sink.fail(
        'DSH-CLIENT-005',
        `${where}: ${method} is not a client → server request of the IDL`,
      );
      return;
    }
    const validate = METHOD_VALIDATORS[method as MethodName].params;
    // A method without params (shutdown) may leave them out: absent, {} or null.
    if ((params === undefined && info.paramsType === null) || validate(params))
      sink.exercised('DSH-CLIENT-005');
    else
      sink.fail(
        'DSH-CLIENT-005',
        `${where}: ${method} params break the schema: ${toViolations(validate.errors)
          .map((v) => `${v.pointer || '/'} ${v.message}`)
          .join('; ')}`,
      );
    const guard = capabilityGuarding(method);
    if (guard)
      sink.check(
        'DSH-CLIENT-008',
        this.side.capabilities[guard.name] === true,
        `${where}: ${method} sent though the runtime did not report ${guard.name}`,
      );
  }

  /** The client closed the runtime's stdin. */
  stdinClosed(): void {
    if (this.side.isGone) return;
    this.#sink.check(
      'DSH-CLIENT-006',
      this.#hasSentShutdown,
      "the client closed a live runtime's stdin without sending shutdown first",
    );
  }
}
