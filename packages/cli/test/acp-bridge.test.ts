// `dsh-sdk acp -- <runtime>` driven by the official ACP TypeScript SDK as the editor, on both
// reference runtimes: the mapping of docs/acp.md through real pipes and real child processes.
import { readFileSync, realpathSync } from 'node:fs';
import { RequestError } from '@agentclientprotocol/sdk';
import type { SessionNotification } from '@agentclientprotocol/sdk';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { connectSdk, echoReply, INITIALIZE, rawPeer, startBridge } from './helpers/acp.js';
import type { BridgeProcess, SdkClient } from './helpers/acp.js';
import { FIXTURES, PY_RUNTIME, tempDir, TS_RUNTIME } from './helpers/cli.js';
import { budgetMs } from './helpers/time-budget.js';

const ROUTE = ['--provider', 'echo', '--model', 'echo-1'];
/** A 1×1 PNG. */
const PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
/** A runtime command that logs its pid and cwd to $ACP_TEST_LOG, then becomes the runtime. */
const logged = (runtime: string, ...args: string[]): string[] => [
  'sh',
  '-c',
  'echo "$$ $(pwd)" >> "$ACP_TEST_LOG"; exec "$@"',
  'runtime',
  runtime,
  ...args,
];
const started = (log: string): { pid: number; cwd: string }[] =>
  readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((line) => {
      const [pid, ...cwd] = line.split(' ');
      return { pid: Number(pid), cwd: cwd.join(' ') };
    });

describe.each([
  ['TypeScript', TS_RUNTIME],
  ['Python', PY_RUNTIME],
])('dsh-sdk acp, the official ACP SDK as the client, on the %s runtime', (_name, runtime) => {
  describe('one bridge, several sessions', () => {
    let bridge: BridgeProcess;
    let sdk: SdkClient;
    let log: string;
    const otherCwd = realpathSync(tempDir());

    beforeAll(() => {
      log = `${tempDir()}/runtimes.log`;
      // Slow enough to cancel in mid-reply, quick enough for the streamed prompts.
      bridge = startBridge([...ROUTE, '--', ...logged(runtime)], {
        ACP_TEST_LOG: log,
        DSH_SDK_RUNTIME_CHUNK_DELAY_MS: '15',
      });
      sdk = connectSdk(bridge);
    });
    afterAll(() => bridge.child.kill());

    test('initialize reports images and no loadSession; session/new gives a session', async () => {
      const result = await sdk.connection.agent.request('initialize', INITIALIZE);
      expect(result.protocolVersion).toBe(1);
      expect(result.agentCapabilities?.loadSession).toBe(false);
      expect(result.agentCapabilities?.promptCapabilities?.image).toBe(true);
      expect(result.agentInfo?.name).toBe('dsh-sdk-acp');
      const { sessionId } = await sdk.connection.agent.request('session/new', {
        cwd: process.cwd(),
        mcpServers: [],
      });
      expect(sessionId).toMatch(/^acp-/);
    });

    test('a streamed prompt: the chunks join to the runtime reply, then end_turn', async () => {
      const { sessionId } = await sdk.connection.agent.request('session/new', {
        cwd: process.cwd(),
        mcpServers: [],
      });
      const text = 'stream this reply to the editor, piece by piece';
      const answer = await sdk.connection.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text }],
      });
      expect(answer.stopReason).toBe('end_turn');
      expect(sdk.textOf(sessionId)).toBe(echoReply(text));
      const chunks = sdk.updates.filter((n) => n.sessionId === sessionId);
      expect(chunks.length).toBe(Math.ceil(echoReply(text).length / 16));
    });

    test('an image prompt reaches the runtime as an image', async () => {
      const { sessionId } = await sdk.connection.agent.request('session/new', {
        cwd: process.cwd(),
        mcpServers: [],
      });
      const answer = await sdk.connection.agent.request('session/prompt', {
        sessionId,
        prompt: [
          { type: 'text', text: 'what is this?' },
          { type: 'image', mimeType: 'image/png', data: PNG },
        ],
      });
      expect(answer.stopReason).toBe('end_turn');
      expect(sdk.textOf(sessionId)).toMatch(
        /^Echo: what is this\?\n\[image image\/png, \d+ bytes, sha256-[0-9a-f]{64}\]$/,
      );
    });

    test('two sessions at once, in two cwds: each gets only its own updates', async () => {
      const [first, second] = await Promise.all([
        sdk.connection.agent.request('session/new', { cwd: process.cwd(), mcpServers: [] }),
        sdk.connection.agent.request('session/new', { cwd: otherCwd, mcpServers: [] }),
      ]);
      const [a, b] = await Promise.all([
        sdk.connection.agent.request('session/prompt', {
          sessionId: first.sessionId,
          prompt: [{ type: 'text', text: 'the first session speaks at some length here' }],
        }),
        sdk.connection.agent.request('session/prompt', {
          sessionId: second.sessionId,
          prompt: [{ type: 'text', text: 'and the second one answers it at length too' }],
        }),
      ]);
      expect([a.stopReason, b.stopReason]).toEqual(['end_turn', 'end_turn']);
      expect(sdk.textOf(first.sessionId)).toBe(
        echoReply('the first session speaks at some length here'),
      );
      expect(sdk.textOf(second.sessionId)).toBe(
        echoReply('and the second one answers it at length too'),
      );
      // One runtime per distinct cwd, each started in its session's cwd.
      expect(started(log).map((r) => r.cwd)).toEqual([process.cwd(), otherCwd]);
    });

    test('a cancel in mid-reply: cancelled, a prefix streamed, then the session goes on', async () => {
      const { sessionId } = await sdk.connection.agent.request('session/new', {
        cwd: process.cwd(),
        mcpServers: [],
      });
      const { long, streamed } = await cancelMidReply(sdk, sessionId, 'a long reply to cut short ');
      expect(streamed.length).toBeLessThan(echoReply(long).length);
      // Nothing of the cancelled turn follows its answer.
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(sdk.textOf(sessionId)).toBe(streamed);
      const next = await sdk.connection.agent.request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'still here?' }],
      });
      expect(next.stopReason).toBe('end_turn');
      expect(sdk.textOf(sessionId)).toBe(streamed + echoReply('still here?'));
    });

    test('a prompt block the runtime cannot take is -32602 naming it', async () => {
      const { sessionId } = await sdk.connection.agent.request('session/new', {
        cwd: process.cwd(),
        mcpServers: [],
      });
      const failure = await sdk.connection.agent
        .request('session/prompt', {
          sessionId,
          prompt: [
            { type: 'text', text: 'hear this' },
            { type: 'audio', mimeType: 'audio/wav', data: 'AAAA' },
          ],
        })
        .catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(RequestError);
      expect((failure as RequestError).code).toBe(-32602);
      expect((failure as RequestError).data).toEqual([
        { pointer: '/prompt/1/type', message: expect.stringContaining('"audio"') },
      ]);
    });

    test('EOF: the runtimes are shut down and the bridge exits 0', async () => {
      bridge.child.stdin.end();
      expect(await bridge.exited).toEqual({ code: 0, signal: null });
      for (const { pid } of started(log)) expect(isAlive(pid)).toBe(false);
    });
  });

  test('raw input: invalid params get -32602 with the violations; a broken line is reported and skipped', async () => {
    const bridge = startBridge([...ROUTE, '--', runtime]);
    const raw = rawPeer(bridge);
    raw.send('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}');
    expect(await raw.response(1)).toHaveProperty('result.protocolVersion', 1);
    raw.send('this is not json');
    raw.send('{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":7}}');
    expect(await raw.response(2)).toEqual({
      jsonrpc: '2.0',
      id: 2,
      error: {
        code: -32602,
        message: 'Invalid params',
        data: [
          { pointer: '/mcpServers', message: "must have required property 'mcpServers'" },
          { pointer: '/cwd', message: 'must be string' },
        ],
      },
    });
    raw.send(
      '{"jsonrpc":"2.0","id":3,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}',
    );
    expect(await raw.response(3)).toHaveProperty('result.sessionId');
    bridge.child.stdin.end();
    expect((await bridge.exited).code).toBe(0);
    expect(bridge.stderr()).toMatch(/ignored input: invalid-json line=2 bytes=16/);
    // stdout holds ACP frames only: every line a JSON-RPC message.
    for (const line of raw.lines) expect(JSON.parse(line)).toHaveProperty('jsonrpc', '2.0');
  });

  test('EOF right behind requests: each is answered first, a prompt with its whole reply', async () => {
    const bridge = startBridge([...ROUTE, '--', runtime]);
    const raw = rawPeer(bridge);
    raw.send('{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":1}}');
    raw.send(
      '{"jsonrpc":"2.0","id":2,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}',
    );
    const { result } = (await raw.response(2)) as { result: { sessionId: string } };
    const text = 'answer this although the editor has stopped writing';
    const prompt = { sessionId: result.sessionId, prompt: [{ type: 'text', text }] };
    // The last line has no newline, and stdin ends with it.
    bridge.child.stdin.end(
      JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'session/prompt', params: prompt }),
    );
    expect(await bridge.exited).toEqual({ code: 0, signal: null });
    expect(await raw.response(1)).toHaveProperty('result.protocolVersion', 1);
    expect(await raw.response(3)).toHaveProperty('result.stopReason', 'end_turn');
    const streamed = raw.lines
      .map((line) => JSON.parse(line) as { method?: string; params?: SessionNotification })
      .filter((message) => message.method === 'session/update')
      .map(({ params }) => (params?.update as { content: { text: string } }).content.text);
    expect(streamed.join('')).toBe(echoReply(text));
  });

  test('the runtime killed in mid-turn fails the prompt at once with its exit; the bridge exits 1', async () => {
    const log = `${tempDir()}/runtimes.log`;
    const bridge = startBridge([...ROUTE, '--', ...logged(runtime)], {
      ACP_TEST_LOG: log,
      DSH_SDK_RUNTIME_CHUNK_DELAY_MS: '200',
    });
    const sdk = connectSdk(bridge);
    await sdk.connection.agent.request('initialize', INITIALIZE);
    const { sessionId } = await sdk.connection.agent.request('session/new', {
      cwd: process.cwd(),
      mcpServers: [],
    });
    const answer = sdk.connection.agent
      .request('session/prompt', {
        sessionId,
        prompt: [{ type: 'text', text: 'a long '.repeat(20) }],
      })
      .catch((error: unknown) => error);
    await expect
      .poll(() => sdk.textOf(sessionId).length, { timeout: budgetMs(5000) })
      .toBeGreaterThan(0);
    process.kill(started(log)[0]!.pid, 'SIGKILL');
    const failure = await answer;
    expect(failure).toBeInstanceOf(RequestError);
    expect((failure as RequestError).code).toBe(-32603);
    expect((failure as RequestError).message).toMatch(/the runtime was killed by SIGKILL/);
    expect((failure as RequestError).data).toMatchObject({ signal: 'SIGKILL' });
    expect((await bridge.exited).code).toBe(1);
    expect(bridge.stderr()).toMatch(/dsh-sdk acp: the runtime was killed by SIGKILL/);
  });
});

/**
 * Prompts `sessionId` with a reply long enough to cancel in mid-reply on a loaded machine, cancels
 * it after its first chunk, and checks that the prompt answered `cancelled` with a prefix of the
 * reply streamed.
 */
async function cancelMidReply(
  sdk: SdkClient,
  sessionId: string,
  phrase: string,
): Promise<{ long: string; streamed: string }> {
  const long = phrase.repeat(24);
  const answer = sdk.connection.agent.request('session/prompt', {
    sessionId,
    prompt: [{ type: 'text', text: long }],
  });
  await expect
    .poll(() => sdk.textOf(sessionId).length, { timeout: budgetMs(5000) })
    .toBeGreaterThan(0);
  await sdk.connection.agent.notify('session/cancel', { sessionId });
  expect((await answer).stopReason).toBe('cancelled');
  const streamed = sdk.textOf(sessionId);
  expect(echoReply(long).startsWith(streamed)).toBe(true);
  return { long, streamed };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

describe.each([
  ['TypeScript', TS_RUNTIME],
  ['Python', PY_RUNTIME],
])('dsh-sdk acp on a version 1 %s runtime', (_name, runtime) => {
  test('a cancel answers cancelled at once; the turn runs out unseen and the next prompt follows it', async () => {
    const bridge = startBridge([...ROUTE, '--', runtime, '--protocol-version', '1'], {
      DSH_SDK_RUNTIME_CHUNK_DELAY_MS: '15',
    });
    const sdk = connectSdk(bridge);
    await sdk.connection.agent.request('initialize', INITIALIZE);
    const { sessionId } = await sdk.connection.agent.request('session/new', {
      cwd: process.cwd(),
      mcpServers: [],
    });
    const { long, streamed } = await cancelMidReply(sdk, sessionId, 'cannot be interrupted ');
    const next = await sdk.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: 'after it' }],
    });
    expect(next.stopReason).toBe('end_turn');
    // The rest of the cancelled turn never reached the editor.
    expect(sdk.textOf(sessionId)).toBe(streamed + echoReply('after it'));
    bridge.child.stdin.end();
    expect((await bridge.exited).code).toBe(0);
  });
});

describe('dsh-sdk acp: starting, delegating and failing', () => {
  test('a runtime that cannot start fails initialize with the reason', async () => {
    const bridge = startBridge([...ROUTE, '--', '/nonexistent/dsh-sdk-runtime']);
    const sdk = connectSdk(bridge);
    const failure = await sdk.connection.agent
      .request('initialize', INITIALIZE)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RequestError);
    expect((failure as RequestError).code).toBe(-32603);
    expect((failure as RequestError).message).toMatch(/\/nonexistent\/dsh-sdk-runtime.*ENOENT/);
    bridge.child.stdin.end();
    expect((await bridge.exited).code).toBe(0);
  });

  test.each([
    ['at once', false],
    ['after initialize', true],
  ])(
    'an editor that quits %s (both pipes closed) ends the bridge with exit 0, no crash',
    async (_, initialized) => {
      const bridge = startBridge([...ROUTE, '--', TS_RUNTIME]);
      if (initialized) await connectSdk(bridge).connection.agent.request('initialize', INITIALIZE);
      bridge.child.stdout.destroy();
      bridge.child.stdin.end();
      expect((await bridge.exited).code).toBe(0);
      expect(bridge.stderr()).not.toMatch(/EPIPE|Unhandled/);
    },
  );

  test('a route the runtime does not serve fails initialize with its violations', async () => {
    const bridge = startBridge(['--provider', 'nope', '--model', 'x', '--', TS_RUNTIME]);
    const sdk = connectSdk(bridge);
    const failure = (await sdk.connection.agent
      .request('initialize', INITIALIZE)
      .catch((error: unknown) => error)) as RequestError;
    expect(failure.code).toBe(-32603);
    expect(failure.message).toMatch(/refused the handshake.*provider "nope" is not served/);
    expect(failure.data).toMatchObject({
      runtimeError: { code: -32602, data: [{ pointer: '/provider' }] },
    });
    bridge.child.stdin.end();
    expect((await bridge.exited).code).toBe(0);
  });

  test('a subagent shows as a tool call, completed with its reply', async () => {
    const bridge = startBridge([...ROUTE, '--', TS_RUNTIME]);
    const sdk = connectSdk(bridge);
    await sdk.connection.agent.request('initialize', INITIALIZE);
    const { sessionId } = await sdk.connection.agent.request('session/new', {
      cwd: process.cwd(),
      mcpServers: [],
    });
    const answer = await sdk.connection.agent.request('session/prompt', {
      sessionId,
      prompt: [{ type: 'text', text: '/delegate count the files' }],
    });
    expect(answer.stopReason).toBe('end_turn');
    const child = `${sessionId}/child1`;
    const toolUpdates = sdk.updates
      .map((n) => n.update)
      .filter((u) => u.sessionUpdate === 'tool_call' || u.sessionUpdate === 'tool_call_update');
    expect(toolUpdates).toEqual([
      expect.objectContaining({
        sessionUpdate: 'tool_call',
        toolCallId: `${sessionId}/call1`,
        title: 'delegate',
        rawInput: { task: 'count the files' },
      }),
      expect.objectContaining({
        sessionUpdate: 'tool_call',
        toolCallId: child,
        status: 'in_progress',
      }),
      expect.objectContaining({
        sessionUpdate: 'tool_call_update',
        toolCallId: child,
        status: 'completed',
        content: [{ type: 'content', content: { type: 'text', text: 'Echo: count the files' } }],
      }),
      expect.objectContaining({
        sessionUpdate: 'tool_call_update',
        toolCallId: `${sessionId}/call1`,
        status: 'completed',
      }),
    ]);
    // The child's own chunks are not the editor's reply: only the parent's text streams.
    expect(sdk.textOf(sessionId)).toBe(`Delegated to ${child}: Echo: count the files`);
    bridge.child.stdin.end();
    expect((await bridge.exited).code).toBe(0);
  });

  test("a turn that ends in error fails the prompt with the runtime's message", async () => {
    const bridge = startBridge([...ROUTE, '--', 'node', `${FIXTURES}turn-error-runtime.mjs`]);
    const sdk = connectSdk(bridge);
    await sdk.connection.agent.request('initialize', INITIALIZE);
    const { sessionId } = await sdk.connection.agent.request('session/new', {
      cwd: process.cwd(),
      mcpServers: [],
    });
    const failure = (await sdk.connection.agent
      .request('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'go' }] })
      .catch((error: unknown) => error)) as RequestError;
    expect(failure).toBeInstanceOf(RequestError);
    expect(failure.code).toBe(-32603);
    expect(failure.message).toBe('the model provider failed: quota exceeded');
    expect(failure.data).toEqual({
      reason: { kind: 'error', message: 'the model provider failed: quota exceeded' },
    });
    expect(sdk.textOf(sessionId)).toBe('Thinking');
    bridge.child.stdin.end();
    expect((await bridge.exited).code).toBe(0);
  });

  test('an unknown session is -32002; session/new before initialize is -32600', async () => {
    const bridge = startBridge([...ROUTE, '--', TS_RUNTIME]);
    const raw = rawPeer(bridge);
    raw.send(
      '{"jsonrpc":"2.0","id":1,"method":"session/new","params":{"cwd":"/","mcpServers":[]}}',
    );
    expect(await raw.response(1)).toHaveProperty('error.code', -32600);
    raw.send('{"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":1}}');
    await raw.response(2);
    raw.send(
      '{"jsonrpc":"2.0","id":3,"method":"session/prompt","params":{"sessionId":"acp-nope","prompt":[]}}',
    );
    expect(await raw.response(3)).toHaveProperty('error.code', -32002);
    bridge.child.stdin.end();
    expect((await bridge.exited).code).toBe(0);
  });
});
