// The generated client and server ends over in-memory streams, driven generically by the IDL's
// method names, for the vector runners.
import { JsonRpcResponseError } from '../../src/errors.js';
import { ErrorCode } from '../../src/gen/constants.gen.js';
import { HarnessSdkClientPeer, serveHarnessSdk } from '../../src/gen/peers.gen.js';
import type { HarnessSdkRequestHandlers, HarnessSdkServerPeer } from '../../src/gen/peers.gen.js';
import type { RequestContext } from '../../src/inbound-handlers.js';
import { playingVersion } from '../../src/version-gate.js';
import { createHarness, settle } from './harness.js';
import type { Harness } from './harness.js';
import { IDL, isJsonObject, methodByWireName, pascalCase } from './vectors.js';
import type { JsonObject } from './vectors.js';

type AnyFunction = (...args: unknown[]) => unknown;

/** A delivered notification, as a subscriber saw it. */
export interface Delivered {
  readonly method: string;
  readonly params: unknown;
}

/** The generated client end on a harness, subscribed to every notification of the protocol. */
export interface ClientEnd extends Harness {
  readonly client: HarnessSdkClientPeer;
  /** Every notification the subscribers received, in order. */
  readonly delivered: Delivered[];
}

export function startClientEnd(): ClientEnd {
  const harness = createHarness();
  const client = new HarnessSdkClientPeer(harness.transport);
  const delivered: Delivered[] = [];
  const peer = client as unknown as Record<string, AnyFunction>;
  for (const method of IDL.methods) {
    if (method.kind !== 'notification') continue;
    const subscribe = `on${pascalCase(method.name)}`;
    peer[subscribe]?.call(client, (params: unknown) =>
      delivered.push({ method: method.method, params }),
    );
  }
  harness.transport.start();
  return { ...harness, client, delivered };
}

/**
 * Sends a request the way an application would: the generated method for a protocol request
 * (with no params for a method that takes none), the transport's `request` for any other.
 */
export function callClient(end: ClientEnd, wireName: string, params: unknown): Promise<unknown> {
  const method = methodByWireName(wireName);
  if (!method || method.kind !== 'request') return end.transport.request(wireName, params);
  const call = (end.client as unknown as Record<string, AnyFunction>)[method.name];
  if (!call) throw new Error(`the generated client has no method ${method.name}`);
  const args = method.params === null ? [] : [params];
  return call.apply(end.client, args) as Promise<unknown>;
}

/** Answers a request: its result, or throws the error its response should carry. */
export type Answer = (wireName: string, params: unknown, context: RequestContext) => unknown;

/** The generated server end on a harness, its handlers all delegating to `answer`. */
export interface ServerEnd extends Harness {
  readonly server: HarnessSdkServerPeer;
}

/** `serverProtocolVersion`: the older version the server end plays (through `playingVersion`). */
export function startServerEnd(answer: Answer, serverProtocolVersion?: number): ServerEnd {
  const harness = createHarness();
  const handlers: Record<string, AnyFunction> = {};
  for (const method of IDL.methods) {
    if (method.kind !== 'request') continue;
    handlers[method.name] =
      method.params === null
        ? (context) => answer(method.method, undefined, context as RequestContext)
        : (params, context) => answer(method.method, params, context as RequestContext);
  }
  const transport =
    serverProtocolVersion === undefined
      ? harness.transport
      : playingVersion(harness.transport, serverProtocolVersion);
  const server = serveHarnessSdk(transport, handlers as unknown as HarnessSdkRequestHandlers);
  harness.transport.start();
  return { ...harness, server };
}

/** Sends a notification through the generated notify method of the server end. */
export function notifyFromServer(end: ServerEnd, wireName: string, params: unknown): Promise<void> {
  const method = methodByWireName(wireName);
  const notify = method
    ? (end.server as unknown as Record<string, AnyFunction>)[`notify${pascalCase(method.name)}`]
    : undefined;
  if (!notify) throw new Error(`the generated server end cannot send ${wireName}`);
  return notify.call(end.server, params) as Promise<void>;
}

/**
 * What a handler does to answer with a response frame: return the result, or throw. A `-32603`
 * without data is thrown as a plain error, so that the binding's own "handler failed" path
 * writes it; any other error is thrown as the error itself.
 */
export function answerWith(response: JsonObject): unknown {
  if ('result' in response) return response['result'];
  const error = response['error'];
  if (!isJsonObject(error)) throw new Error('vector: a response without result or error');
  const { code, message } = error as { code: number; message: string };
  if (code === ErrorCode.InternalError && !('data' in error)) throw new Error(message);
  throw new JsonRpcResponseError(code, message, 'data' in error ? { data: error['data'] } : {});
}

/** A promise's outcome, readable synchronously once settled. */
export interface Tracked {
  readonly isSettled: boolean;
  readonly value?: unknown;
  readonly error?: unknown;
}

export function track(promise: Promise<unknown>): Tracked {
  const state: { isSettled: boolean; value?: unknown; error?: unknown } = { isSettled: false };
  promise.then(
    (value) => Object.assign(state, { isSettled: true, value }),
    (error: unknown) => Object.assign(state, { isSettled: true, error }),
  );
  return state;
}

/** Lets stream events and promise callbacks run until `isDone` holds (or `rounds` pass). */
export async function settleUntil(isDone: () => boolean, rounds = 20): Promise<void> {
  for (let i = 0; i < rounds && !isDone(); i += 1) await settle();
  await settle();
}

/** Writes one raw wire line (the exact text of the vector) to a transport's input. */
export function feedLine(harness: Harness, raw: string): void {
  harness.input.write(`${raw}\n`);
}
