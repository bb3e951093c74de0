import { RequestTimeoutError } from '@dsh-sdk/protocol';
import { afterEach, describe, expect, test } from 'vitest';
import { HarnessClient, RunAbortedError, RunTimeoutError } from '../src/index.js';
import { REFERENCE_RUNTIME_LAUNCHER } from '../src/runtime-launcher.js';
import { ROUTE, fakeRuntime, startClient, stopClients } from './helpers/clients.js';
import { budgetMs } from './helpers/time-budget.js';

afterEach(stopClients);

/** Slow chunks: a turn of a 60-character prompt lasts about a second. */
const SLOW = { DSH_SDK_RUNTIME_CHUNK_DELAY_MS: '200' };

describe('timeouts', () => {
  test('fails spawn when initialize is not answered in time, and stops the runtime', async () => {
    const started = performance.now();
    let stderr = '';
    const error: unknown = await HarnessClient.spawn({
      command: fakeRuntime('silent'),
      initialize: ROUTE,
      initializeTimeoutMs: 200,
      onStderr: (text) => (stderr += text),
    }).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error).toMatchObject({ method: 'initialize', timeoutMs: 200 });
    // The failed start climbed the ladder (1 s steps at most): nothing was left to hang.
    expect(performance.now() - started).toBeLessThan(budgetMs(5000));
    expect(stderr).toBe('');
  });

  test('fails a prompt that is not answered within requestTimeoutMs', async () => {
    const client = await startClient({
      command: fakeRuntime('no-prompt-answer'),
      requestTimeoutMs: 200,
    });
    const error: unknown = await client.run('anyone?').catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(RequestTimeoutError);
    expect(error).toMatchObject({ method: 'session/prompt', timeoutMs: 200 });
    await expect(
      client.prompt(
        { sessionId: 's', contentBlocks: [{ type: 'text', text: 'x' }] },
        { timeoutMs: 50 },
      ),
    ).rejects.toBeInstanceOf(RequestTimeoutError);
  });

  test('fails a run whose receipt never comes with RunTimeoutError', async () => {
    const client = await startClient({ command: fakeRuntime('no-receipt') });
    const error: unknown = await client
      .run('hello', { sessionId: 'nr', timeoutMs: 200 })
      .catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(RunTimeoutError);
    expect(error).toMatchObject({ sessionId: 'nr', timeoutMs: 200, stage: 'waiting-for-receipt' });
  });

  test('fails a run that does not reach idle in time, and the runtime keeps serving', async () => {
    const client = await startClient({ env: SLOW });
    const error: unknown = await client
      .run('x'.repeat(60), { sessionId: 'slow', timeoutMs: 250 })
      .catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(RunTimeoutError);
    expect(error).toMatchObject({ stage: 'waiting-for-idle' });
    // The abandoned turn goes on in the runtime; a later run on another session still works.
    await expect(client.run('next', { sessionId: 'other' })).resolves.toMatchObject({
      finalResponse: 'Echo: next',
    });
  });

  test('abandons a run when its signal aborts, on a runtime that cannot interrupt', async () => {
    // A version 1 runtime reports no sessionInterrupt: the run is only detached locally.
    const client = await startClient({
      command: [REFERENCE_RUNTIME_LAUNCHER, '--protocol-version', '1'],
      env: SLOW,
    });
    const controller = new AbortController();
    const run = client.run('x'.repeat(60), { signal: controller.signal });
    setTimeout(() => controller.abort(new Error('changed my mind')), 100);
    const error: unknown = await run.catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(RunAbortedError);
    expect((error as RunAbortedError).cause).toEqual(new Error('changed my mind'));
    const aborted = AbortSignal.abort('already');
    await expect(client.run('y', { signal: aborted })).rejects.toBeInstanceOf(RunAbortedError);
  });
});
