// Starting clients for the tests, and stopping every one of them afterwards.
import { fileURLToPath } from 'node:url';
import type { InitializeParams } from '@dsh-sdk/protocol';
import { HarnessClient } from '../../src/index.js';
import type { HarnessClientOptions, HarnessNotification } from '../../src/index.js';

export const ROUTE: InitializeParams = { cwd: '/tmp', provider: 'echo', model: 'echo-1' };

const FAKE_RUNTIME = fileURLToPath(new URL('../fixtures/fake-runtime.mjs', import.meta.url));

/** The command of a fixture runtime in `mode`. */
export function fakeRuntime(mode: string, ...args: string[]): string[] {
  return [process.execPath, FAKE_RUNTIME, mode, ...args];
}

const started: HarnessClient[] = [];

/** Spawns a client (the reference runtime unless `command` says otherwise). */
export async function startClient(
  options: Partial<HarnessClientOptions> = {},
): Promise<HarnessClient> {
  const client = await HarnessClient.spawn({ initialize: ROUTE, ...options });
  started.push(client);
  return client;
}

/** Stops every client the test started (call from afterEach). */
export async function stopClients(): Promise<void> {
  await Promise.all(started.splice(0).map((client) => client.shutdown({ timeoutMs: 500 })));
}

/** Records every notification of a client, in wire order. */
export function recordAll(client: HarnessClient): HarnessNotification[] {
  const recorded: HarnessNotification[] = [];
  client.onNotification((notification) => recorded.push(notification));
  return recorded;
}

/** The paced reference runtime: chunks 10 ms apart, so turns last a while. */
export const PACED = { DSH_SDK_RUNTIME_CHUNK_DELAY_MS: '10' };
