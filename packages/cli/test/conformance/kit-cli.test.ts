// The command line of the kit: help, usage errors, a runtime that cannot start (exit 2, one line),
// the baseline, and cleanup: no process left behind after a run, a timeout or Ctrl-C.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { TS_RUNTIME, runCli } from '../helpers/cli.js';
import { budgetMs } from '../helpers/time-budget.js';
import { ROUTE, RUNTIME_FIXTURES, failing, runKit, taggedProcesses } from './helpers.js';
import type { Report } from './helpers.js';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until no process carries the tag (processes need a moment to be reaped), or gives up. */
async function leftBehind(tag: string): Promise<number[]> {
  for (let i = 0; i < 20; i++) {
    const pids = taggedProcesses(tag);
    if (pids.length === 0) return [];
    await sleep(100);
  }
  return taggedProcesses(tag);
}

describe('the dsh-sdk conformance command line', () => {
  it('has help for the verb and both modes', async () => {
    for (const args of [
      ['conformance', '--help'],
      ['conformance', 'runtime', '--help'],
      ['conformance', 'client', '-h'],
    ]) {
      const run = await runCli(args);
      expect(run.code, args.join(' ')).toBe(0);
      expect(run.stdout.toString()).toMatch(/^Usage: dsh-sdk conformance/);
    }
    expect((await runCli(['--help'])).stdout.toString()).toContain('conformance');
  });

  it.each([
    [
      ['conformance', 'runtime', '--no-such-option', '--', TS_RUNTIME],
      /Unknown option '--no-such-option'/,
    ],
    [['conformance', 'runtime', '--', TS_RUNTIME], /give the route: --provider and --model/],
    [['conformance', 'runtime', ...ROUTE], /give the runtime command after --/],
    [
      ['conformance', 'runtime', '--initialize', '{"cwd":1}', '--', TS_RUNTIME],
      /not valid initialize params: .*\/cwd must be string/,
    ],
    [
      ['conformance', 'runtime', ...ROUTE, '--timeout', '0', '--', TS_RUNTIME],
      /--timeout must be a positive number/,
    ],
    [
      ['conformance', 'runtime', ...ROUTE, '--env', 'NOVALUE', '--', TS_RUNTIME],
      /--env NOVALUE: expected KEY=VALUE/,
    ],
    [['conformance', 'sideways'], /unknown mode "sideways"/],
  ])('refuses %j with exit 2', async (args, message) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
  });

  it('lists the requirements and cases without a runtime', async () => {
    const run = await runCli(['conformance', 'runtime', '--list']);
    expect(run.code).toBe(0);
    expect(run.stdout.toString()).toMatch(/DSH-FRAME-001 +MANDATORY/);
    expect(run.stdout.toString()).toContain('vector.exchange.runtime-second-initialize-refused');
  });

  it.each([
    [
      'a program that does not exist',
      ['/no/such/runtime'],
      /cannot start the runtime: \/no\/such\/runtime: not found/,
    ],
    [
      'a runtime that exits at once',
      [process.execPath, '-e', "process.stderr.write('boom: no config\\n'); process.exit(3)"],
      /exited with code 3 before answering initialize; stderr: boom: no config/,
    ],
    [
      'a runtime that refuses the route',
      [TS_RUNTIME],
      /refused initialize with this route: .*-32602/,
    ],
  ])('exits 2 with one line for %s', async (_name, command, reason) => {
    const route = command[0] === TS_RUNTIME ? ['--provider', 'nope', '--model', 'x'] : ROUTE;
    const run = await runCli(['conformance', 'runtime', ...route, '--', ...command]);
    expect(run.code).toBe(2);
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(reason);
  });

  it(
    'tests child agents with --delegate-prompt, and reports them not tested under --no-delegate',
    async () => {
      const run = (...args: string[]) =>
        runKit(['runtime', ...ROUTE, '--only', 'subagent.delegate', ...args, '--', TS_RUNTIME]);
      const subagent = (report: Report) =>
        report.requirements.filter((r) => r.id.startsWith('DSH-SUBAGENT-')).map((r) => r.outcome);
      const delegating = await run('--delegate-prompt', '/delegate count to three');
      expect(delegating.code, delegating.stdout).toBe(0);
      expect(subagent(delegating.report())).toEqual(['PASS', 'PASS', 'PASS', 'PASS']);
      const plain = await run('--delegate-prompt', 'a prompt that starts no child');
      expect(plain.code).toBe(1);
      expect(failing(plain.report())).toEqual([
        'DSH-SUBAGENT-001',
        'DSH-SUBAGENT-002',
        'DSH-SUBAGENT-003',
      ]);
      const optedOut = await run('--no-delegate');
      expect(optedOut.code, optedOut.stdout).toBe(0);
      const report = optedOut.report();
      expect(subagent(report)).toEqual(['NOT_TESTED', 'NOT_TESTED', 'NOT_TESTED', 'NOT_TESTED']);
      expect(report.requirements.find((r) => r.id === 'DSH-SUBAGENT-001')?.message).toBe(
        'opted out: --no-delegate',
      );
    },
    budgetMs(60_000),
  );

  it(
    'selects with --only and --skip, and takes the route as --initialize JSON',
    async () => {
      const run = await runKit([
        'runtime',
        '--initialize',
        JSON.stringify({ cwd: process.cwd(), provider: 'echo', model: 'echo-1' }),
        '--only',
        'init.*',
        '--skip',
        'init.route-refused',
        '--jobs',
        '3',
        '--',
        TS_RUNTIME,
      ]);
      expect(run.code, run.stdout).toBe(0);
      expect(
        run
          .report()
          .cases.map((c) => c.id)
          .sort(),
      ).toEqual(['init.before-initialize', 'init.handshake', 'init.second-initialize']);
      expect(run.stdout).toMatch(/conformant \(a partial run: --only\/--skip\)\n$/);
    },
    budgetMs(60_000),
  );

  it(
    'applies the baseline: a listed failure passes, a stale entry or an unknown id fails',
    async () => {
      const fixture = [process.execPath, join(RUNTIME_FIXTURES, 'non-compact-json.mjs')];
      const only = ['--only', 'init.handshake'];
      const write = (name: string, entries: object[]) => {
        const path = join(
          process.env['TMPDIR'] ?? '/tmp',
          `dsh-baseline-${process.pid}-${name}.json`,
        );
        writeFileSync(path, JSON.stringify({ expectedFailures: entries }));
        return ['--expected-failures', path];
      };
      const why = { reason: 'writes spaces after colons; fixed in 2.1' };
      const expected = await runKit([
        'runtime',
        ...ROUTE,
        ...only,
        ...write('expected', [{ id: 'DSH-FRAME-003', ...why }]),
        '--',
        ...fixture,
      ]);
      expect(expected.code, expected.stdout).toBe(0);
      expect(expected.report().requirements.find((r) => r.id === 'DSH-FRAME-003')?.expected).toBe(
        why.reason,
      );
      expect(expected.stdout).toMatch(/^FAIL\* +DSH-FRAME-003/m);
      const byCase = await runKit([
        'runtime',
        ...ROUTE,
        ...only,
        ...write('case', [{ id: 'init.handshake', ...why }]),
        '--',
        ...fixture,
      ]);
      expect(byCase.code, byCase.stdout).toBe(0);
      const stale = await runKit([
        'runtime',
        ...ROUTE,
        ...only,
        ...write('stale', [
          { id: 'DSH-FRAME-003', ...why },
          { id: 'DSH-FRAME-001', ...why },
        ]),
        '--',
        ...fixture,
      ]);
      expect(stale.code).toBe(1);
      expect(stale.report().verdict.stale).toEqual(['DSH-FRAME-001']);
      expect(stale.stdout).toContain('the baseline is stale: DSH-FRAME-001');
      const unknown = await runKit([
        'runtime',
        ...ROUTE,
        ...only,
        ...write('unknown', [
          { id: 'DSH-FRAME-003', ...why },
          { id: 'DSH-NOPE-001', ...why },
        ]),
        '--',
        ...fixture,
      ]);
      expect(unknown.code).toBe(1);
      expect(unknown.report().verdict.unknown).toEqual(['DSH-NOPE-001']);
      const noReason = await runKit([
        'runtime',
        ...ROUTE,
        ...only,
        ...write('no-reason', [{ id: 'DSH-FRAME-003' }]),
        '--',
        ...fixture,
      ]);
      expect(noReason.code).toBe(2);
      expect(noReason.stderr).toMatch(/entry 0 needs an "id" and a non-empty "reason"/);
    },
    budgetMs(60_000),
  );

  it(
    'leaves no process behind after a run, a timeout, or Ctrl-C',
    async () => {
      const tag = randomUUID();
      const env = ['--env', `DSH_CONFORMANCE_TEST_TAG=${tag}`];
      const done = await runKit([
        'runtime',
        ...ROUTE,
        ...env,
        '--only',
        'init.*',
        '--',
        TS_RUNTIME,
      ]);
      expect(done.code).toBe(0);
      expect(await leftBehind(tag)).toEqual([]);
      const hung = await runKit([
        'runtime',
        ...ROUTE,
        ...env,
        '--timeout',
        '1',
        '--only',
        'prompt.turn',
        '--',
        process.execPath,
        join(RUNTIME_FIXTURES, 'no-idle-after-turn.mjs'),
      ]);
      expect(hung.code).toBe(1);
      expect(await leftBehind(tag)).toEqual([]);
      let seen: number[] = [];
      const interrupted = await runKit(['runtime', ...ROUTE, ...env, '--', TS_RUNTIME], (kit) => {
        const poll = setInterval(() => {
          seen = taggedProcesses(tag);
          if (seen.length === 0) return;
          clearInterval(poll);
          kit.kill('SIGINT');
        }, 20);
      });
      expect(seen.length).toBeGreaterThan(0);
      expect(interrupted.code).toBe(130);
      expect(interrupted.stderr).toContain(
        'stopped by SIGINT; every process it started was killed',
      );
      expect(await leftBehind(tag)).toEqual([]);
    },
    budgetMs(90_000),
  );
});
