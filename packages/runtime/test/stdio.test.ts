import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtemp, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { validateProtocolFrame } from '@dsh-sdk/protocol';
import { afterEach, describe, expect, test } from 'vitest';
import { LAUNCHER, exitOf, killChildren, spawnRuntime } from './helpers/runtime-connection.js';
import type { RuntimeChild } from './helpers/runtime-connection.js';

afterEach(killChildren);

const INITIALIZE = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { cwd: '/', provider: 'echo', model: 'echo-1' },
};
const prompt = (id: number, sessionId: string, text: string): object => ({
  jsonrpc: '2.0',
  id,
  method: 'session/prompt',
  params: { sessionId, contentBlocks: [{ type: 'text', text }] },
});
const line = (message: object): string => `${JSON.stringify(message)}\n`;

/** Collects a child's stdout and stderr as text. */
function capture(child: RuntimeChild): { stdout: () => string; stderr: () => string } {
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (stderr += text));
  return { stdout: () => stdout, stderr: () => stderr };
}

/** Resolves once the captured stdout holds a frame matching `test`. */
async function frameMatching(
  out: () => string,
  test: (frame: Record<string, unknown>) => boolean,
): Promise<void> {
  for (;;) {
    const frames = out()
      .split('\n')
      .filter(Boolean)
      .map((text) => JSON.parse(text) as Record<string, unknown>);
    if (frames.some(test)) return;
    await sleep(10);
  }
}

const isIdle = (sessionId: string) => (frame: Record<string, unknown>) =>
  frame['method'] === 'session.status' &&
  JSON.stringify(frame['params']) === JSON.stringify({ sessionId, status: 'idle' });

describe('stdio', () => {
  test('writes nothing before the first request', async () => {
    const child = spawnRuntime();
    const out = capture(child);
    await sleep(300);
    expect(out.stdout()).toBe('');
    child.stdin.write(line({ jsonrpc: '2.0', id: 1, method: 'shutdown' }));
    await expect(exitOf(child)).resolves.toEqual({ code: 0, signal: null });
    expect(out.stdout()).toBe('{"jsonrpc":"2.0","id":1,"result":{}}\n');
  });

  test('skips garbage and blank lines, reports them on stderr, keeps serving frames only', async () => {
    const child = spawnRuntime();
    const out = capture(child);
    child.stdin.write(
      ['not json', '', '   ', '[1,2]', '{"jsonrpc":"2.0","id":null,"method":"x"}', '42', ''].join(
        '\n',
      ) +
        line(INITIALIZE) +
        '{"oops": \n\r\n' +
        line(prompt(2, 'g', 'still here')),
    );
    await frameMatching(out.stdout, isIdle('g'));
    const lines = out.stdout().split('\n');
    expect(lines.pop()).toBe('');
    for (const text of lines) expect(validateProtocolFrame(JSON.parse(text))).toBe(true);
    expect(lines[0]).toBe(
      '{"jsonrpc":"2.0","id":1,"result":{"serverInfo":{"name":"deepseek-harness-sdk-runtime","version":"0.1.0"}}}',
    );
    expect(lines[1]).toBe('{"jsonrpc":"2.0","id":2,"result":{"messageId":"g/m1"}}');
    const reports = out.stderr().trim().split('\n');
    // Empty lines and a lone `\r` are blank: skipped silently. A line of spaces is not JSON.
    expect(reports).toEqual([
      expect.stringMatching(/invalid-json line=1 bytes=8: /),
      expect.stringMatching(/invalid-json line=3 bytes=3: /),
      expect.stringMatching(/batch-unsupported line=4 bytes=5: /),
      expect.stringMatching(/invalid-id line=5 bytes=40: /),
      expect.stringMatching(/not-an-object line=6 bytes=2: /),
      expect.stringMatching(/invalid-json line=8 bytes=9: /),
    ]);
    child.stdin.end();
    await expect(exitOf(child)).resolves.toEqual({ code: 0, signal: null });
  });

  test('finishes the turn it owes when stdin ends, then exits 0', async () => {
    const child = spawnRuntime({ DSH_SDK_RUNTIME_CHUNK_DELAY_MS: '20' });
    const out = capture(child);
    child.stdin.end(line(INITIALIZE) + line(prompt(2, 'e', 'a reply of several pieces to stream')));
    await expect(exitOf(child)).resolves.toEqual({ code: 0, signal: null });
    const frames = out
      .stdout()
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text) as Record<string, unknown>);
    expect(frames.at(-1)).toEqual({
      jsonrpc: '2.0',
      method: 'session.status',
      params: { sessionId: 'e', status: 'idle' },
    });
    expect(frames.filter((frame) => frame['method'] === 'session.event')).toHaveLength(10);
  });

  test('reports a final line cut short by the end of stdin', async () => {
    const child = spawnRuntime();
    const out = capture(child);
    child.stdin.end(line(INITIALIZE) + '{"jsonrpc":"2.0","id":2,"meth');
    await expect(exitOf(child)).resolves.toEqual({ code: 0, signal: null });
    expect(out.stdout().trim().split('\n')).toHaveLength(1);
    expect(out.stderr()).toMatch(/truncated-frame line=2 bytes=29/);
  });

  test('exits 0 after shutdown even while a turn is streaming, and stops sending its frames', async () => {
    const child = spawnRuntime({ DSH_SDK_RUNTIME_CHUNK_DELAY_MS: '50' });
    const out = capture(child);
    child.stdin.write(line(INITIALIZE) + line(prompt(2, 'long', 'x'.repeat(200))));
    await frameMatching(
      out.stdout,
      (frame) =>
        frame['method'] === 'session.event' && JSON.stringify(frame).includes('assistant/chunk'),
    );
    child.stdin.write(line({ jsonrpc: '2.0', id: 3, method: 'shutdown', params: null }));
    await expect(exitOf(child)).resolves.toEqual({ code: 0, signal: null });
    const frames = out
      .stdout()
      .trim()
      .split('\n')
      .map((text) => JSON.parse(text) as Record<string, unknown>);
    expect(frames.at(-1)).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
    expect(child.stdin.writableEnded).toBe(false);
  });

  test('exits 0 when stdin ends while idle', async () => {
    const child = spawnRuntime();
    child.stdin.end();
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(0);
  });

  test('starts from any working directory, through a symlink too', async () => {
    const folder = await mkdtemp(join(tmpdir(), 'dsh-sdk-launcher-'));
    try {
      const link = join(folder, 'runtime');
      await symlink(LAUNCHER, link);
      const child = spawn(link, [], { cwd: '/', stdio: ['pipe', 'pipe', 'pipe'] });
      let stdout = '';
      child.stdout.setEncoding('utf8').on('data', (text: string) => (stdout += text));
      child.stdin.end(line({ jsonrpc: '2.0', id: 'only', method: 'shutdown', params: {} }));
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).toBe(0);
      expect(stdout).toBe('{"jsonrpc":"2.0","id":"only","result":{}}\n');
    } finally {
      await rm(folder, { recursive: true, force: true });
    }
  });
});
