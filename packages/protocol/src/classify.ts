import { formatMessage, MAX_SAFE_INTEGER, WireMessage } from './gen/constants.gen.js';

/** A JSON-RPC id: a string or a number within ±`MAX_SAFE_INTEGER`. */
export type JsonRpcId = string | number;

/** A request: has both `id` and `method`. */
export interface JsonRpcRequest {
  readonly jsonrpc?: '2.0';
  readonly id: JsonRpcId;
  readonly method: string;
  readonly params?: unknown;
}

/** A notification: has `method` and no `id`. */
export interface JsonRpcNotification {
  readonly jsonrpc?: '2.0';
  readonly method: string;
  readonly params?: unknown;
}

/** The `error` member of an error response. */
export interface JsonRpcErrorObject {
  readonly code: number;
  readonly message: string;
  readonly data?: unknown;
}

/** A response carrying `result`. */
export interface JsonRpcSuccessResponse {
  readonly jsonrpc?: '2.0';
  readonly id: JsonRpcId;
  readonly result: unknown;
}

/** A response carrying `error`. */
export interface JsonRpcErrorResponse {
  readonly jsonrpc?: '2.0';
  readonly id: JsonRpcId;
  readonly error: JsonRpcErrorObject;
}

/** Why a parsed JSON value is not a message of this protocol. */
export type MalformedReason =
  'batch-unsupported' | 'not-an-object' | 'invalid-id' | 'invalid-message';

/** What a parsed JSON value turned out to be. */
export type ClassifiedMessage =
  | { readonly kind: 'request'; readonly message: JsonRpcRequest }
  | { readonly kind: 'notification'; readonly message: JsonRpcNotification }
  | { readonly kind: 'success'; readonly message: JsonRpcSuccessResponse }
  | { readonly kind: 'error'; readonly message: JsonRpcErrorResponse }
  | MalformedMessage;

/** A value that is not a message, with the reason and whatever could be salvaged for a report. */
export interface MalformedMessage {
  readonly kind: 'malformed';
  readonly reason: MalformedReason;
  readonly detail: string;
  readonly id?: JsonRpcId;
  readonly method?: string;
}

/** A JSON object as `JSON.parse` produces it. */
type JsonObject = { readonly [key: string]: unknown };

/**
 * Classifies a value produced by `JSON.parse` (the framing rules of the IDL's `meta.description` and `diagnostics`).
 *
 * Members are tested with `!== undefined` rather than `Object.hasOwn`: JSON
 * cannot express `undefined`, and none of the members looked at here exists on
 * `Object.prototype`, so the cheaper test gives the same answer.
 */
export function classifyMessage(value: unknown): ClassifiedMessage {
  if (Array.isArray(value)) return malformed('batch-unsupported', WireMessage.BatchUnsupported);
  if (!isJsonObject(value)) {
    return malformed(
      'not-an-object',
      formatMessage(WireMessage.NotAnObject, { value: describe(value) }),
    );
  }
  const { id, method, jsonrpc } = value;
  if (id !== undefined && !isJsonRpcId(id)) {
    const message = formatMessage(WireMessage.InvalidId, { value: describe(id) });
    return malformed('invalid-id', message, value);
  }
  if (jsonrpc !== undefined && jsonrpc !== '2.0') {
    return malformed('invalid-message', WireMessage.JsonrpcNotTwo, value);
  }
  if (method !== undefined) {
    if (typeof method !== 'string') {
      const message = formatMessage(WireMessage.MethodNotString, { value: describe(method) });
      return malformed('invalid-message', message, value);
    }
    return id === undefined
      ? { kind: 'notification', message: value as unknown as JsonRpcNotification }
      : { kind: 'request', message: value as unknown as JsonRpcRequest };
  }
  if (id === undefined) return malformed('invalid-message', WireMessage.NeitherIdNorMethod);
  return classifyResponse(value);
}

function classifyResponse(value: JsonObject): ClassifiedMessage {
  const hasResult = value.result !== undefined;
  const hasError = value.error !== undefined;
  if (hasResult === hasError) {
    return malformed('invalid-message', WireMessage.ResultXorError, value);
  }
  if (hasResult) return { kind: 'success', message: value as unknown as JsonRpcSuccessResponse };
  if (!isJsonRpcErrorObject(value.error)) {
    return malformed('invalid-message', WireMessage.ErrorObjectInvalid, value);
  }
  return { kind: 'error', message: value as unknown as JsonRpcErrorResponse };
}

/**
 * True for a string or a number within ±`MAX_SAFE_INTEGER`: beyond it the id could not be echoed
 * exactly (`9007199254740993` parses to …992, `1e400` to `Infinity`).
 */
export function isJsonRpcId(value: unknown): value is JsonRpcId {
  return typeof value === 'string' || isSafeNumber(value);
}

/** True for an `error` member with a safe-integer `code` and a string `message`. */
export function isJsonRpcErrorObject(value: unknown): value is JsonRpcErrorObject {
  return (
    isJsonObject(value) &&
    Number.isInteger(value.code) &&
    isSafeNumber(value.code) &&
    typeof value.message === 'string'
  );
}

/** A number of the protocol's range, ±`MAX_SAFE_INTEGER` (`NaN` and infinities are not). */
function isSafeNumber(value: unknown): value is number {
  return typeof value === 'number' && Math.abs(value) <= MAX_SAFE_INTEGER;
}

/** True for a JSON object (not an array, not `null`). */
export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function malformed(reason: MalformedReason, detail: string, value?: JsonObject): MalformedMessage {
  const id = value?.id;
  const method = value?.method;
  return {
    kind: 'malformed',
    reason,
    detail,
    ...(isJsonRpcId(id) ? { id } : {}),
    ...(typeof method === 'string' ? { method } : {}),
  };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number' && !isSafeNumber(value)) return 'a number out of range';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
