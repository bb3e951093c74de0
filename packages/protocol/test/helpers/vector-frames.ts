// Runs the frames of messages/, open-unions/ and invalid/ through the generated ends
// (test-vectors/README.md): what each end must deliver, write or refuse.
import { isDeepStrictEqual } from 'node:util';
import { JsonRpcResponseError } from '../../src/errors.js';
import { ProtocolError } from '../../src/peer-support.js';
import {
  answerWith,
  callClient,
  feedLine,
  notifyFromServer,
  settleUntil,
  startClientEnd,
  startServerEnd,
  track,
} from './vector-ends.js';
import { frameKind, isJsonObject, methodByWireName, readNdjson, typeExamples } from './vectors.js';
import type { FrameKind, IdlMethod, JsonObject } from './vectors.js';

/** One line of a vector: its exact text and the frame it holds. */
export interface FrameLine {
  readonly raw: string;
  readonly frame: JsonObject;
  readonly kind: FrameKind;
}

const json = (value: unknown): string => JSON.stringify(value);

export function readFrames(path: string): FrameLine[] {
  return readNdjson(path).map(({ raw, value }) => {
    if (!isJsonObject(value)) throw new Error(`${path}: a frame is an object`);
    return { raw, frame: value, kind: frameKind(value) };
  });
}

/** The response a file pairs with a request: the later line with the same id. */
export function responseTo(lines: readonly FrameLine[], request: FrameLine): FrameLine | undefined {
  const after = lines.slice(lines.indexOf(request) + 1);
  return after.find(
    (l) => l.kind === 'response' && isDeepStrictEqual(l.frame['id'], request.frame['id']),
  );
}

function methodOf(line: FrameLine): IdlMethod {
  const method = methodByWireName(String(line.frame['method']));
  if (!method) throw new Error(`vector: ${String(line.frame['method'])} is not a protocol method`);
  return method;
}

/** Requests reach the server end's handler with the wire params; it writes the paired response. */
export async function deliverToServerEnd(lines: readonly FrameLine[]): Promise<string[]> {
  const requests = lines.filter((l) => l.kind === 'request');
  if (requests.length === 0) return [];
  const failures: string[] = [];
  const calls: { method: string; params: unknown }[] = [];
  const end = startServerEnd((method, params, { id }) => {
    calls.push({ method, params });
    const request = requests.find((r) => isDeepStrictEqual(r.frame['id'], id));
    const response = request && responseTo(lines, request);
    if (!response) throw new Error(`vector: nothing answers id ${json(id)}`);
    return answerWith(response.frame);
  });
  for (const request of requests) feedLine(end, request.raw);
  await settleUntil(() => end.sent.length >= requests.length);
  requests.forEach((request, i) => {
    const call = calls[i];
    const method = methodOf(request);
    if (call?.method !== method.method) failures.push(`handler ${i} was ${json(call)}`);
    else if (method.params !== null && !isDeepStrictEqual(call.params, request.frame['params'])) {
      failures.push(`the ${method.method} handler got ${json(call.params)}`);
    }
  });
  if (calls.length !== requests.length) failures.push(`${calls.length} handler calls`);
  const expected = requests.map((r) => responseTo(lines, r)?.frame);
  if (!isDeepStrictEqual(end.sent, expected)) {
    failures.push(`the server end wrote ${json(end.sent)}, expected ${json(expected)}`);
  }
  if (end.diagnostics.length > 0) failures.push(`diagnostics: ${json(end.diagnostics)}`);
  end.transport.close();
  return failures;
}

/**
 * The client end: each request is sent by its generated method and settled by the paired
 * response; each notification reaches a subscriber with the wire params, nothing reported.
 */
export async function deliverToClientEnd(lines: readonly FrameLine[]): Promise<string[]> {
  const failures: string[] = [];
  const end = startClientEnd();
  for (const line of lines) {
    if (line.kind === 'response') continue;
    if (line.kind === 'notification') {
      feedLine(end, line.raw);
      await settleUntil(() => end.delivered.length > 0);
      const delivered = end.delivered.splice(0);
      const expected = [{ method: line.frame['method'], params: line.frame['params'] }];
      if (!isDeepStrictEqual(delivered, expected)) failures.push(`delivered ${json(delivered)}`);
      continue;
    }
    failures.push(...(await callAndSettle(end, lines, line)));
  }
  if (end.diagnostics.length > 0) failures.push(`diagnostics: ${json(end.diagnostics)}`);
  end.transport.close();
  return failures;
}

async function callAndSettle(
  end: ReturnType<typeof startClientEnd>,
  lines: readonly FrameLine[],
  request: FrameLine,
): Promise<string[]> {
  const method = methodOf(request);
  const before = end.sent.length;
  const call = track(callClient(end, method.method, request.frame['params']));
  await settleUntil(() => end.sent.length > before);
  const written = end.sent[before] as JsonObject | undefined;
  const failures: string[] = [];
  const takesParams = method.params !== null;
  const sameParams =
    !takesParams || isDeepStrictEqual(written?.['params'], request.frame['params']);
  if (written?.['method'] !== method.method || !sameParams) {
    failures.push(`the client wrote ${json(written)} for ${request.raw}`);
  }
  const response = responseTo(lines, request);
  if (!response || !written) return [...failures, `vector: nothing answers ${request.raw}`];
  end.send({ ...response.frame, id: written['id'] });
  await settleUntil(() => call.isSettled);
  const frame = response.frame;
  if ('result' in frame) {
    if ('error' in call || !isDeepStrictEqual(call.value, frame['result'])) {
      failures.push(`the call settled as ${json(call)}, expected result ${json(frame['result'])}`);
    }
  } else if (
    !(call.error instanceof JsonRpcResponseError) ||
    !isDeepStrictEqual(call.error.toErrorObject(), frame['error'])
  ) {
    failures.push(`the call settled as ${String(call.error)}, expected ${json(frame['error'])}`);
  }
  return failures;
}

/** Notifications sent through the generated notify methods are written as the wire frames. */
export async function sendFromServerEnd(lines: readonly FrameLine[]): Promise<string[]> {
  const notifications = lines.filter((l) => l.kind === 'notification');
  if (notifications.length === 0) return [];
  const end = startServerEnd(() => {
    throw new Error('no request expected');
  });
  for (const line of notifications) {
    await notifyFromServer(end, String(line.frame['method']), line.frame['params']);
  }
  await settleUntil(() => end.sent.length >= notifications.length);
  const expected = notifications.map((l) => l.frame);
  end.transport.close();
  return isDeepStrictEqual(end.sent, expected)
    ? []
    : [`the server end wrote ${json(end.sent)}, expected ${json(expected)}`];
}

/** What a binding reported for a frame that breaks the schema. */
export interface Refusal {
  /** The pointers of the violations it reported, if it reported any. */
  readonly pointers: string[] | undefined;
  /** Everything else that went wrong. */
  readonly failures: string[];
}

/** Runs an invalid frame through the end that must refuse it (README: "invalid"). */
export function refuseThroughBinding(line: FrameLine, method: IdlMethod): Promise<Refusal> {
  if (line.kind === 'request') return refuseRequest(line);
  if (line.kind === 'notification') return refuseNotification(line);
  return refuseResponse(line, method);
}

async function refuseRequest(line: FrameLine): Promise<Refusal> {
  const failures: string[] = [];
  let hasRun = false;
  const end = startServerEnd(() => {
    hasRun = true;
    return null;
  });
  feedLine(end, line.raw);
  await settleUntil(() => end.sent.length > 0);
  end.transport.close();
  if (hasRun) failures.push('the handler ran');
  const [response, ...extra] = end.sent as JsonObject[];
  if (!response || extra.length > 0)
    return { pointers: undefined, failures: [...failures, `wrote ${json(end.sent)}`] };
  if (!isDeepStrictEqual(response['id'], line.frame['id']))
    failures.push(`answered id ${json(response['id'])}`);
  const error = response['error'];
  if (!isJsonObject(error) || error['code'] !== -32602) {
    return { pointers: undefined, failures: [...failures, `answered ${json(response)}`] };
  }
  const data = error['data'];
  const isWellFormed =
    Array.isArray(data) &&
    data.every(
      (v) =>
        isJsonObject(v) && typeof v['pointer'] === 'string' && typeof v['message'] === 'string',
    );
  if (!isWellFormed)
    return { pointers: undefined, failures: [...failures, `data is ${json(data)}`] };
  return { pointers: data.map((v) => String((v as JsonObject)['pointer'])), failures };
}

async function refuseNotification(line: FrameLine): Promise<Refusal> {
  const end = startClientEnd();
  feedLine(end, line.raw);
  await settleUntil(() => end.diagnostics.length > 0);
  end.transport.close();
  const failures: string[] = [];
  if (end.delivered.length > 0) failures.push(`a subscriber got ${json(end.delivered)}`);
  const [report, ...extra] = end.diagnostics;
  if (!report || extra.length > 0 || report.reason !== 'invalid-notification-params') {
    return { pointers: undefined, failures: [...failures, `reported ${json(end.diagnostics)}`] };
  }
  if (report.method !== line.frame['method'])
    failures.push(`reported for ${String(report.method)}`);
  return { pointers: (report.violations ?? []).map((v) => v.pointer), failures };
}

async function refuseResponse(line: FrameLine, method: IdlMethod): Promise<Refusal> {
  const end = startClientEnd();
  const call = track(callClient(end, method.method, typeExamples(method.params)[0]));
  await settleUntil(() => end.sent.length > 0);
  const failures: string[] = [];
  const sentId = (end.sent[0] as JsonObject | undefined)?.['id'];
  if (sentId !== 1 || line.frame['id'] !== 1)
    failures.push(`ids: sent ${json(sentId)}, the vector answers ${json(line.frame['id'])}`);
  feedLine(end, line.raw);
  await settleUntil(() => call.isSettled);
  end.transport.close();
  const error = call.error;
  if (!(error instanceof ProtocolError)) {
    return {
      pointers: undefined,
      failures: [...failures, `the call settled as ${json(call)} ${String(error)}`],
    };
  }
  if (error.method !== method.method) failures.push(`the protocol error names ${error.method}`);
  return { pointers: error.violations.map((v) => v.pointer), failures };
}
