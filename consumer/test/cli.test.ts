// docs/cli.md's commands for an installed project, run as written in a scratch project that
// installed the packed tarballs with the README's commands: `inspect` through `npx`, whose page
// state names the runtime's own pid (not npm's) and its death by SIGKILL (not npm's code 137);
// `trace` of `node_modules/.bin/dsh-sdk-runtime` recording a conversation; `view` writing the page.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
  REPOSITORY,
  consumerEnv,
  createProject,
  offlineEnv,
  readmeInstallSteps,
  runStep,
  stepOf,
  tarballInstallOf,
} from './helpers/scratch-project.js';

/** The ```sh installed block of a page of docs/, one command a line, comments dropped. */
function installedCommands(doc = 'cli.md'): string[][] {
  const page = readFileSync(join(REPOSITORY, 'docs', doc), 'utf8');
  const block = /^```sh installed\n([\s\S]*?)^```/m.exec(page)?.[1];
  if (block === undefined) throw new Error(`docs/${doc} has no \`\`\`sh installed block`);
  return block
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter((line) => line !== '')
    .map((line) => line.split(/\s+/));
}

interface RunState {
  readonly running: boolean;
  readonly pid: number | null;
  readonly launcher?: { readonly pid: number; readonly command: string };
  readonly ended?: string;
  readonly endedThrough?: string;
}

/** Asks the inspector for its state until `done` says it is the one awaited. */
async function stateUntil(url: string, done: (run: RunState) => boolean): Promise<RunState> {
  const address = new URL('/state', url);
  address.searchParams.set('token', new URL(url).searchParams.get('token')!);
  for (;;) {
    const { runtime } = (await (await fetch(address)).json()) as { runtime: RunState };
    if (done(runtime)) return runtime;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const commandOf = (pid: number): string =>
  readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0+$/, '').split('\0').join(' ');

let project: string;
const commands = installedCommands();
const byVerb = (verb: string): string[] => commands.find((c) => c[2] === verb)!;

beforeAll(async () => {
  project = await createProject('cli');
  const steps = await readmeInstallSteps(project);
  await runStep(stepOf(steps, 'bash')); // scripts/pack.sh: the tarballs land in the project
  // A project of its own (npm init), then the tarballs: what the CLI needs of the install block.
  await runStep(stepOf(steps, 'npm', 'init'));
  await runStep(tarballInstallOf(steps));
});

afterAll(async () => {
  await rm(project, { recursive: true, force: true });
});

describe("docs/cli.md's commands in an installed project", () => {
  test('are the three verbs, through npx', () => {
    expect(commands.map((c) => c.slice(0, 3))).toEqual([
      ['npx', 'dsh-sdk', 'inspect'],
      ['npx', 'dsh-sdk', 'trace'],
      ['npx', 'dsh-sdk', 'view'],
    ]);
  });

  test("inspect through npx: the runtime's own pid, and its death by SIGKILL", async () => {
    const [program, ...args] = byVerb('inspect');
    // Its own process group, so the test can stop npm, its shell and dsh-sdk at once.
    const inspect = spawn(program!, args, {
      cwd: project,
      env: consumerEnv(),
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    });
    const closed = new Promise((resolve) => inspect.on('close', resolve));
    try {
      const url = await new Promise<string>((resolve) =>
        createInterface({ input: inspect.stdout! }).once('line', resolve),
      );
      const running = await stateUntil(url, (run) => run.running && run.pid !== null);
      const pid = running.pid!;
      expect(commandOf(pid)).toMatch(/^\S*node\S* \S*node_modules\/\.bin\/dsh-sdk-runtime$/);
      expect(running.launcher?.command).toBe('npm exec dsh-sdk-runtime');
      expect(commandOf(running.launcher!.pid)).toBe('npm exec dsh-sdk-runtime');
      process.kill(pid, 'SIGKILL');
      const ended = await stateUntil(url, (run) => !run.running);
      expect(ended.ended).toBe('was killed by SIGKILL');
      expect(ended.endedThrough).toBe(
        `through npm exec dsh-sdk-runtime (pid ${running.launcher!.pid}), which exited with code 137`,
      );
    } finally {
      process.kill(-inspect.pid!, 'SIGTERM');
      await closed;
    }
  });

  test('trace records a conversation with node_modules/.bin/dsh-sdk-runtime; view writes its page', async () => {
    const [program, ...args] = byVerb('trace');
    const trace = spawn(program!, args, {
      cwd: project,
      env: consumerEnv(),
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    trace.stdout!.resume();
    trace.stdin!.end(
      '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"cwd":"/w","provider":"echo","model":"echo-1"}}\n' +
        '{"jsonrpc":"2.0","id":2,"method":"shutdown"}\n',
    );
    expect(await new Promise((resolve) => trace.on('close', resolve))).toBe(0);
    const records = readFileSync(join(project, 'run.trace.ndjson'), 'utf8')
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(records.filter((r) => r['type'] === 'frame')).toHaveLength(4);
    // npm's .bin link runs the runtime itself: no launcher stays in between.
    const exit = records.at(-1)!;
    expect(exit).toMatchObject({ type: 'exit', exitCode: 0, signal: null, findings: 0 });
    expect(exit['launcher']).toBeUndefined();
    expect(exit['pid']).toEqual(expect.any(Number));

    const [viewProgram, ...viewArgs] = byVerb('view');
    const view = spawn(viewProgram!, viewArgs, {
      cwd: project,
      env: consumerEnv(),
      stdio: 'inherit',
    });
    expect(await new Promise((resolve) => view.on('close', resolve))).toBe(0);
    expect(existsSync(join(project, 'run.html'))).toBe(true);
  });
});

describe("docs/conformance.md's command in an installed project", () => {
  test('judges node_modules/.bin/dsh-sdk-runtime conformant with the IDL and vectors the package carries', async () => {
    const [command] = installedCommands('conformance.md');
    expect(command!.slice(0, 4)).toEqual(['npx', 'dsh-sdk', 'conformance', 'runtime']);
    const kit = spawn(command![0]!, command!.slice(1), {
      cwd: project,
      env: consumerEnv(),
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    kit.stdout!.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    expect(await new Promise((resolve) => kit.on('close', resolve)), stdout).toBe(0);
    expect(stdout).toMatch(/\nconformant\n$/);
    const report = JSON.parse(readFileSync(join(project, 'report.json'), 'utf8')) as {
      cases: unknown[];
      run: { protocolVersion: number };
    };
    expect(report.run.protocolVersion).toBe(2);
    expect(report.cases.length).toBeGreaterThan(40);
  });
});

/** docs/acp.md's Zed entry: its `agent_servers` command and arguments. */
function zedEntry(): { command: string; args: string[] } {
  const page = readFileSync(join(REPOSITORY, 'docs/acp.md'), 'utf8');
  const block = /^```json\n(\{\n {2}"agent_servers"[\s\S]*?)^```/m.exec(page)?.[1];
  if (block === undefined) throw new Error('docs/acp.md has no agent_servers block');
  const servers = (
    JSON.parse(block) as { agent_servers: Record<string, { command: string; args: string[] }> }
  ).agent_servers;
  return Object.values(servers)[0]!;
}

describe("docs/acp.md's Zed entry in an installed project", () => {
  test('starts the bridge from another folder, as the editor does, and a prompt streams its reply', async () => {
    const { command, args } = zedEntry();
    const resolved = args.map((arg) => arg.replace('/path/to/that/project', project));
    const elsewhere = join(project, '..');
    const bridge = spawn(command, resolved, {
      cwd: elsewhere,
      env: offlineEnv(),
      stdio: ['pipe', 'pipe', 'inherit'],
    });
    const exited = new Promise((resolve) => bridge.on('close', resolve));
    const messages: Record<string, unknown>[] = [];
    const answered = new Map<number, (message: Record<string, unknown>) => void>();
    createInterface({ input: bridge.stdout! }).on('line', (line) => {
      const message = JSON.parse(line) as Record<string, unknown>;
      messages.push(message);
      if (typeof message['id'] === 'number') answered.get(message['id'])?.(message);
    });
    const request = (id: number, method: string, params: unknown) =>
      new Promise<Record<string, unknown>>((resolve) => {
        answered.set(id, resolve);
        bridge.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      });
    expect(await request(1, 'initialize', { protocolVersion: 1 })).toHaveProperty(
      'result.protocolVersion',
      1,
    );
    const created = await request(2, 'session/new', { cwd: project, mcpServers: [] });
    const { sessionId } = created['result'] as { sessionId: string };
    const prompt = [{ type: 'text', text: 'hello from the editor' }];
    expect(await request(3, 'session/prompt', { sessionId, prompt })).toHaveProperty(
      'result.stopReason',
      'end_turn',
    );
    const text = messages
      .filter((m) => m['method'] === 'session/update')
      .map((m) => (m['params'] as { update: { content: { text: string } } }).update.content.text)
      .join('');
    expect(text).toBe('Echo: hello from the editor');
    bridge.stdin!.end();
    expect(await exited).toBe(0);
  });
});
