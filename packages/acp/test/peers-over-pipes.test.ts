// An ACP client peer (the editor's end) talking to an ACP agent peer in a child process, through
// real pipes: the agent (fixtures/echo-agent.mjs) runs on the built package as a user installs it.
import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import { once } from 'node:events';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import type { TransportDiagnostic } from '@dsh-sdk/protocol';
import {
  AcpClientPeer,
  ErrorCode,
  JsonRpcLineTransport,
  JsonRpcResponseError,
} from '../src/index.js';
import type { SessionNotification } from '../src/index.js';

const AGENT = fileURLToPath(new URL('./fixtures/echo-agent.mjs', import.meta.url));

type Child = ChildProcessByStdio<Writable, Readable, Readable>;
const children: Child[] = [];

afterEach(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
});

/** A started client peer on a fresh agent process, and what the client's transport reported. */
async function connect() {
  const child = spawn(process.execPath, [AGENT], { stdio: ['pipe', 'pipe', 'pipe'] });
  children.push(child);
  child.stderr.resume();
  const diagnostics: TransportDiagnostic[] = [];
  const transport = new JsonRpcLineTransport({
    input: child.stdout,
    output: child.stdin,
    onDiagnostic: (d) => diagnostics.push(d),
  });
  const client = new AcpClientPeer(transport);
  const updates: SessionNotification[] = [];
  client.onSessionUpdate((update) => void updates.push(update));
  transport.start();
  await client.initialize({ protocolVersion: 1 });
  const { sessionId } = await client.sessionNew({ cwd: '/work', mcpServers: [] });
  return { child, transport, client, updates, diagnostics, sessionId };
}

const texts = (updates: SessionNotification[]) =>
  updates.map((u) =>
    u.update.sessionUpdate === 'agent_message_chunk' && u.update.content.type === 'text'
      ? u.update.content.text
      : `<${String(u.update.sessionUpdate)}>`,
  );

describe('ACP peers over real pipes', () => {
  it('initializes, opens a session and streams a prompt whose chunks join to the reply', async () => {
    const { client, updates, sessionId } = await connect();
    expect(sessionId).toBe('s-/work');
    const answer = await client.sessionPrompt({
      sessionId,
      prompt: [{ type: 'text', text: 'one two three' }],
    });
    expect(answer).toEqual({ stopReason: 'end_turn' });
    expect(texts(updates).join('')).toBe('one two three');
  });

  it('answers invalid params -32602 naming every violation, before the handler runs', async () => {
    const { transport, updates } = await connect();
    const failure = await transport
      .request('session/prompt', { sessionId: 7, prompt: [{ type: 'text' }] })
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(JsonRpcResponseError);
    const { code, data } = failure as JsonRpcResponseError;
    expect(code).toBe(ErrorCode.InvalidParams);
    expect(data).toEqual([
      { pointer: '/sessionId', message: 'must be string' },
      { pointer: '/prompt/0/text', message: "must have required property 'text'" },
    ]);
    expect(updates).toEqual([]);
  });

  it('keeps _meta both ways and answers extension methods', async () => {
    const { client, sessionId } = await connect();
    const meta = { 'zed.dev/trace': { id: 'abc' } };
    const answer = await client.sessionPrompt({
      sessionId,
      prompt: [{ type: 'text', text: 'hi' }],
      _meta: meta,
    });
    expect(answer).toEqual({ stopReason: 'end_turn', _meta: meta });
    await client.notifyExtNotification('_zed/ping', { n: 1 });
    await client.notifyExtNotification('_zed/ping', { n: 2 });
    await expect(client.extMethod('_zed/echo', { a: [1] })).resolves.toEqual({
      method: '_zed/echo',
      params: { a: [1] },
      extNotifications: 2,
    });
  });

  it('repairs what the lenient-decoding keywords allow and reports nothing', async () => {
    const { client, updates, diagnostics, sessionId } = await connect();
    await client.sessionPrompt({ sessionId, prompt: [{ type: 'text', text: 'lenient' }] });
    const toolCall = updates[0]?.update;
    // `kind` 42 is no ToolKind: the member goes (it has no default); a location without a path
    // goes; a location's broken `line` goes, the location stays.
    expect(toolCall).toEqual({
      sessionUpdate: 'tool_call',
      toolCallId: 't1',
      title: 'Read',
      locations: [{ path: '/a' }, { path: '/b' }],
    });
    expect(diagnostics).toEqual([]);
  });

  it('reports an update of a kind ACP v1 does not have, and goes on', async () => {
    const { client, updates, diagnostics, sessionId } = await connect();
    await client.sessionPrompt({ sessionId, prompt: [{ type: 'text', text: 'unknown' }] });
    expect(texts(updates)).toEqual(['unknown']);
    expect(diagnostics.map((d) => [d.reason, d.method])).toEqual([
      ['invalid-notification-params', 'session/update'],
    ]);
  });

  it('cancels a turn in mid-reply: cancelled, what streamed a prefix; the session goes on', async () => {
    const { client, updates, sessionId } = await connect();
    const words = Array.from({ length: 200 }, (_, i) => `w${i} `).join('');
    const turn = client.sessionPrompt({ sessionId, prompt: [{ type: 'text', text: words }] });
    const stop = client.onSessionUpdate(() => {
      stop();
      void client.notifySessionCancel({ sessionId });
    });
    await expect(turn).resolves.toEqual({ stopReason: 'cancelled' });
    const streamed = texts(updates).join('');
    expect(streamed.length).toBeLessThan(words.length);
    expect(words.startsWith(streamed)).toBe(true);
    updates.length = 0;
    await expect(
      client.sessionPrompt({ sessionId, prompt: [{ type: 'text', text: 'again' }] }),
    ).resolves.toEqual({ stopReason: 'end_turn' });
  });

  it('ends the agent at EOF with exit code 0', async () => {
    const { child } = await connect();
    const exited = once(child, 'exit');
    child.stdin.end();
    expect((await exited)[0]).toBe(0);
  });
});
