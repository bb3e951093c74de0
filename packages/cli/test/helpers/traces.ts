// Traces for the viewer's tests, recorded by bin/dsh-sdk trace from the real reference runtimes.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { HarnessSdkClientPeer, JsonRpcLineTransport } from '@dsh-sdk/protocol';
import type { SessionPromptParams } from '@dsh-sdk/protocol';
import { DSH_SDK, REPO_ROOT, runCli, tempDir } from './cli.js';

/**
 * Runs a client (the generated client peer) through the proxy: initialize, the prompts (each
 * awaited to its session's idle), shutdown. Returns the trace's path.
 */
export async function recordConversation(
  runtime: string,
  prompts: readonly SessionPromptParams[],
  name: string,
): Promise<string> {
  const trace = join(tempDir(), `${name}.trace.ndjson`);
  const child = spawn(DSH_SDK, ['trace', '--out', trace, '--', runtime], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => resolve(code)),
  );
  const peer = new HarnessSdkClientPeer(
    new JsonRpcLineTransport({ input: child.stdout, output: child.stdin }).start(),
  );
  const waiting = new Map<string, () => void>();
  peer.onSessionStatus(({ sessionId, status }) => {
    if (status === 'idle') waiting.get(sessionId)?.();
  });
  await peer.initialize({ cwd: '/work', provider: 'echo', model: 'echo-1' });
  await Promise.all(
    prompts.map(async (prompt) => {
      const idle = new Promise<void>((resolve) => waiting.set(prompt.sessionId, resolve));
      await peer.sessionPrompt(prompt);
      await idle;
    }),
  );
  await peer.shutdown();
  const code = await exited;
  if (code !== 0) throw new Error(`the proxy exited ${code}`);
  return trace;
}

/** A delegate turn: the parent's tool call, the child's whole turn, the parent's reply. */
export function recordDelegateTrace(runtime: string): Promise<string> {
  return recordConversation(
    runtime,
    [{ sessionId: 's1', contentBlocks: [{ type: 'text', text: '/delegate hello child' }] }],
    'delegate',
  );
}

/**
 * A burst: `sessions` sessions prompted at once with a text the runtime replies to in `pieces`
 * chunks each, so the trace holds about sessions × pieces frames.
 */
export function recordBurstTrace(
  runtime: string,
  sessions: number,
  pieces: number,
): Promise<string> {
  // The reply is "Echo: " + the text, cut every 16 code points.
  const text = 'x'.repeat(16 * pieces - 'Echo: '.length);
  const prompts = Array.from({ length: sessions }, (_, i) => ({
    sessionId: `burst-${i}`,
    contentBlocks: [{ type: 'text' as const, text }],
  }));
  return recordConversation(runtime, prompts, 'burst');
}

/**
 * Invalid traffic, sent raw: an initialize breaking the schema, lines that are not JSON (one that
 * would end the page's script element if embedded unescaped), a prompt
 * missing its content, then a valid conversation. Each request's answer is awaited in turn.
 */
export async function recordInvalidTrace(runtime: string): Promise<string> {
  const trace = join(tempDir(), 'invalid.trace.ndjson');
  const lines = [
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"cwd":"/w","provider":"echo","model":"echo-1","maxTokens":0}}',
    'this is not json',
    '</script><script>document.title = "escaped"</script>',
    '{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"cwd":"/w","provider":"echo","model":"echo-1"}}',
    '{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"s1"}}',
    '{"jsonrpc":"2.0","id":4,"method":"session/prompt","params":{"sessionId":"s1","contentBlocks":[{"type":"text","text":"fine"}]}}',
  ];
  let answered = 0;
  let release: () => void = () => {};
  const run = runCli(['trace', '--quiet', '--out', trace, '--', runtime], {
    keepStdinOpen: true,
    onStart: (child) => {
      const out = createInterface({ input: child.stdout! });
      out.on('line', (line) => {
        const message = JSON.parse(line) as { id?: number; params?: { status?: string } };
        if (message.id !== undefined) answered += 1;
        if (answered === 4 && message.params?.status === 'idle') release();
      });
      void (async () => {
        for (const line of lines) child.stdin!.write(`${line}\n`);
        await new Promise<void>((resolve) => (release = resolve));
        child.stdin!.end('{"jsonrpc":"2.0","id":5,"method":"shutdown"}\n');
      })();
    },
  });
  const result = await run;
  if (result.code !== 0) throw new Error(`the proxy exited ${result.code}: ${result.stderr}`);
  return trace;
}

/**
 * Six requests on the connection's lane at once: six `initialize` lines in one write, so the
 * proxy records all six before any answer (the first is answered, the others refused), then
 * `shutdown`.
 */
export async function recordOverlappingTrace(runtime: string): Promise<string> {
  const trace = join(tempDir(), 'overlapping.trace.ndjson');
  const initialize = (id: number): string =>
    `{"jsonrpc":"2.0","id":${id},"method":"initialize","params":{"cwd":"/w","provider":"echo","model":"echo-1"}}\n`;
  const result = await runCli(['trace', '--quiet', '--out', trace, '--', runtime], {
    keepStdinOpen: true,
    onStart: (child) => {
      let answered = 0;
      createInterface({ input: child.stdout! }).on('line', () => {
        answered += 1;
        if (answered === 6) child.stdin!.end('{"jsonrpc":"2.0","id":7,"method":"shutdown"}\n');
      });
      child.stdin!.write([1, 2, 3, 4, 5, 6].map(initialize).join(''));
    },
  });
  if (result.code !== 0) throw new Error(`the proxy exited ${result.code}: ${result.stderr}`);
  return trace;
}

/** Renders a trace's page with `dsh-sdk view --out`. */
export async function viewTrace(trace: string): Promise<string> {
  const html = trace.replace(/\.ndjson$/, '.html');
  const run = await runCli(['view', trace, '--out', html]);
  if (run.code !== 0) throw new Error(`dsh-sdk view failed: ${run.stderr}`);
  return html;
}

/**
 * An interrupted turn, recorded by the proxy: the runtime streams a chunk every 50 ms; once the
 * first chunk has come, `session/interrupt` stops the turn, which ends `aborted`; then
 * `session/close` disposes the session.
 */
export async function recordInterruptedTrace(runtime: string): Promise<string> {
  const trace = join(tempDir(), 'interrupted.trace.ndjson');
  const child = spawn(DSH_SDK, ['trace', '--quiet', '--out', trace, '--', runtime], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, DSH_SDK_RUNTIME_CHUNK_DELAY_MS: '50' },
  });
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => resolve(code)),
  );
  const peer = new HarnessSdkClientPeer(
    new JsonRpcLineTransport({ input: child.stdout, output: child.stdin }).start(),
  );
  let chunked: () => void = () => {};
  let idle: () => void = () => {};
  const firstChunk = new Promise<void>((resolve) => (chunked = resolve));
  const turnOver = new Promise<void>((resolve) => (idle = resolve));
  peer.onSessionEvent(({ event }) => {
    if (event.type === 'assistant/chunk') chunked();
  });
  peer.onSessionStatus(({ status }) => {
    if (status === 'idle') idle();
  });
  await peer.initialize({ cwd: '/work', provider: 'echo', model: 'echo-1', protocolVersion: 2 });
  const text = 'a reply long enough to be cut short '.repeat(8);
  await peer.sessionPrompt({ sessionId: 's1', contentBlocks: [{ type: 'text', text }] });
  await firstChunk;
  const answer = await peer.sessionInterrupt({ sessionId: 's1' });
  if (!answer.wasRunning) throw new Error('the turn was over before the interrupt');
  await turnOver;
  await peer.sessionClose({ sessionId: 's1' });
  await peer.shutdown();
  const code = await exited;
  if (code !== 0) throw new Error(`the proxy exited ${code}`);
  return trace;
}

/**
 * A session closed and prompted again, recorded by the proxy: `s1` delegates, answers a prompt,
 * is closed, and delegates once more (a new session under the same id, whose child has the id of
 * the first one's); each prompt is awaited to its session's idle.
 */
export async function recordReopenedTrace(runtime: string): Promise<string> {
  const trace = join(tempDir(), 'reopened.trace.ndjson');
  const child = spawn(DSH_SDK, ['trace', '--quiet', '--out', trace, '--', runtime], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => resolve(code)),
  );
  const peer = new HarnessSdkClientPeer(
    new JsonRpcLineTransport({ input: child.stdout, output: child.stdin }).start(),
  );
  let idle: () => void = () => {};
  peer.onSessionStatus(
    ({ sessionId, status }) => sessionId === 's1' && status === 'idle' && idle(),
  );
  const prompt = async (text: string): Promise<void> => {
    const done = new Promise<void>((resolve) => (idle = resolve));
    await peer.sessionPrompt({ sessionId: 's1', contentBlocks: [{ type: 'text', text }] });
    await done;
  };
  await peer.initialize({ cwd: '/work', provider: 'echo', model: 'echo-1', protocolVersion: 2 });
  await prompt('/delegate first');
  await prompt('second');
  await peer.sessionClose({ sessionId: 's1' });
  await prompt('/delegate third');
  await peer.shutdown();
  const code = await exited;
  if (code !== 0) throw new Error(`the proxy exited ${code}`);
  return trace;
}

/** The Python reference client's interpreter and a script run with it. */
export const PYTHON = join(REPO_ROOT, 'python/.venv/bin/python');

/**
 * A delegate turn recorded by the Python client's own `trace` option (with the Python reference
 * runtime), through the asyncio client.
 */
export async function recordPythonClientTrace(): Promise<string> {
  const trace = join(tempDir(), 'python-client.trace.ndjson');
  const script = [
    'import asyncio, sys',
    'from dsh_sdk import InitializeParams',
    'from dsh_sdk.client import HarnessClient',
    'async def main():',
    '    route = InitializeParams(cwd="/work", provider="echo", model="echo-1")',
    '    async with await HarnessClient.spawn(initialize=route, trace=sys.argv[1]) as client:',
    '        await client.run("/delegate hello child", session_id="s1", timeout=20)',
    'asyncio.run(main())',
  ].join('\n');
  const run = spawn(PYTHON, ['-c', script, trace], { stdio: ['ignore', 'inherit', 'inherit'] });
  const code = await new Promise<number | null>((resolve) => run.on('close', resolve));
  if (code !== 0) throw new Error(`the Python client exited ${code}`);
  return trace;
}
