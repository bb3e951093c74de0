import type { JsonRpcErrorObject, JsonRpcId } from './classify.js';
import { ErrorCode, formatMessage, WireMessage } from './gen/constants.gen.js';
import type { Violation } from './gen/types.gen.js';

/** What the options form of the {@link JsonRpcResponseError} constructor takes. */
export interface JsonRpcResponseErrorOptions {
  /** The wire `data`; leave it out for an error without `data`. */
  readonly data?: unknown;
  readonly cause?: unknown;
}

/**
 * An error response from the peer, or an error a handler throws to choose the
 * response it sends (for example `-32602` with the list of violations).
 * Keeps the wire `code`, `wireMessage` and, only when the peer sent one, `data`.
 * `message` is for people: for a `-32602` it adds the first violations
 * (`Invalid params: /model: model "gpt-9" is not served by echo`); see {@link describeResponseError}.
 * For every other error it is the wire text, as in `@deepseek-ai/dsh-sdk-protocol`.
 */
export class JsonRpcResponseError extends Error {
  override readonly name: string = 'JsonRpcResponseError';
  /** The wire error code, for example `ErrorCode.InvalidParams`. */
  readonly code: number;
  /** The wire `message`, as sent or received (`message` may say more). */
  readonly wireMessage: string;
  /**
   * The wire `data`; absent (not `undefined`) when the error had none. Declared
   * only, so that no class field defines it as `undefined` before the constructor runs.
   */
  declare readonly data?: unknown;

  /**
   * `data` and `cause` in an options object: `new JsonRpcResponseError(code, message, { data })`.
   * A third argument that is not such an object (one whose keys are all `data` or `cause`) is
   * `data` itself, the original package's form; with a fourth argument the third is always `data`.
   */
  constructor(code: number, message: string, options?: JsonRpcResponseErrorOptions);
  /** The original package's form: `data` positional; `undefined` means no `data`. */
  constructor(code: number, message: string, data: unknown, options?: { cause?: unknown });
  constructor(code: number, message: string, ...rest: unknown[]) {
    const { data, cause } = responseErrorOptions(rest);
    super(describeResponseError(code, message, data.value), cause);
    this.code = code;
    this.wireMessage = message;
    if (data.present) this.data = data.value;
  }

  /** Builds the error from a response's `error` member. */
  static fromErrorObject(error: JsonRpcErrorObject): JsonRpcResponseError {
    return new JsonRpcResponseError(
      error.code,
      error.message,
      'data' in error ? { data: error.data } : {},
    );
  }

  /** The `error` member of a response carrying this error. */
  toErrorObject(): JsonRpcErrorObject {
    const { code, wireMessage: message } = this;
    return 'data' in this ? { code, message, data: this.data } : { code, message };
  }
}

/** `data` (and whether there is one) and the `cause` option, from the constructor's arguments after `message`. */
function responseErrorOptions(rest: unknown[]): {
  data: { present: boolean; value?: unknown };
  cause: { cause: unknown } | undefined;
} {
  const [third, fourth] = rest;
  if (rest.length < 2 && isOptionsObject(third)) {
    return {
      data: 'data' in third ? { present: true, value: third.data } : { present: false },
      cause: 'cause' in third ? { cause: third.cause } : undefined,
    };
  }
  const options = (fourth ?? {}) as { cause?: unknown };
  return {
    data: third === undefined ? { present: false } : { present: true, value: third },
    cause: 'cause' in options ? { cause: options.cause } : undefined,
  };
}

/** A plain object whose keys are all `data` or `cause` (none at all included): the options form. */
function isOptionsObject(value: unknown): value is JsonRpcResponseErrorOptions {
  if (typeof value !== 'object' || value === null) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (prototype !== Object.prototype && prototype !== null) return false;
  return Object.keys(value).every((key) => key === 'data' || key === 'cause');
}

/** How many violations an error's `message` shows before saying how many more there are. */
export const VIOLATIONS_IN_MESSAGE = 3;
const VIOLATION_SEPARATOR = '; ';

/**
 * The readable message of an error response: the wire `message`, and for a `-32602` whose
 * `data` is a violation list, its first {@link VIOLATIONS_IN_MESSAGE} violations
 * (`pointer: reason`, the reason alone at the root pointer) joined by `; `, then `and N more`.
 * The same text in every language's SDK (the IDL's `invalidParams` messages).
 */
export function describeResponseError(code: number, message: string, data?: unknown): string {
  if (code !== ErrorCode.InvalidParams || !isViolationList(data) || data.length === 0)
    return message;
  const shown = data
    .slice(0, VIOLATIONS_IN_MESSAGE)
    .map(({ pointer, message: reason }) =>
      pointer === '' ? reason : formatMessage(WireMessage.ViolationAt, { pointer, reason }),
    );
  const hidden = data.length - shown.length;
  if (hidden > 0) shown.push(formatMessage(WireMessage.MoreViolations, { count: hidden }));
  return formatMessage(WireMessage.WithViolations, {
    message,
    violations: shown.join(VIOLATION_SEPARATOR),
  });
}

function isViolationList(data: unknown): data is Violation[] {
  return (
    Array.isArray(data) &&
    data.every(
      (item: unknown) =>
        typeof item === 'object' &&
        item !== null &&
        typeof (item as Partial<Violation>).pointer === 'string' &&
        typeof (item as Partial<Violation>).message === 'string',
    )
  );
}

/** Why a transport stopped. */
export type TransportCloseReason =
  /** `close()` was called. */
  | 'closed'
  /** A call was made before `start()`. */
  | 'not-started'
  /** The input stream ended (the peer closed its output or exited). */
  | 'input-ended'
  /** The input stream emitted an error or was destroyed. */
  | 'input-error'
  /** Writing failed (for example `EPIPE`), or the output stream was ended or destroyed. */
  | 'output-error';

/** A request failed, or a call was refused, because the transport is not (or no longer) open. */
export class TransportClosedError extends Error {
  override readonly name = 'TransportClosedError';
  /** What stopped the transport. */
  readonly reason: TransportCloseReason;

  constructor(reason: TransportCloseReason, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.reason = reason;
  }
}

/** A request got no response within its `timeoutMs`; its id is forgotten. */
export class RequestTimeoutError extends Error {
  override readonly name = 'RequestTimeoutError';
  readonly method: string;
  readonly id: JsonRpcId;
  readonly timeoutMs: number;

  constructor(method: string, id: JsonRpcId, timeoutMs: number) {
    super(`request ${String(id)} (${method}) got no response within ${timeoutMs} ms`);
    this.method = method;
    this.id = id;
    this.timeoutMs = timeoutMs;
  }
}

/**
 * A request was abandoned through its `signal`; `cause` is the signal's reason.
 * The protocol has no cancel method, so the peer is not told: a late response
 * is reported as `unknown-response-id`.
 */
export class RequestAbortedError extends Error {
  override readonly name = 'RequestAbortedError';
  readonly method: string;
  /** Absent when the signal was already aborted and nothing was sent (declared only, like `data` above). */
  declare readonly id?: JsonRpcId;

  constructor(method: string, id: JsonRpcId | undefined, cause: unknown) {
    super(
      id === undefined
        ? `request (${method}) aborted before it was sent`
        : `request ${String(id)} (${method}) aborted`,
      { cause },
    );
    this.method = method;
    if (id !== undefined) this.id = id;
  }
}
