// The dsh-sdk command line: help and usage errors for every verb, and `trace` behaving as the
// runtime would for whoever started it (exit code, signals, stderr, stdin's end).
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { get } from 'node:http';
import { createInterface } from 'node:readline';
import { join } from 'node:path';
import { HarnessSdkClientPeer, JsonRpcLineTransport, Method } from '@dsh-sdk/protocol';
import type { SessionEventNotification, TraceExit } from '@dsh-sdk/protocol';
import { describe, expect, test } from 'vitest';
import {
  DSH_SDK,
  FIXTURES,
  framesOf,
  PY_RUNTIME,
  readTraceFile,
  REPO_ROOT,
  runCli,
  tempDir,
  TS_RUNTIME,
} from './helpers/cli.js';
import { budgetMs } from './helpers/time-budget.js';

describe('dsh-sdk arguments', () => {
  test.each(['trace', 'view', 'inspect', 'acp'])(
    '%s --help prints its usage and exits 0',
    async (verb) => {
      const run = await runCli([verb, '--help']);
      expect(run.code).toBe(0);
      expect(run.stdout.toString()).toMatch(new RegExp(`^Usage: dsh-sdk ${verb} `));
      expect(run.stdout.toString()).toContain('--help');
    },
  );

  test('the bare command lists the verbs', async () => {
    const run = await runCli(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout.toString()).toMatch(/trace[\s\S]*view[\s\S]*inspect[\s\S]*acp/);
  });

  test.each([
    [['trace', '--out', 'x', '--bogus', '--', 'cat'], /Unknown option '--bogus'/],
    [['view', '--colour', 'x.ndjson'], /Unknown option '--colour'/],
    [['inspect', '--nope', '--', 'cat'], /Unknown option '--nope'/],
    [
      ['acp', '--provider', 'echo', '--model', 'echo-1', '--colour', '--', 'cat'],
      /Unknown option '--colour'/,
    ],
    [['acp', '--provider', 'echo', '--', 'cat'], /give the route: --provider and --model/],
    [
      ['acp', '--initialize', '{"provider":"echo"}', '--', 'cat'],
      /\/model must have required property/,
    ],
    [['acp', '--initialize', '{}', '--model', 'm', '--', 'cat'], /--initialize replaces --model/],
    [['acp', '--provider', 'echo', '--model', 'echo-1'], /give the runtime command after --/],
    [['trace', '--', 'cat'], /--out FILE is required/],
    [['trace', '--out', 'x'], /give the runtime command after --/],
    [
      ['trace', '--out', 'x', '--max-frame-bytes', 'lots', '--', 'cat'],
      /--max-frame-bytes must be an integer/,
    ],
    [['inspect', '--provider', 'echo', '--', 'cat'], /--provider and --model together/],
    [['view'], /give the trace file/],
    [['frobnicate'], /unknown verb "frobnicate"/],
  ])('%j is a usage error (exit 2)', async (args, message) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });

  test('view refuses a file that is not a trace, and a newer format version', async () => {
    const dir = tempDir();
    const { writeFileSync } = await import('node:fs');
    writeFileSync(join(dir, 'plain.ndjson'), '{"jsonrpc":"2.0"}\n');
    writeFileSync(
      join(dir, 'future.ndjson'),
      '{"type":"header","format":"dsh-sdk-trace","version":99}\n',
    );
    const plain = await runCli(['view', join(dir, 'plain.ndjson'), '--out', join(dir, 'x.html')]);
    expect(plain.code).toBe(2);
    expect(plain.stderr).toMatch(/is not a trace/);
    const future = await runCli(['view', join(dir, 'future.ndjson'), '--out', join(dir, 'x.html')]);
    expect(future.code).toBe(2);
    expect(future.stderr).toMatch(/format version 99/);
  });
});

describe('dsh-sdk trace stands in for the runtime', () => {
  test("exits with the runtime's exit code and passes its stderr through", async () => {
    const trace = join(tempDir(), 't.ndjson');
    const run = await runCli([
      'trace',
      '--out',
      trace,
      '--',
      'sh',
      '-c',
      'echo "from the runtime" >&2; exit 7',
    ]);
    expect(run.code).toBe(7);
    expect(run.stderr).toContain('from the runtime');
    expect(readTraceFile(trace).at(-1)).toMatchObject({ type: 'exit', exitCode: 7, signal: null });
  });

  test("stdin's end reaches the runtime", async () => {
    const trace = join(tempDir(), 't.ndjson');
    // `cat` exits only when its stdin ends.
    const run = await runCli(['trace', '--out', trace, '--', 'cat'], {
      chunks: [Buffer.from('{}\n')],
    });
    expect(run.code).toBe(0);
    expect(readTraceFile(trace).map((r) => r.type)).toEqual([
      'header',
      'frame',
      'end-of-stream',
      'frame',
      'end-of-stream',
      'exit',
    ]);
  });

  test('forwards a signal to the runtime and dies of it as the runtime did', async () => {
    const dir = tempDir();
    const trace = join(dir, 't.ndjson');
    const script =
      'trap "echo got-TERM >&2; trap - TERM; kill -TERM $$" TERM; echo ready >&2; while :; do sleep 0.05; done';
    const run = await runCli(['trace', '--out', trace, '--', 'sh', '-c', script], {
      keepStdinOpen: true,
      onStart: (child) => {
        child.stderr!.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('ready')) child.kill('SIGTERM');
        });
      },
    });
    expect(run.stderr).toContain('got-TERM');
    expect(run.signal).toBe('SIGTERM');
    expect(readTraceFile(trace).at(-1)).toMatchObject({
      type: 'exit',
      exitCode: null,
      signal: 'SIGTERM',
    });
  });

  test('a runtime that cannot start is exit 127 with a message', async () => {
    const run = await runCli([
      'trace',
      '--out',
      join(tempDir(), 't.ndjson'),
      '--',
      '/nonexistent/runtime',
    ]);
    expect(run.code).toBe(127);
    expect(run.stderr).toMatch(/cannot start \/nonexistent\/runtime/);
  });

  test.each([
    ['TypeScript', TS_RUNTIME],
    ['Python', PY_RUNTIME],
  ])(
    "serves as a client's runtime command: a delegate turn against the %s reference runtime, recorded without findings",
    async (_name, runtime) => {
      const trace = join(tempDir(), 'delegate.trace.ndjson');
      const child = spawn(DSH_SDK, ['trace', '--out', trace, '--', runtime], {
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      const exited = new Promise<number | null>((resolve) =>
        child.on('close', (code) => resolve(code)),
      );
      const transport = new JsonRpcLineTransport({ input: child.stdout, output: child.stdin });
      const peer = new HarnessSdkClientPeer(transport.start());
      const events: SessionEventNotification[] = [];
      peer.onSessionEvent((params) => void events.push(params));
      const idle = new Promise<void>((resolve) =>
        peer.onSessionStatus(({ sessionId, status }) => {
          if (sessionId === 's1' && status === 'idle') resolve();
        }),
      );
      await peer.initialize({ cwd: process.cwd(), provider: 'echo', model: 'echo-1' });
      await peer.sessionPrompt({
        sessionId: 's1',
        contentBlocks: [{ type: 'text', text: '/delegate say hi' }],
      });
      await idle;
      await peer.shutdown();
      expect(await exited).toBe(0);
      expect(stderr).toBe('');

      const records = readTraceFile(trace);
      const frames = framesOf(records);
      expect(records.filter((r) => r.type === 'finding')).toEqual([]);
      expect(frames.flatMap((f) => f.findings ?? [])).toEqual([]);
      // Every frame the client saw is in the trace, in order.
      const recordedEvents = frames
        .filter((f) => f.method === Method.sessionEvent)
        .map((f) => (f.json as { params: SessionEventNotification }).params);
      expect(recordedEvents).toEqual(events);
      expect(frames.filter((f) => f.method === Method.subagentStarted)).toHaveLength(1);
      // Each response answers its request, with a latency.
      const responses = frames.filter((f) => f.kind === 'result');
      expect(responses.map((f) => f.method)).toEqual([
        Method.initialize,
        Method.sessionPrompt,
        Method.shutdown,
      ]);
      for (const response of responses) {
        expect(frames.find((f) => f.seq === response.request)?.id).toBe(response.id);
        expect(response.latencyMs).toBeGreaterThanOrEqual(0);
      }
    },
  );
});

/** The dies-mid-turn fixture: it prints its pid, then dies as its prompt says. */
const DIES_MID_TURN = join(FIXTURES, 'dies-mid-turn.mjs');

/**
 * `dsh-sdk trace` on `command` (a launcher that starts the fixture and stays its parent), with
 * this test as its client: initialize, then `prompt` once the fixture has said its pid, unless
 * `then` does something else with the runtime's pid. Resolves with how the proxy ended, the
 * fixture's pid and the trace's exit record.
 */
async function throughLauncher(
  command: readonly string[],
  prompt: string | undefined,
  then: (runtimePid: number, proxy: ChildProcess) => void = () => {},
  cwd?: string,
): Promise<{ code: number | null; signal: string | null; pid: number; exit: TraceExit }> {
  const trace = join(tempDir(), 'launcher.trace.ndjson');
  const proxy = spawn(DSH_SDK, ['trace', '--out', trace, '--', ...command], {
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(cwd === undefined ? {} : { cwd }),
  });
  proxy.stdout.resume();
  const pid = await new Promise<number>((resolve) => {
    let stderr = '';
    proxy.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      const said = /dies-mid-turn: started, pid (\d+)/.exec(stderr);
      if (said) resolve(Number(said[1]));
    });
  });
  const ended = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
    proxy.on('close', (code, signal) => resolve({ code, signal })),
  );
  proxy.stdin.write(
    '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"cwd":"/w","provider":"echo","model":"echo-1"}}\n',
  );
  // A client's pause after the answer: a runtime that lives only milliseconds behind its
  // launcher may be gone before the proxy finds it (docs/cli.md).
  await new Promise((resolve) => proxy.stdout.once('data', resolve));
  await new Promise((resolve) => setTimeout(resolve, budgetMs(500)));
  if (prompt !== undefined) {
    proxy.stdin.write(
      `{"jsonrpc":"2.0","id":2,"method":"session/prompt","params":{"sessionId":"s","contentBlocks":[{"type":"text","text":"${prompt}"}]}}\n`,
    );
  }
  then(pid, proxy);
  const { code, signal } = await ended;
  return { code, signal, pid, exit: readTraceFile(trace).at(-1) as TraceExit };
}

describe("dsh-sdk trace through a launcher that stays the runtime's parent", () => {
  // `exit $?` keeps the shell from exec-ing its last command: it waits, and passes the status on.
  const shell = ['sh', '-c', `${process.execPath} ${DIES_MID_TURN}; exit $?`];
  const shellCommand = shell.join(' ');

  test("records the runtime's own pid and exit code, and exits as the launcher did", async () => {
    const { code, pid, exit } = await throughLauncher(shell, 'crash now');
    expect(code).toBe(3);
    expect(exit).toMatchObject({ exitCode: 3, signal: null, pid });
    expect(exit.launcher).toEqual({
      pid: expect.any(Number) as number,
      command: shellCommand,
      exitCode: 3,
      signal: null,
    });
    expect(exit.launcher!.pid).not.toBe(pid);
  });

  test("reads the launcher's 128 + N as the signal the runtime died of", async () => {
    const { code, pid, exit } = await throughLauncher(shell, 'segfault now');
    // The proxy's own status is its launcher's, as its parent would have seen without it.
    expect(code).toBe(139);
    expect(exit).toMatchObject({ exitCode: null, signal: 'SIGSEGV', pid });
    expect(exit.launcher).toMatchObject({ command: shellCommand, exitCode: 139, signal: null });
  });

  test('forwards a signal to the runtime itself, not to its launcher', async () => {
    const { code, pid, exit } = await throughLauncher(shell, undefined, (_pid, proxy) => {
      proxy.kill('SIGTERM');
    });
    expect(code).toBe(143);
    expect(exit).toMatchObject({ exitCode: null, signal: 'SIGTERM', pid });
    expect(exit.launcher).toMatchObject({ exitCode: 143, signal: null });
  });

  test('through npx in a project: the runtime killed by SIGKILL is recorded so', async () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'package.json'), '{"name":"scratch","private":true,"type":"module"}\n');
    mkdirSync(join(dir, 'node_modules/.bin'), { recursive: true });
    const bin = join(dir, 'node_modules/.bin/dies-mid-turn');
    writeFileSync(bin, `#!/usr/bin/env node\nimport ${JSON.stringify(DIES_MID_TURN)};\n`);
    chmodSync(bin, 0o755);
    const { code, pid, exit } = await throughLauncher(
      ['npx', 'dies-mid-turn'],
      undefined,
      (runtimePid) => process.kill(runtimePid, 'SIGKILL'),
      dir,
    );
    expect(code).toBe(137);
    expect(exit).toMatchObject({ exitCode: null, signal: 'SIGKILL', pid });
    expect(exit.launcher).toMatchObject({
      command: 'npm exec dies-mid-turn',
      exitCode: 137,
      signal: null,
    });
  });
});

describe("docs/cli.md's dsh-sdk commands", () => {
  // Run as written, from a directory whose bin/ is the repository's.
  const section = readFileSync(join(REPO_ROOT, 'docs/cli.md'), 'utf8');
  const block = /```sh\n([\s\S]*?)```/.exec(section)![1]!;
  const commands = block
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) =>
      line
        .replace(/\s+#.*$/, '')
        .trim()
        .split(/\s+/),
    );
  const byVerb = (verb: string): string[] => commands.find((c) => c[1] === verb)!;

  test('are the three verbs, each from bin/', () => {
    expect(commands.map((c) => [c[0], c[1]])).toEqual([
      ['bin/dsh-sdk', 'inspect'],
      ['bin/dsh-sdk', 'trace'],
      ['bin/dsh-sdk', 'view'],
    ]);
  });

  test('run: inspect serves its page, trace records a conversation, view writes the page', async () => {
    const dir = tempDir();
    symlinkSync(join(REPO_ROOT, 'bin'), join(dir, 'bin'));
    const [program, ...args] = byVerb('inspect');
    const inspect = spawn(program!, args, { cwd: dir, stdio: ['ignore', 'pipe', 'pipe'] });
    const inspectExit = new Promise<number | null>((resolve) => inspect.on('close', resolve));
    const url = await new Promise<string>((resolve) =>
      createInterface({ input: inspect.stdout! }).once('line', resolve),
    );
    const status = await new Promise<number>((resolve) =>
      get(url, (res) => (res.resume(), resolve(res.statusCode ?? 0))),
    );
    expect(status).toBe(200);
    inspect.kill('SIGTERM');
    expect(await inspectExit).toBe(0);

    const [traceProgram, ...traceArgs] = byVerb('trace');
    const conversation = [
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"cwd":"/w","provider":"echo","model":"echo-1"}}',
      '{"jsonrpc":"2.0","id":2,"method":"shutdown"}',
    ];
    const trace = spawn(traceProgram!, traceArgs, { cwd: dir, stdio: ['pipe', 'pipe', 'inherit'] });
    trace.stdout!.resume();
    trace.stdin!.end(conversation.map((l) => `${l}\n`).join(''));
    expect(await new Promise((resolve) => trace.on('close', resolve))).toBe(0);
    const recorded = framesOf(readTraceFile(join(dir, 'run.trace.ndjson')));
    expect(recorded.map((f) => [f.dir, f.kind])).toEqual([
      ['clientToServer', 'request'],
      ['clientToServer', 'request'],
      ['serverToClient', 'result'],
      ['serverToClient', 'result'],
    ]);

    const [viewProgram, ...viewArgs] = byVerb('view');
    const view = spawn(viewProgram!, viewArgs, { cwd: dir, stdio: 'inherit' });
    expect(await new Promise((resolve) => view.on('close', resolve))).toBe(0);
    expect(existsSync(join(dir, 'run.html'))).toBe(true);
    expect(readFileSync(join(dir, 'run.html'), 'utf8')).toContain('"format":"dsh-sdk-trace"');
  });
});

describe('dsh-sdk view without --out', () => {
  test('serves the page on 127.0.0.1 to requests with its token, until interrupted', async () => {
    const dir = tempDir();
    const trace = join(dir, 'run.trace.ndjson');
    const recorded = await runCli(['trace', '--out', trace, '--', 'cat'], {
      chunks: [
        Buffer.from(
          '{"jsonrpc":"2.0","method":"session.status","params":{"sessionId":"s","status":"idle"}}\n',
        ),
      ],
    });
    expect(recorded.code).toBe(0);
    const view = spawn(DSH_SDK, ['view', trace], { stdio: ['ignore', 'pipe', 'inherit'] });
    const exited = new Promise<number | null>((resolve) => view.on('close', resolve));
    const url = new URL(
      await new Promise<string>((resolve) =>
        createInterface({ input: view.stdout! }).once('line', resolve),
      ),
    );
    expect(url.hostname).toBe('127.0.0.1');
    const fetchPage = (target: URL): Promise<{ status: number; body: string }> =>
      new Promise((resolve) =>
        get(target, (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        }),
      );
    const page = await fetchPage(url);
    expect(page.status).toBe(200);
    expect(page.body).toContain('"sessionId":"s"');
    const withoutToken = new URL(url);
    withoutToken.search = '';
    expect((await fetchPage(withoutToken)).status).toBe(403);
    view.kill('SIGINT');
    expect(await exited).toBe(0);
  });
});
