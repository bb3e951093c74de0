// A runtime written the way `@deepseek-ai/dsh-sdk-protocol`'s README documents, as its
// `dsh-jsonrpc` plugin is: one request handler for every method, notifications sent without
// await through the `JsonRpcTransportPeer` surface, and `flush()` before exiting on `shutdown`.
// An echo agent: each prompt's reply is `Echo: ` and its text. The consumer test installs
// `@dsh-sdk/protocol` under the original's name and drives this with both SDK clients.
import {
  JsonRpcLineTransport,
  type HarnessSdkRequestMap,
  type InitializeParams,
  type InitializeResult,
  type JsonRpcTransportPeer,
  type SessionEventNotification,
  type SessionPromptParams,
  type SessionPromptResult,
} from '@deepseek-ai/dsh-sdk-protocol';

type ShutdownResult = HarnessSdkRequestMap['shutdown']['result'];

/** The protocol side of the agent, typed against the outbound surface only, as the original's is. */
class EchoServer {
  private initialized = false;
  private messages = 0;
  private readonly seq = new Map<string, number>();

  constructor(private readonly transport: JsonRpcTransportPeer) {}

  initialize(params: InitializeParams): InitializeResult {
    if (params.provider !== 'echo')
      throw new Error(`no adapter registered for "${params.provider}"`);
    this.initialized = true;
    return { serverInfo: { name: 'deepseek-harness-sdk-runtime', version: '0.0.1' } };
  }

  prompt(params: SessionPromptParams): SessionPromptResult {
    if (!this.initialized) throw new Error('SDK server is not initialized');
    const messageId = `m-${++this.messages}`;
    setImmediate(() => this.turn(params, messageId));
    return { messageId };
  }

  shutdown(): ShutdownResult {
    return {};
  }

  async handleRequest(method: string, params: Record<string, unknown>): Promise<unknown> {
    switch (method) {
      case 'initialize':
        return this.initialize(params as unknown as InitializeParams);
      case 'session/prompt':
        return this.prompt(params as unknown as SessionPromptParams);
      case 'shutdown':
        return this.shutdown();
      default:
        throw new Error(`unknown DeepSeek Harness SDK runtime method: ${method}`);
    }
  }

  /** One turn's notifications, sent without waiting for the output, as the original does. */
  private turn({ sessionId, contentBlocks }: SessionPromptParams, messageId: string): void {
    const text = contentBlocks.map((block) => ('text' in block ? block.text : '')).join('');
    const user = { id: messageId, role: 'user', content: contentBlocks, source: { kind: 'user' } };
    const reply = `Echo: ${text}`;
    const step = { turn: 0, step: 0 };
    this.transport.notify('session.status', { sessionId, status: 'running' });
    this.event(sessionId, 'agent/inbox/spliced', {
      target: 'next-turn',
      start: 0,
      inserted: [user],
    });
    this.event(sessionId, 'turn/start', { turn: 0 });
    this.event(sessionId, 'user/message', user);
    this.event(sessionId, 'step/start', step);
    for (const piece of reply.match(/.{1,8}/gs) ?? [])
      this.event(sessionId, 'assistant/chunk', { ...step, delta: { type: 'text', text: piece } });
    const message = {
      id: `${messageId}-reply`,
      role: 'assistant',
      content: [{ type: 'text', text: reply }],
    };
    this.event(sessionId, 'assistant/message', { message });
    this.event(sessionId, 'step/end', step);
    this.event(sessionId, 'turn/end', { turn: 0, reason: { kind: 'completed' } });
    this.transport.notify('session.status', { sessionId, status: 'idle' });
  }

  private event(sessionId: string, type: string, data: object): void {
    const seq = this.seq.get(sessionId) ?? 0;
    this.seq.set(sessionId, seq + 1);
    const event = { type, seq, time: Date.now(), data } as SessionEventNotification['event'];
    const payload: SessionEventNotification = { sessionId, event };
    this.transport.notify('session.event', payload);
  }
}

const transport = new JsonRpcLineTransport(process.stdin, process.stdout);
const server = new EchoServer(transport);
let exitTask: Promise<void> | undefined;
const flushAndExit = (): Promise<void> =>
  (exitTask ??= (async () => {
    await Promise.allSettled([transport.flush()]);
    process.exit(0);
  })());

transport.onRequest(async (method, params) => {
  const result = await server.handleRequest(method, params);
  // After the result is written: flush it, then exit, as the original plugin does.
  if (method === 'shutdown') setImmediate(() => void flushAndExit());
  return result;
});
process.stdin.once('end', () => void flushAndExit());
transport.start();
