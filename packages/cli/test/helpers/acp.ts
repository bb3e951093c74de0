// Drives `bin/dsh-sdk acp` as an editor would: a real child process, spoken to by the official ACP
// TypeScript SDK (@agentclientprotocol/sdk), or by raw lines for what an SDK never sends.
import { spawn } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { createInterface } from 'node:readline';
import { Readable, Writable } from 'node:stream';
import { client, ndJsonStream, PROTOCOL_VERSION } from '@agentclientprotocol/sdk';
import type {
  ClientConnection,
  InitializeRequest,
  SessionNotification,
} from '@agentclientprotocol/sdk';
import { DSH_SDK } from './cli.js';

/** A running bridge: its process, its stderr so far and how it ended. */
export interface BridgeProcess {
  readonly child: ChildProcessWithoutNullStreams;
  stderr(): string;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** Starts `dsh-sdk acp <args>` with `env` added to this environment. */
export function startBridge(
  args: readonly string[],
  env: Readonly<Record<string, string>> = {},
): BridgeProcess {
  const child = spawn(DSH_SDK, ['acp', ...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdin.on('error', () => {});
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('close', (code, signal) => resolve({ code, signal })),
  );
  return { child, stderr: () => stderr, exited };
}

/** The official SDK's client on a bridge, keeping every `session/update` it received. */
export interface SdkClient {
  readonly connection: ClientConnection;
  readonly updates: SessionNotification[];
  /** The text of the `agent_message_chunk`s of `sessionId`, joined. */
  textOf(sessionId: string): string;
}

export function connectSdk(bridge: BridgeProcess): SdkClient {
  const updates: SessionNotification[] = [];
  const app = client({ name: 'dsh-sdk-acp-test' }).onNotification('session/update', (context) => {
    updates.push(context.params);
  });
  const stream = ndJsonStream(
    Writable.toWeb(bridge.child.stdin) as WritableStream<Uint8Array>,
    Readable.toWeb(bridge.child.stdout) as unknown as ReadableStream<Uint8Array>,
  );
  const connection = app.connect(stream);
  return {
    connection,
    updates,
    textOf: (sessionId) =>
      updates
        .filter(
          (n) => n.sessionId === sessionId && n.update.sessionUpdate === 'agent_message_chunk',
        )
        .map((n) => {
          const { content } = n.update as { content: { type: string; text?: string } };
          return content.type === 'text' ? (content.text ?? '') : '';
        })
        .join(''),
  };
}

/** The params of an `initialize` from the SDK's own protocol version. */
export const INITIALIZE: InitializeRequest = {
  protocolVersion: PROTOCOL_VERSION,
  clientCapabilities: {},
};

/** Raw lines to a bridge, and its answers by id: for input no SDK would send. */
export interface RawPeer {
  send(line: string): void;
  /** The response to the request `id`, once it comes. */
  response(id: number | string): Promise<Record<string, unknown>>;
  /** Every line the bridge wrote to stdout. */
  readonly lines: string[];
}

export function rawPeer(bridge: BridgeProcess): RawPeer {
  const lines: string[] = [];
  const waiting = new Map<string, (message: Record<string, unknown>) => void>();
  const arrived = new Map<string, Record<string, unknown>>();
  createInterface({ input: bridge.child.stdout }).on('line', (line) => {
    lines.push(line);
    const message = JSON.parse(line) as Record<string, unknown>;
    if (!('id' in message) || 'method' in message) return;
    const key = JSON.stringify(message['id']);
    const resolve = waiting.get(key);
    if (resolve) resolve(message);
    else arrived.set(key, message);
  });
  return {
    lines,
    send: (line) => void bridge.child.stdin.write(`${line}\n`),
    response: (id) => {
      const key = JSON.stringify(id);
      const message = arrived.get(key);
      if (message) return Promise.resolve(message);
      return new Promise((resolve) => waiting.set(key, resolve));
    },
  };
}

/** The pieces the reference runtimes cut a reply into (docs/reference-runtime.md): 16 code points. */
export function echoReply(prompt: string): string {
  return `Echo: ${prompt}`;
}
