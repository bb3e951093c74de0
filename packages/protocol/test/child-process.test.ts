import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { Readable, Writable } from 'node:stream';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { ErrorCode, JsonRpcLineTransport, TransportClosedError } from '../src/index.js';
import { MAX_NESTING_DEPTH } from '../src/gen/constants.gen.js';
import type { TransportDiagnostic } from '../src/index.js';
import { gc } from './helpers/gc.js';
import { budgetMs } from './helpers/time-budget.js';
import { recordUnhandledRejections } from './helpers/unhandled.js';

const PEER = fileURLToPath(new URL('./fixtures/ndjson-peer.mjs', import.meta.url));

type Peer = ChildProcessByStdio<Writable, Readable, Readable>;

interface Connection {
  readonly child: Peer;
  readonly transport: JsonRpcLineTransport;
  readonly diagnostics: TransportDiagnostic[];
  readonly exited: Promise<number | null>;
}

const children: Peer[] = [];

function connect(...args: string[]): Connection {
  const child = spawn(process.execPath, [PEER, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  child.stderr.resume();
  const exited = once(child, 'exit').then(([code]) => code as number | null);
  const diagnostics: TransportDiagnostic[] = [];
  const transport = new JsonRpcLineTransport({
    input: child.stdout,
    output: child.stdin,
    onDiagnostic: (diagnostic) => diagnostics.push(diagnostic),
  });
  return { child, transport, diagnostics, exited };
}

function nextNotification(transport: JsonRpcLineTransport, method: string): Promise<unknown> {
  return new Promise((resolve) => {
    const dispose = transport.onNotification(method, (params) => {
      dispose();
      resolve(params);
    });
  });
}

const unhandled = recordUnhandledRejections();

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

describe('JsonRpcLineTransport over real pipes', () => {
  test('answers requests through a child process', async () => {
    const { child, transport, exited } = connect('echo');
    transport.start();
    await expect(transport.request('echo', { text: 'héllo 🎉' })).resolves.toEqual({
      text: 'héllo 🎉',
    });
    await expect(transport.request('echo')).resolves.toBeNull();
    child.stdin.end();
    expect(await exited).toBe(0);
    await expect(transport.closed).resolves.toMatchObject({ reason: 'input-ended' });
  });

  test('rejects a pending request at once when the peer exits mid-request', async () => {
    const { transport, exited } = connect('exit-on-request');
    transport.start();
    const started = performance.now();
    const error: unknown = await transport
      .request('initialize', {}, { timeoutMs: budgetMs(10_000) })
      .catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(TransportClosedError);
    expect(error).toMatchObject({ reason: 'input-ended' });
    expect(performance.now() - started).toBeLessThan(budgetMs(3000));
    expect(await exited).toBe(3);
  });

  test('reports a frame cut short by the peer exiting, and rejects the pending request', async () => {
    const { transport, diagnostics, exited } = connect('truncate-on-request');
    transport.start();
    const request = transport.request('initialize', {});
    await expect(request).rejects.toMatchObject({ reason: 'input-ended' });
    expect(diagnostics).toEqual([
      expect.objectContaining({
        reason: 'truncated-frame',
        line: 1,
        bytes: '{"jsonrpc":"2.0","id":1,"res'.length,
      }),
    ]);
    expect(await exited).toBe(0);
  });

  test('rejects pending requests without crashing when writing hits EPIPE', async () => {
    const { transport, child } = connect('close-stdin');
    const ready = nextNotification(transport, 'ready');
    transport.start();
    await ready;
    // The peer's stdin is closed: a write gets EPIPE, the first one or a later one.
    const requests = Array.from({ length: 20 }, (_, index) =>
      transport.request('echo', { index }).catch((reason: unknown) => reason),
    );
    const errors = await Promise.all(requests);
    for (const error of errors) {
      expect(error).toBeInstanceOf(TransportClosedError);
      expect(error).toMatchObject({ reason: 'output-error' });
    }
    const closedBy = await transport.closed;
    expect((closedBy.cause as NodeJS.ErrnoException).code).toBe('EPIPE');
    expect(child.exitCode).toBeNull(); // the peer is still alive: it was the write that failed
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(unhandled).toEqual([]);
  });

  test('survives a peer that exits while requests are being written', async () => {
    const { transport, exited } = connect('exit-after-ready');
    const ready = nextNotification(transport, 'ready');
    transport.start();
    await ready;
    const requests: Promise<unknown>[] = [];
    // Keep writing until the transport notices, whichever way it learns first.
    while (transport.state === 'open' && requests.length < 10_000) {
      requests.push(
        transport.request('echo', { n: requests.length }).catch((reason: unknown) => reason),
      );
      await new Promise((resolve) => setImmediate(resolve));
    }
    const errors = await Promise.all(requests);
    expect(errors.every((error) => error instanceof TransportClosedError)).toBe(true);
    expect(await exited).toBe(0);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(unhandled).toEqual([]);
  });

  test(
    'receives 100,000 notifications in a burst complete and in order with bounded memory',
    async () => {
      const count = 100_000;
      const { transport, diagnostics, exited } = connect('burst', String(count));
      let received = 0;
      let outOfOrder = 0;
      gc();
      const baseline = process.memoryUsage().heapUsed;
      let peakGrowth = 0;
      transport.onNotification('session.event', (params) => {
        const { event } = params as { event: { seq: number } };
        if (event.seq !== received) outOfOrder += 1;
        received += 1;
        if (received % 20_000 === 0) {
          gc();
          peakGrowth = Math.max(peakGrowth, process.memoryUsage().heapUsed - baseline);
        }
      });
      transport.start();
      await transport.closed;
      expect(await exited).toBe(0);
      expect(received).toBe(count);
      expect(outOfOrder).toBe(0);
      expect(diagnostics).toEqual([]);
      // ~14 MB of frames went through; nothing of them may stay behind.
      expect(peakGrowth).toBeLessThan(8 * 1024 * 1024);
    },
    budgetMs(30_000),
  );

  test(
    'makes writes wait for a slow reader and keeps the buffered bytes bounded',
    async () => {
      const { child, transport, exited } = connect('slow-reader');
      const ready = nextNotification(transport, 'ready');
      const done = nextNotification(transport, 'done');
      transport.start();
      await ready;
      const total = 2000;
      const padding = 'x'.repeat(1000);
      let written = 0;
      let peakBuffered = 0;
      const producer = (async () => {
        for (let seq = 0; seq < total; seq += 1) {
          await transport.notify('line', { seq, padding });
          written += 1;
          peakBuffered = Math.max(peakBuffered, child.stdin.writableLength);
        }
      })();
      // ~2 MB cannot fit into a pipe nobody reads: the producer must be held back.
      await vi.waitFor(async () => {
        const before = written;
        await new Promise((resolve) => setTimeout(resolve, 100));
        expect(written).toBe(before);
      });
      expect(written).toBeGreaterThan(0);
      expect(written).toBeLessThan(total);
      expect(child.stdin.writableLength).toBeLessThanOrEqual(
        child.stdin.writableHighWaterMark + 2048,
      );

      child.kill('SIGUSR1'); // the peer starts reading
      await producer;
      expect(written).toBe(total);
      expect(peakBuffered).toBeLessThanOrEqual(child.stdin.writableHighWaterMark + 2048);
      child.stdin.end();
      await expect(done).resolves.toEqual({ received: total, isInOrder: true });
      expect(await exited).toBe(0);
    },
    budgetMs(30_000),
  );
});

describe('JsonRpcLineTransport answers whatever a handler returns, over real pipes', () => {
  test(
    'a result it cannot send and a request nested too deep are answered; it stays open',
    async () => {
      let stackBreaker: unknown = null;
      for (let i = 0; i < 20_000; i += 1) stackBreaker = [stackBreaker];
      let tooDeep: unknown = 'leaf';
      for (let i = 0; i < MAX_NESTING_DEPTH; i += 1) tooDeep = [tooDeep];
      const script = [
        { id: 1, method: 'stackBreaker/sync' },
        { id: 2, method: 'stackBreaker/async' },
        { id: 3, method: 'tooDeep/sync' },
        { id: 4, method: 'tooDeep/async' },
        { id: 5, method: 'echo', depth: 100_000 },
        { id: 6, method: 'echo', depth: MAX_NESTING_DEPTH },
      ];
      const { child, transport, diagnostics, exited } = connect('ask', '0', JSON.stringify(script));
      for (const [name, result] of Object.entries({ stackBreaker, tooDeep })) {
        transport.onRequest(`${name}/sync`, () => result);
        transport.onRequest(`${name}/async`, async () => {
          await new Promise((resolve) => setTimeout(resolve, 1));
          return result;
        });
      }
      let echoed: unknown;
      transport.onRequest('echo', (params) => {
        echoed = params;
        return 'echoed';
      });
      const answers = nextNotification(transport, 'answers');
      transport.start();
      const byId = new Map(
        ((await answers) as { id: number; error?: { code: number; message: string } }[]).map(
          (answer) => [answer.id, answer],
        ),
      );
      expect([...byId.keys()].sort()).toEqual([1, 2, 3, 4, 5, 6]);
      for (const id of [1, 2, 3, 4])
        expect(byId.get(id)?.error?.code).toBe(ErrorCode.InternalError);
      expect(byId.get(3)?.error?.message).toBe(
        `cannot send a message nested deeper than ${MAX_NESTING_DEPTH} levels`,
      );
      expect(byId.get(5)).toEqual({
        jsonrpc: '2.0',
        id: 5,
        error: {
          code: ErrorCode.InvalidRequest,
          message: `Invalid request: the frame is nested deeper than ${MAX_NESTING_DEPTH} levels`,
        },
      });
      expect(byId.get(6)).toEqual({ jsonrpc: '2.0', id: 6, result: 'echoed' });
      expect(JSON.stringify(echoed)).toBe(
        '['.repeat(MAX_NESTING_DEPTH - 1) + ']'.repeat(MAX_NESTING_DEPTH - 1),
      );
      expect(diagnostics.map((d) => [d.reason, d.id])).toEqual([['nesting-too-deep', 5]]);
      expect(transport.state).toBe('open');
      expect(await exited).toBe(0);
      child.stdin.end();
      await expect(transport.closed).resolves.toMatchObject({ reason: 'input-ended' });
      expect(unhandled).toEqual([]);
    },
    budgetMs(30_000),
  );
});
