// Our generated ACP client peer (@dsh-sdk/acp's AcpClientPeer) drives an agent written with the
// official ACP TypeScript SDK, in a child process over real pipes: the generated bindings speak
// ACP as its own SDK does, not only to our own agent end.
import { spawn } from 'node:child_process';
import { AcpClientPeer, JsonRpcLineTransport } from '@dsh-sdk/acp';
import type { SessionNotification } from '@dsh-sdk/acp';
import { describe, expect, test } from 'vitest';
import { FIXTURES } from './helpers/cli.js';
import { budgetMs } from './helpers/time-budget.js';

function startOfficialAgent(env: Record<string, string> = {}) {
  const child = spawn('node', [`${FIXTURES}official-sdk-agent.mjs`], {
    stdio: ['pipe', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const diagnostics: string[] = [];
  const transport = new JsonRpcLineTransport({
    input: child.stdout,
    output: child.stdin,
    onDiagnostic: (diagnostic) => diagnostics.push(diagnostic.message),
  });
  const peer = new AcpClientPeer(transport);
  const updates: SessionNotification[] = [];
  peer.onSessionUpdate((update) => void updates.push(update));
  transport.start();
  const textOf = (sessionId: string): string =>
    updates
      .filter((n) => n.sessionId === sessionId)
      .map((n) => {
        const { update } = n;
        return update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text'
          ? update.content.text
          : '';
      })
      .join('');
  return { child, exited, peer, updates, textOf, diagnostics };
}

describe('the generated ACP client peer drives an agent of the official TypeScript SDK', () => {
  test('initialize, a session, a streamed prompt; EOF ends it', async () => {
    const agent = startOfficialAgent();
    const initialized = await agent.peer.initialize({ protocolVersion: 1, clientCapabilities: {} });
    expect(initialized.protocolVersion).toBe(1);
    expect(initialized.agentInfo?.name).toBe('official-sdk-echo');
    const { sessionId } = await agent.peer.sessionNew({ cwd: process.cwd(), mcpServers: [] });
    const text = 'the generated peer speaks to the official agent';
    const answer = await agent.peer.sessionPrompt({
      sessionId,
      prompt: [{ type: 'text', text }],
    });
    expect(answer.stopReason).toBe('end_turn');
    expect(agent.textOf(sessionId)).toBe(`Echo: ${text}`);
    expect(agent.updates.length).toBe(`Echo: ${text}`.split(' ').length);
    expect(agent.diagnostics).toEqual([]);
    agent.child.stdin.end();
    expect(await agent.exited).toBe(0);
  });

  test('a cancel in mid-reply: cancelled, and a prefix of the reply streamed', async () => {
    const agent = startOfficialAgent({ ACP_AGENT_DELAY_MS: '20' });
    await agent.peer.initialize({ protocolVersion: 1 });
    const { sessionId } = await agent.peer.sessionNew({ cwd: process.cwd(), mcpServers: [] });
    const long = 'word '.repeat(60);
    const answer = agent.peer.sessionPrompt({ sessionId, prompt: [{ type: 'text', text: long }] });
    await expect
      .poll(() => agent.textOf(sessionId).length, { timeout: budgetMs(5000) })
      .toBeGreaterThan(0);
    await agent.peer.notifySessionCancel({ sessionId });
    expect((await answer).stopReason).toBe('cancelled');
    const streamed = agent.textOf(sessionId);
    expect(`Echo: ${long}`.startsWith(streamed)).toBe(true);
    expect(streamed.length).toBeLessThan(`Echo: ${long}`.length);
    agent.child.stdin.end();
    expect(await agent.exited).toBe(0);
  });
});
