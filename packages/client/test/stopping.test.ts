// Streaming the reply text, and stopping a run (timeout, abort) without losing what streamed:
// the reference runtime over real stdio, playing version 2 or version 1, recorded by the client's
// `trace` option to see which frames really went by.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TraceFrame, TraceRecord } from '@dsh-sdk/protocol';
import { afterEach, describe, expect, test } from 'vitest';
import { RunAbortedError, RunTimeoutError, textDeltaOf } from '../src/index.js';
import type { HarnessClient, HarnessNotification } from '../src/index.js';
import { REFERENCE_RUNTIME_LAUNCHER } from '../src/runtime-launcher.js';
import { startClient, stopClients } from './helpers/clients.js';

afterEach(stopClients);

/** 200 ms before each 16-character chunk: the reply to {@link LONG} takes about 5 s. */
const SLOW = { DSH_SDK_RUNTIME_CHUNK_DELAY_MS: '200' };
const LONG = 'Tell me everything about the sea, slowly and in many, many words. '.repeat(6);
/** Generous: the receipt comes at once, the whole reply would take seconds more. */
const TIMEOUT_MS = 1500;
const VERSION_1 = [REFERENCE_RUNTIME_LAUNCHER, '--protocol-version', '1'];

function traceFile(): string {
  return join(mkdtempSync(join(tmpdir(), 'dsh-sdk-client-stopping-')), 'trace.ndjson');
}

/** The frames of a finished trace that carry JSON. */
function framesOf(path: string): TraceFrame[] {
  const records = readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as TraceRecord);
  return records.filter((r): r is TraceFrame => r.type === 'frame' && r.json !== undefined);
}

/** The reply text the runtime streamed for `sessionId` in `frames`, in order. */
function streamedText(frames: readonly TraceFrame[], sessionId: string): string {
  return frames
    .filter((f) => f.dir === 'serverToClient' && f.kind === 'notification')
    .map((f) => textDeltaOf(f.json as HarnessNotification, sessionId) ?? '')
    .join('');
}

/** Resolves at the root session's next `idle`. */
function nextIdle(client: HarnessClient, sessionId: string): Promise<void> {
  return new Promise((resolve) => {
    const stop = client.onNotification((n) => {
      if (n.method !== 'session.status' || n.params.sessionId !== sessionId) return;
      if (n.params.status !== 'idle') return;
      stop();
      resolve();
    });
  });
}

describe('streamText', () => {
  test('yields the reply text delta by delta, and ends with the run', async () => {
    const client = await startClient({ env: { DSH_SDK_RUNTIME_CHUNK_DELAY_MS: '5' } });
    const stream = client.streamText('a reply long enough to come in several chunks');
    const deltas: string[] = [];
    for await (const delta of stream) deltas.push(delta);
    const result = await stream.result;
    expect(deltas.length).toBeGreaterThan(1);
    expect(deltas.join('')).toBe('Echo: a reply long enough to come in several chunks');
    expect(result.finalResponse).toBe(deltas.join(''));
    expect(result.partialResponse).toBe(deltas.join(''));
  });

  test("yields the root session's text only: a child's reply is not the run's text", async () => {
    const client = await startClient();
    const stream = client.streamText('/delegate the child says this', { sessionId: 'tree' });
    let text = '';
    for await (const delta of stream) text += delta;
    const result = await stream.result;
    // The parent's reply quotes the child's; the child's own deltas are not added to it.
    expect(text).toBe(result.finalResponse);
    expect(text).toBe('Delegated to tree/child1: Echo: the child says this');
    // The child did stream its own reply, to the run's notifications.
    const child = result.notifications.map((n) => textDeltaOf(n, 'tree/child1') ?? '').join('');
    expect(child).toBe('Echo: the child says this');
  });

  test('textDeltaOf takes text deltas only, not reasoning', () => {
    const chunk = (delta: object): HarnessNotification =>
      ({
        method: 'session.event',
        params: {
          sessionId: 's',
          event: { type: 'assistant/chunk', seq: 1, time: 0, data: { turn: 0, step: 0, delta } },
        },
      }) as HarnessNotification;
    expect(textDeltaOf(chunk({ type: 'text', text: 'Hi' }), 's')).toBe('Hi');
    expect(textDeltaOf(chunk({ type: 'text', text: 'Hi' }), 'other')).toBeUndefined();
    expect(textDeltaOf(chunk({ type: 'reasoning', text: 'hmm' }), 's')).toBeUndefined();
  });
});

describe('timeoutMs', () => {
  test('version 2: interrupts the turn, keeps the streamed text, and the session takes the next prompt', async () => {
    const trace = traceFile();
    const client = await startClient({ env: SLOW, trace });
    expect(client.capabilities.sessionInterrupt).toBe(true);
    const error: unknown = await client
      .run(LONG, { sessionId: 'late', timeoutMs: TIMEOUT_MS })
      .catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(RunTimeoutError);
    const timedOut = error as RunTimeoutError;
    expect(timedOut).toMatchObject({ stage: 'waiting-for-idle', wasInterrupted: true });
    expect(timedOut.message).toMatch(/session\/interrupt stopped its turn/);
    expect(`Echo: ${LONG}`.startsWith(timedOut.partialResponse)).toBe(true);
    expect(timedOut.partialResponse.length).toBeLessThan(`Echo: ${LONG}`.length);

    const next = await client.run('next', { sessionId: 'late' });
    expect(next).toMatchObject({ finalResponse: 'Echo: next', partialResponse: 'Echo: next' });
    await client.shutdown();

    const frames = framesOf(trace);
    const interrupt = frames.find((f) => f.method === 'session/interrupt');
    expect(interrupt).toMatchObject({
      dir: 'clientToServer',
      json: { params: { sessionId: 'late' } },
    });
    const answer = frames.find((f) => f.request === interrupt?.seq);
    expect(answer?.json).toMatchObject({ result: { found: true, wasRunning: true } });
    // What the run kept is exactly what the runtime streamed before it answered the interrupt.
    const before = frames.filter((f) => f.seq < (answer?.seq ?? 0));
    expect(streamedText(before, 'late')).toBe(timedOut.partialResponse);
    expect(streamedText(frames, 'late')).toBe(`${timedOut.partialResponse}Echo: next`);
  });

  test('version 1: nothing can be sent; the run is detached with its text and the turn goes on', async () => {
    const trace = traceFile();
    const client = await startClient({ command: VERSION_1, env: SLOW, trace });
    const idle = nextIdle(client, 'v1-late');
    const error: unknown = await client
      .run(LONG, { sessionId: 'v1-late', timeoutMs: TIMEOUT_MS })
      .catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(RunTimeoutError);
    const timedOut = error as RunTimeoutError;
    expect(timedOut).toMatchObject({ stage: 'waiting-for-idle', wasInterrupted: false });
    expect(`Echo: ${LONG}`.startsWith(timedOut.partialResponse)).toBe(true);
    await idle; // the runtime finished the turn the client had let go of
    await client.shutdown();
    const frames = framesOf(trace);
    expect(frames.some((f) => f.method === 'session/interrupt')).toBe(false);
    expect(streamedText(frames, 'v1-late')).toBe(`Echo: ${LONG}`);
  });
});

describe('stopping a run on its first streamed delta', () => {
  test('version 2: the run resolves interrupted, with the text streamed so far', async () => {
    const client = await startClient({ env: SLOW });
    const controller = new AbortController();
    const stream = client.streamText(LONG, { signal: controller.signal });
    const deltas: string[] = [];
    for await (const delta of stream) {
      deltas.push(delta);
      controller.abort();
    }
    const result = await stream.result;
    expect(result.finishReason).toBe('aborted');
    expect(result.finalResponse).toBe('');
    expect(result.partialResponse).toBe(deltas.join(''));
    expect(deltas.length).toBeGreaterThan(0);
    expect(`Echo: ${LONG}`.startsWith(result.partialResponse)).toBe(true);
  });

  test('version 1: the iteration throws RunAbortedError, which keeps the text streamed so far', async () => {
    const client = await startClient({ command: VERSION_1, env: SLOW });
    const controller = new AbortController();
    const stream = client.streamText(LONG, { signal: controller.signal });
    const deltas: string[] = [];
    const error: unknown = await (async () => {
      for await (const delta of stream) {
        deltas.push(delta);
        controller.abort();
      }
    })().catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(RunAbortedError);
    expect((error as RunAbortedError).partialResponse).toBe(deltas.join(''));
    expect(deltas.length).toBeGreaterThan(0);
    await expect(stream.result).rejects.toBe(error);
  });
});
