// One session, two recorders: the TypeScript client records its own connection while the runtime
// it talks to is `bin/dsh-sdk trace` in front of the real runtime. Both traces hold the same
// frames and findings; only the times differ.
import { join } from 'node:path';
import { HarnessClient } from '@dsh-sdk/client';
import type { TraceFrame, TraceRecord } from '@dsh-sdk/protocol';
import { describe, expect, test } from 'vitest';
import {
  DSH_SDK,
  framesOf,
  PY_RUNTIME,
  readTraceFile,
  REPO_ROOT,
  tempDir,
  TS_RUNTIME,
} from './helpers/cli.js';
import { PYTHON } from './helpers/traces.js';
import { budgetMs } from './helpers/time-budget.js';

const NOISY_PY_RUNTIME = [PYTHON, join(REPO_ROOT, 'python/tests/fixtures/noisy_runtime.py')];

/** A frame without what depends on when it was recorded. */
function timeless(frame: TraceFrame): Omit<TraceFrame, 't' | 'latencyMs'> {
  const { t: _t, latencyMs: _latency, ...rest } = frame;
  return rest;
}

async function recordBoth(runtime: readonly string[]): Promise<[TraceRecord[], TraceRecord[]]> {
  const dir = tempDir();
  const proxyTrace = join(dir, 'proxy.trace.ndjson');
  const clientTrace = join(dir, 'client.trace.ndjson');
  const command = [DSH_SDK, 'trace', '--quiet', '--out', proxyTrace, '--', ...runtime];
  const client = await HarnessClient.spawn({
    command,
    trace: clientTrace,
    initialize: { cwd: '/work', provider: 'echo', model: 'echo-1' },
  });
  const result = await client.run('/delegate hello child', {
    sessionId: 's1',
    timeoutMs: budgetMs(20_000),
  });
  expect(result.finishReason).toBe('completed');
  expect((await client.shutdown()).hasExited).toBe(true);
  return [readTraceFile(proxyTrace), readTraceFile(clientTrace)];
}

describe.each([
  ['the TypeScript reference runtime', [TS_RUNTIME], 0],
  ['the Python reference runtime', [PY_RUNTIME], 0],
  ['a Python runtime with noise on its stdout', NOISY_PY_RUNTIME, 1],
])('a delegate session with %s', (_name, runtime, noisy) => {
  test('the client and the proxy record the same frames and findings', async () => {
    const [proxy, client] = await recordBoth(runtime);
    expect(client[0]).toMatchObject({
      recorder: '@dsh-sdk/client',
      command: [DSH_SDK, 'trace', '--quiet', '--out', expect.any(String), '--', ...runtime],
    });
    expect(proxy[0]).toMatchObject({ recorder: 'dsh-sdk trace', command: runtime });
    const frames = framesOf(client);
    expect(frames.map(timeless)).toEqual(framesOf(proxy).map(timeless));
    expect(frames.some((f) => f.method === 'subagent.started')).toBe(true);
    const invalid = frames.filter((f) => f.findings !== undefined);
    expect(invalid.length > 0).toBe(noisy === 1);
    for (const records of [proxy, client]) {
      expect(records.at(-1)).toMatchObject({ type: 'exit', exitCode: 0, findings: invalid.length });
    }
  });
});
