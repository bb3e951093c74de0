// Runs the conversations of test-vectors/exchanges/ with a scripted peer against the generated
// client end and the generated server end (test-vectors/README.md, "exchanges").
import { isDeepStrictEqual } from 'node:util';
import { JsonRpcResponseError } from '../../src/errors.js';
import { METHODS } from '../../src/gen/methods.gen.js';
import { validateProtocolFrame } from '../../src/gen/validators.gen.js';
import {
  answerWith,
  callClient,
  notifyFromServer,
  settleUntil,
  startClientEnd,
  startServerEnd,
  track,
} from './vector-ends.js';
import type { Delivered, Tracked } from './vector-ends.js';
import { matchPattern, resolvePattern } from './vector-patterns.js';
import type { Bindings, MatchResult } from './vector-patterns.js';
import {
  frameDefinition,
  frameKind,
  isJsonObject,
  methodByWireName,
  readNdjson,
  validateWithBundle,
} from './vectors.js';
import type { IdlMethod, JsonObject } from './vectors.js';

export interface Envelope {
  readonly from: 'client' | 'server';
  readonly message: JsonObject;
  readonly ifOpen?: boolean;
}

export interface ExchangeExpectation {
  readonly description: string;
  readonly runtime?: boolean;
  readonly ignoreNotifications?: boolean;
  /**
   * The older protocol version the server plays: the reference runtimes run with
   * `--protocol-version N`, the scripted server end is served through `playingVersion`, and
   * client messages are checked as such a server reads them (members introduced later unknown).
   */
  readonly serverProtocolVersion?: number;
  /** `DSH_SDK_RUNTIME_CHUNK_DELAY_MS` for the reference runtimes: turns long enough to interrupt. */
  readonly chunkDelayMs?: number;
}

interface Group {
  readonly from: 'client' | 'server';
  readonly envelopes: readonly Envelope[];
}

const json = (value: unknown): string => JSON.stringify(value);
const idKey = (id: unknown): string => JSON.stringify(id);

/** Reads an exchange, checking that every line is a well-formed envelope. */
export function readEnvelopes(path: string): Envelope[] {
  return readNdjson(path).map(({ value }, index) => {
    const at = `line ${index + 1}`;
    if (!isJsonObject(value)) throw new Error(`${at}: an envelope is an object`);
    const extra = Object.keys(value).filter((k) => !['from', 'message', 'ifOpen'].includes(k));
    if (extra.length > 0) throw new Error(`${at}: unknown envelope members ${json(extra)}`);
    const { from, message, ifOpen } = value;
    if (from !== 'client' && from !== 'server') throw new Error(`${at}: from is client or server`);
    if (!isJsonObject(message)) throw new Error(`${at}: message is an object`);
    if (ifOpen !== undefined && (ifOpen !== true || from !== 'server')) {
      throw new Error(`${at}: ifOpen is only true, and only on server messages`);
    }
    return { from, message, ...(ifOpen === true ? { ifOpen } : {}) };
  });
}

function groupsOf(envelopes: readonly Envelope[]): Group[] {
  const groups: { from: Envelope['from']; envelopes: Envelope[] }[] = [];
  for (const envelope of envelopes) {
    const last = groups.at(-1);
    if (last?.from === envelope.from) last.envelopes.push(envelope);
    else groups.push({ from: envelope.from, envelopes: [envelope] });
  }
  return groups;
}

/**
 * Matches what one side wrote against a group: requests and notifications in the listed order,
 * responses anywhere; with `ignoreNotifications`, unlisted notifications are skipped.
 */
export function matchGroup(
  expected: readonly Envelope[],
  actual: readonly unknown[],
  bindings: Bindings,
  ignoreNotifications: boolean,
): MatchResult {
  let current = bindings;
  const ordered = expected.filter((e) => frameKind(e.message) !== 'response');
  const responses = expected.filter((e) => frameKind(e.message) === 'response');
  let next = 0;
  for (const frame of actual) {
    if (!isJsonObject(frame)) return { isMatch: false, reason: `not an object: ${json(frame)}` };
    if (frameKind(frame) === 'response') {
      const matches = responses.map((e) => matchPattern(e.message, frame, current));
      const index = matches.findIndex((m) => m.isMatch);
      const found = matches[index];
      if (!found?.isMatch) return { isMatch: false, reason: `unexpected response ${json(frame)}` };
      current = found.bindings;
      responses.splice(index, 1);
      continue;
    }
    const wanted = ordered[next];
    const result = wanted ? matchPattern(wanted.message, frame, current) : undefined;
    if (result?.isMatch) {
      current = result.bindings;
      next += 1;
    } else if (!(ignoreNotifications && frameKind(frame) === 'notification')) {
      const why = result && !result.isMatch ? `: ${result.reason}` : '';
      return { isMatch: false, reason: `unexpected ${json(frame)}${why}` };
    }
  }
  const missing = [...ordered.slice(next), ...responses].map((e) => json(e.message));
  if (missing.length > 0) return { isMatch: false, reason: `missing ${missing.join(', ')}` };
  return { isMatch: true, bindings: current };
}

/**
 * The generated client end against a scripted server: the client sends each client message,
 * the script answers, and every response and notification must reach the application.
 */
export async function runAgainstClientEnd(envelopes: readonly Envelope[]): Promise<string[]> {
  const failures: string[] = [];
  const end = startClientEnd();
  let bindings = new Map<string, unknown>();
  const calls = new Map<string, Tracked>();
  let written = 0;
  for (const group of groupsOf(envelopes)) {
    if (group.from === 'client') {
      const tracked = group.envelopes.map(({ message }) => {
        const params =
          'params' in message ? resolvePattern(message['params'], bindings) : undefined;
        return track(callClient(end, String(message['method']), params));
      });
      await settleUntil(() => end.sent.length >= written + tracked.length);
      const frames = end.sent.slice(written);
      written = end.sent.length;
      const result = matchGroup(group.envelopes, frames, bindings, false);
      if (!result.isMatch) {
        failures.push(`the client wrote: ${result.reason}`);
        break;
      }
      bindings = new Map(result.bindings);
      frames.forEach((frame, i) =>
        calls.set(idKey((frame as JsonObject)['id']), tracked[i] as Tracked),
      );
      continue;
    }
    const notifications: Delivered[] = [];
    const responses: JsonObject[] = [];
    for (const { message } of group.envelopes) {
      const frame = resolvePattern(message, bindings) as JsonObject;
      end.send(frame);
      if (frameKind(frame) === 'response') responses.push(frame);
      else notifications.push({ method: String(frame['method']), params: frame['params'] });
    }
    const isDone = (): boolean =>
      end.delivered.length >= notifications.length &&
      responses.every((r) => calls.get(idKey(r['id']))?.isSettled !== false);
    await settleUntil(isDone);
    const delivered = end.delivered.splice(0);
    if (!isDeepStrictEqual(delivered, notifications)) {
      failures.push(`subscribers got ${json(delivered)}, the script sent ${json(notifications)}`);
    }
    for (const response of responses) failures.push(...checkSettled(response, calls));
  }
  if (end.diagnostics.length > 0) failures.push(`diagnostics: ${json(end.diagnostics)}`);
  end.transport.close();
  return failures;
}

function checkSettled(response: JsonObject, calls: ReadonlyMap<string, Tracked>): string[] {
  const call = calls.get(idKey(response['id']));
  const what = `the call with id ${json(response['id'])}`;
  if (!call) return [`${what} was never made`];
  if (!call.isSettled) return [`${what} did not settle`];
  if ('result' in response) {
    if ('error' in call) return [`${what} rejected: ${String(call.error)}`];
    return isDeepStrictEqual(call.value, response['result'])
      ? []
      : [`${what} resolved with ${json(call.value)}, sent ${json(response['result'])}`];
  }
  const error = call.error;
  if (!(error instanceof JsonRpcResponseError)) return [`${what} did not reject with the error`];
  return isDeepStrictEqual(error.toErrorObject(), response['error'])
    ? []
    : [`${what} rejected with ${json(error.toErrorObject())}, sent ${json(response['error'])}`];
}

/**
 * The generated server end against a scripted client: handlers answer from the script, and what
 * the server end writes must match each server group.
 */
export async function runAgainstServerEnd(
  envelopes: readonly Envelope[],
  expectation: ExchangeExpectation,
): Promise<string[]> {
  const failures: string[] = [];
  const bindings = new Map<string, unknown>();
  const notified = new Set<Envelope>();
  let current: readonly Envelope[] = [];
  const end = startServerEnd(async (wireName, params, context) => {
    failures.push(...refuseInvalidParams(wireName, params, context.id));
    const responses = current.filter((e) => frameKind(e.message) === 'response');
    const mine = responses.find((e) =>
      isDeepStrictEqual(resolvePattern(e.message['id'], bindings), context.id),
    );
    if (!mine) {
      failures.push(`no scripted response for ${wireName} ${json(context.id)}`);
      throw new Error('unscripted request');
    }
    const stop = mine === responses.at(-1) ? current.length : current.indexOf(mine);
    for (const envelope of current.slice(0, stop)) {
      if (frameKind(envelope.message) !== 'notification' || notified.has(envelope)) continue;
      notified.add(envelope);
      const frame = resolvePattern(envelope.message, bindings) as JsonObject;
      await notifyFromServer(end, String(frame['method']), frame['params']);
    }
    return answerWith(resolvePattern(mine.message, bindings) as JsonObject);
  }, expectation.serverProtocolVersion);
  let written = 0;
  const groups = groupsOf(envelopes);
  for (const [index, group] of groups.entries()) {
    if (group.from === 'client') {
      const next = groups[index + 1];
      current = next?.from === 'server' ? next.envelopes : [];
      for (const { message } of group.envelopes)
        end.send(resolvePattern(message, bindings) as object);
      continue;
    }
    await settleUntil(() => end.sent.length - written >= group.envelopes.length);
    const frames = end.sent.slice(written);
    written = end.sent.length;
    const ignore = expectation.ignoreNotifications === true;
    const result = matchGroup(group.envelopes, frames, bindings, ignore);
    if (!result.isMatch) {
      failures.push(`the server end wrote: ${result.reason}`);
      break;
    }
    for (const [name, value] of result.bindings) bindings.set(name, value);
  }
  await settleUntil(() => false, 2);
  if (end.sent.length > written) failures.push(`extra output ${json(end.sent.slice(written))}`);
  if (end.diagnostics.length > 0) failures.push(`diagnostics: ${json(end.diagnostics)}`);
  end.transport.close();
  return failures;
}

/** A handler that runs for params breaking the schema means the binding failed to refuse them. */
function refuseInvalidParams(wireName: string, params: unknown, id: unknown): string[] {
  const method = methodByWireName(wireName);
  if (!method) return [`a handler ran for the unknown method ${wireName}`];
  const frame = {
    jsonrpc: '2.0',
    id,
    method: wireName,
    ...(params === undefined ? {} : { params }),
  };
  const verdict = validateWithBundle(frame, frameDefinition(method, 'request'));
  if (verdict.isValid) return [];
  return [
    `the ${wireName} handler ran for params breaking the schema at ${json(verdict.pointers)}`,
  ];
}

/** A client request as a server playing `version` reads it: params members introduced later removed. */
function asReadBy(frame: JsonObject, version: number | undefined): JsonObject {
  const params = frame['params'];
  if (version === undefined || !isJsonObject(params)) return frame;
  const info = METHODS.find((m) => m.wireName === frame['method']);
  const newer = Object.entries(info?.paramsMembersSince ?? {}).filter(
    ([, since]) => since > version,
  );
  if (newer.length === 0) return frame;
  const kept = Object.fromEntries(
    Object.entries(params).filter(([name]) => !newer.some(([n]) => n === name)),
  );
  return { ...frame, params: kept };
}

/** Ids of the requests an exchange shows refused with `-32602`: their params may break the schema. */
function refusedIds(envelopes: readonly Envelope[]): Set<string> {
  const ids = new Set<string>();
  for (const { message } of envelopes) {
    const error = message['error'];
    if (isJsonObject(error) && error['code'] === -32602) ids.add(json(message['id']));
  }
  return ids;
}

/**
 * Checks that every message of a protocol method, with its placeholders resolved as a scripted
 * side would send them, is a valid frame (a request answered `-32602` excepted), and that each
 * goes the method's direction.
 */
export function checkExchangeFrames(
  envelopes: readonly Envelope[],
  serverProtocolVersion?: number,
): string[] {
  const failures: string[] = [];
  const bindings = new Map<string, unknown>();
  const requests = new Map<string, IdlMethod | undefined>();
  const refused = refusedIds(envelopes);
  for (const [index, { from, message }] of envelopes.entries()) {
    const at = `line ${index + 1}`;
    const resolved = resolvePattern(message, bindings) as JsonObject;
    const frame = from === 'client' ? asReadBy(resolved, serverProtocolVersion) : resolved;
    const kind = frameKind(frame);
    if (kind === 'request' && refused.has(json(message['id']))) {
      requests.set(idKey(frame['id']), methodByWireName(String(frame['method'])));
      continue;
    }
    let definition: string;
    if (kind === 'response') {
      if (!requests.has(idKey(frame['id']))) failures.push(`${at}: answers no earlier request`);
      const method = requests.get(idKey(frame['id']));
      if ('error' in frame) definition = 'ErrorResponseFrame';
      else if (method) definition = frameDefinition(method, 'response');
      else continue;
    } else {
      const method = methodByWireName(String(frame['method']));
      if (kind === 'request') requests.set(idKey(frame['id']), method);
      const direction = from === 'client' ? 'clientToServer' : 'serverToClient';
      if (method && method.direction !== direction) failures.push(`${at}: sent the wrong way`);
      if (!method) {
        if (kind !== 'request')
          failures.push(`${at}: ${String(frame['method'])} is no notification`);
        continue;
      }
      definition = frameDefinition(method, kind);
    }
    const verdict = validateWithBundle(frame, definition);
    if (!verdict.isValid) failures.push(`${at}: breaks ${definition} at ${json(verdict.pointers)}`);
    if (!validateProtocolFrame(frame)) failures.push(`${at}: validateProtocolFrame rejects it`);
  }
  return failures;
}
