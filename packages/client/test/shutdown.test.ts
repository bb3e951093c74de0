import { afterEach, describe, expect, test } from 'vitest';
import { ClientClosedError, RuntimeExitedError } from '../src/index.js';
import { fakeRuntime, startClient, stopClients } from './helpers/clients.js';
import { budgetMs } from './helpers/time-budget.js';

afterEach(stopClients);

const STEP_MS = 300;
/** Four bounded steps and some slack for process start and exit. */
const LADDER_BOUND_MS = 4 * STEP_MS + budgetMs(3000);

describe('the shutdown ladder', () => {
  test('ends at the shutdown request against the reference runtime, which exits 0', async () => {
    const client = await startClient();
    const report = await client.shutdown({ timeoutMs: 2000 });
    expect(report).toMatchObject({
      endedBy: 'shutdown-request',
      hasExited: true,
      exitCode: 0,
      signal: null,
    });
    expect(report.steps).toEqual([
      { step: 'shutdown-request', outcome: 'answered, exited', elapsedMs: expect.any(Number) },
    ]);
    await expect(client.shutdown()).resolves.toBe(report);
  });

  test('closes stdin when shutdown is not answered', async () => {
    const client = await startClient({ command: fakeRuntime('exits-on-stdin-end') });
    const report = await client.shutdown({ timeoutMs: STEP_MS });
    expect(report).toMatchObject({ endedBy: 'close-stdin', exitCode: 0 });
    expect(report.steps.map((step) => step.outcome)).toEqual([
      expect.stringMatching(
        /^not answered \(request \d+ \(shutdown\) got no response within 300 ms\)$/,
      ),
      'exited',
    ]);
  });

  test('sends SIGTERM to a runtime that ignores shutdown and stdin closing', async () => {
    const client = await startClient({ command: fakeRuntime('dies-on-sigterm') });
    const report = await client.shutdown({ timeoutMs: STEP_MS });
    expect(report).toMatchObject({ endedBy: 'sigterm', exitCode: null, signal: 'SIGTERM' });
    expect(report.steps.map((step) => step.step)).toEqual([
      'shutdown-request',
      'close-stdin',
      'sigterm',
    ]);
  });

  test('escalates to SIGKILL within its bounds when the runtime ignores everything else', async () => {
    const client = await startClient({ command: fakeRuntime('stubborn') });
    const report = await client.shutdown({ timeoutMs: STEP_MS });
    expect(report).toMatchObject({ endedBy: 'sigkill', hasExited: true, signal: 'SIGKILL' });
    expect(
      report.steps.map((step) => `${step.step}: ${step.outcome.replace(/ \(.*\)/, '')}`),
    ).toEqual([
      'shutdown-request: not answered',
      'close-stdin: still running',
      'sigterm: still running',
      'sigkill: exited',
    ]);
    expect(report.elapsedMs).toBeLessThan(LADDER_BOUND_MS);
    expect(client.stderrTail()).toContain('ignoring SIGTERM');
  });

  test('fails the runs still going with ClientClosedError when the client shuts down', async () => {
    const client = await startClient({ env: { DSH_SDK_RUNTIME_CHUNK_DELAY_MS: '100' } });
    const run = client.run('x'.repeat(100));
    await new Promise((resolve) => setTimeout(resolve, 150));
    await expect(client.shutdown()).resolves.toMatchObject({
      endedBy: 'shutdown-request',
      exitCode: 0,
    });
    const error: unknown = await run.catch((reason: unknown) => reason);
    // The client ended the run; the runtime's clean exit is kept as the cause.
    expect(error).toBeInstanceOf(ClientClosedError);
    expect((error as Error).cause).toBeInstanceOf(RuntimeExitedError);
    expect((error as Error).cause).toMatchObject({ exitCode: 0 });
    await expect(client.run('after')).rejects.toBeInstanceOf(ClientClosedError);
  });
});
