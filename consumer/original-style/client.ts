// A client written the way `@deepseek-ai/dsh-sdk-protocol`'s README documents: caller-owned
// streams, one notification handler for every method, an AbortSignal as a request's timeout.
// The consumer test installs `@dsh-sdk/protocol` under the original's name (an npm alias) and
// runs this against a runtime: `node client.js '["runtime", "command"]' <timeout ms>`.
// It prints what it saw as one JSON object.
import { spawn } from 'node:child_process';
import {
  JsonRpcLineTransport,
  JsonRpcResponseError,
  type InitializeParams,
  type InitializeResult,
  type SdkPromptContentBlock,
  type SessionPromptParams,
} from '@deepseek-ai/dsh-sdk-protocol';

/** Ours, as the original client has its own: told apart from the transport's errors by class. */
class RequestTimeoutError extends Error {
  override name = 'RequestTimeoutError';
}

interface Notification {
  method: string;
  params: Record<string, unknown>;
}

const [command, ...args] = JSON.parse(process.argv[2] ?? '[]') as string[];
const timeoutMs = Number(process.argv[3] ?? '10000');
if (command === undefined)
  throw new Error('usage: client.js <runtime command as JSON> [timeout ms]');

const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'inherit'] });
const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
const transport = new JsonRpcLineTransport(child.stdout, child.stdin);
const notifications: Notification[] = [];
const waiters: (() => void)[] = [];
transport.onNotification((method, params) => {
  notifications.push({ method, params });
  for (const wake of waiters.splice(0)) wake();
});
transport.start();

/** A request bounded the original client's way: the abort reason is the error it rejects with. */
async function request(method: string, params: object): Promise<unknown> {
  const abandon = new AbortController();
  const reason = new RequestTimeoutError(`${method} timed out after ${timeoutMs} ms`);
  const timer = setTimeout(() => abandon.abort(reason), timeoutMs);
  try {
    return await transport.request(method, params, abandon.signal);
  } finally {
    clearTimeout(timer);
  }
}

/** A request whose time runs out at once, before any answer can come. */
function expired(method: string): Promise<unknown> {
  const abandon = new AbortController();
  const call = transport.request(method, {}, abandon.signal);
  abandon.abort(new RequestTimeoutError(`${method} timed out`));
  return call;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

async function initialize(params: InitializeParams): Promise<InitializeResult> {
  const result = await request('initialize', { ...params });
  if (!isRecord(result) || !isRecord(result.serverInfo)) throw new Error('no server identity');
  const { name, version } = result.serverInfo;
  if (typeof name !== 'string' || typeof version !== 'string') throw new Error('bad identity');
  return { serverInfo: { name, version } };
}

async function prompt(sessionId: string, contentBlocks: SdkPromptContentBlock[]): Promise<string> {
  const params: SessionPromptParams = { sessionId, contentBlocks };
  const result = await request('session/prompt', { ...params });
  if (!isRecord(result) || typeof result.messageId !== 'string') throw new Error('no message id');
  return result.messageId;
}

async function idle(sessionId: string): Promise<void> {
  const isIdle = (n: Notification): boolean =>
    n.method === 'session.status' && n.params.sessionId === sessionId && n.params.status === 'idle';
  while (!notifications.some(isIdle)) await new Promise<void>((wake) => waiters.push(wake));
}

/** What a failed request rejected with, as the original client would look at it. */
async function failure(call: Promise<unknown>): Promise<Record<string, unknown>> {
  const error: unknown = await call.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  if (error instanceof JsonRpcResponseError) {
    const { name, code, message, data } = error;
    return { name, code, message, hasData: data !== undefined };
  }
  if (error instanceof RequestTimeoutError) return { name: error.name, message: error.message };
  return { name: error instanceof Error ? error.name : typeof error };
}

const identity = await initialize({ cwd: process.cwd(), provider: 'echo', model: 'echo-1' });
const messageId = await prompt('s-1', [{ type: 'text', text: 'Hello' }]);
await idle('s-1');
const events = notifications
  .filter((n) => n.method === 'session.event' && n.params.sessionId === 's-1')
  .map((n) => n.params.event as { type: string; data: Record<string, unknown> });
const answer = events.find((event) => event.type === 'assistant/message')?.data.message as
  { content: { type: string; text?: string }[] } | undefined;
const report = {
  serverInfo: identity.serverInfo,
  messageIdIsString: typeof messageId === 'string',
  receipt: events[0]?.type,
  answer: answer?.content.map((block) => block.text ?? '').join(''),
  invalidParams: await failure(request('session/prompt', { sessionId: 's-2' })),
  methodNotFound: await failure(request('no/such/method', {})),
  timedOut: await failure(expired('no/such/method')),
  shutdown: await request('shutdown', {}),
};
const code = await exited;
transport.close();
console.log(JSON.stringify({ ...report, exitCode: code }));
