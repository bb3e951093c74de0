import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JsonRpcResponseError } from '@dsh-sdk/protocol';
import { afterEach, describe, expect, test } from 'vitest';
import { HarnessClient, RuntimeSpawnError, defaultRuntimeCommand } from '../src/index.js';
import { ROUTE, startClient, stopClients } from './helpers/clients.js';

afterEach(stopClients);

describe('HarnessClient.spawn', () => {
  test('starts the installed @dsh-sdk/runtime by default, from any working directory', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'dsh-sdk-cwd-'));
    try {
      // In the workspace the package is a link to packages/runtime; its bin is bin/dsh-sdk-runtime.js.
      expect(defaultRuntimeCommand()).toEqual([
        process.execPath,
        expect.stringMatching(/\/runtime\/bin\/dsh-sdk-runtime\.js$/),
      ]);
      const client = await startClient({ cwd: folder, initialize: { ...ROUTE, cwd: folder } });
      await expect(client.run('from elsewhere')).resolves.toMatchObject({
        finalResponse: 'Echo: from elsewhere',
      });
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });

  test('throws the wire error of a refused handshake, and stops the runtime', async () => {
    let stderr = '';
    const error: unknown = await HarnessClient.spawn({
      initialize: { ...ROUTE, model: 'echo-9' },
      onStderr: (text) => (stderr += text),
    }).catch((reason: unknown) => reason);
    expect(error).toBeInstanceOf(JsonRpcResponseError);
    expect(error).toMatchObject({
      code: -32602,
      data: [
        { pointer: '/model', message: 'model "echo-9" is not served by echo; served: echo-1' },
      ],
    });
    // The readable message names the violation; the wire's own stays as it came.
    expect((error as Error).message).toBe(
      'Invalid params: /model: model "echo-9" is not served by echo; served: echo-1',
    );
    expect(stderr).toBe('');
  });

  test('throws RuntimeSpawnError when the command cannot start', async () => {
    const command = ['/nonexistent/dsh-sdk-runtime'];
    const error: unknown = await HarnessClient.spawn({ command, initialize: ROUTE }).catch(
      (reason: unknown) => reason,
    );
    expect(error).toBeInstanceOf(RuntimeSpawnError);
    expect(error).toMatchObject({ command });
    expect((error as Error).message).toContain('ENOENT');
  });
});
