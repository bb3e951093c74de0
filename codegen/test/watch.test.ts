// `pnpm dev` (`idl-gen generate --watch`) as a real process on a scratch copy of the repository,
// started in a process group of its own as a terminal starts it: real saves of the copy's IDL,
// the one line each prints, an IDL error and the recovery, a save during a run, a protocol folder
// added while it runs, a failing check, and Ctrl-C (SIGINT to the group) leaving no process.
import type { ChildProcess } from 'node:child_process';
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeScratchRepo, removeScratchRepo } from './helpers/scratch-repo.js';
import { budgetMs } from './helpers/time-budget.js';

const cli = new URL('../bin/idl-gen.mjs', import.meta.url).pathname;
const cacheHome = mkdtempSync(join(tmpdir(), 'idl-watch-cache-'));
const DESCRIPTION = '"Working directory recorded for SDK-created sessions."';
const RUN_BUDGET = budgetMs(180_000);
let copy = '';
let watcher: ChildProcess;
const lines: string[] = [];
let exited: Promise<number | null>;

beforeAll(async () => {
  copy = makeScratchRepo('idl-watch-');
  watcher = spawn(process.execPath, [cli, 'generate', '--watch', '--root', copy], {
    cwd: copy,
    detached: true,
    env: { ...process.env, IDL_GEN_CACHE_DIR: cacheHome },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  exited = new Promise((resolve) => watcher.on('exit', (code) => resolve(code)));
  let pending = '';
  watcher.stdout?.on('data', (chunk: Buffer) => {
    pending += chunk.toString('utf8');
    const complete = pending.split('\n');
    pending = complete.pop() ?? '';
    lines.push(...complete);
  });
  await nextLine(0, /watching protocol\.idl\.json(, [^;]+)?; each save/, budgetMs(30_000));
}, budgetMs(60_000));

afterAll(() => {
  if (watcher.exitCode === null) process.kill(-(watcher.pid ?? 0), 'SIGKILL');
  for (const { pid } of processesUnder(copy)) process.kill(pid, 'SIGKILL');
  removeScratchRepo(copy);
  rmSync(cacheHome, { recursive: true, force: true });
});

/** The first line from index `from` on that matches, waiting for it. */
async function nextLine(from: number, pattern: RegExp, timeoutMs = RUN_BUDGET): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = lines.slice(from).find((line) => pattern.test(line));
    if (found !== undefined) return found;
    if (Date.now() > deadline)
      throw new Error(
        `no line matching ${pattern} in ${timeoutMs} ms; lines:\n${lines.join('\n')}`,
      );
    await sleep(50);
  }
}

/** Writes the copy's IDL with `text` as the working-directory description; returns the line index to wait from. */
function saveDescription(text: string): number {
  const path = join(copy, 'protocol.idl.json');
  const idl = readFileSync(path, 'utf8').replace(
    /"(Working directory recorded|Edit )[^"]*"/,
    JSON.stringify(text),
  );
  const from = lines.length;
  writeFileSync(path, idl);
  return from;
}

interface ProcessEntry {
  readonly pid: number;
  readonly command: string;
  /** When it started (clock ticks since boot): a pid reused by another process differs in it. */
  readonly started: string;
}

/** Every process whose working directory or command line is inside `dir` (Linux /proc). */
function processesUnder(dir: string): ProcessEntry[] {
  const found: ProcessEntry[] = [];
  for (const entry of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    const pid = Number(entry);
    if (pid === process.pid) continue;
    try {
      const command = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').join(' ');
      const cwd = readlinkSync(`/proc/${pid}/cwd`);
      // The fields after the command's closing parenthesis; the start time is the 20th.
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const started = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '';
      if (cwd.startsWith(dir) || command.includes(dir)) found.push({ pid, command, started });
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return found;
}

async function waitForRunProcesses(): Promise<ProcessEntry[]> {
  const deadline = Date.now() + RUN_BUDGET;
  for (;;) {
    const running = processesUnder(copy).filter((p) => p.pid !== watcher.pid);
    if (running.some((p) => p.command.includes('vectors.batch'))) return running;
    if (Date.now() > deadline) throw new Error('the run never started its vector processes');
    await sleep(50);
  }
}

function hashTree(dir: string): string {
  const hash = createHash('sha256');
  // Files only: a Python run may add __pycache__ beside the generated modules.
  for (const entry of readdirSync(dir, { withFileTypes: true }).sort((a, b) =>
    a.name < b.name ? -1 : 1,
  ))
    if (entry.isFile()) hash.update(entry.name).update(readFileSync(join(dir, entry.name)));
  return hash.digest('hex');
}

describe('idl-gen generate --watch', () => {
  it(
    'regenerates and rechecks on a save, and prints one line: what changed, the verdict, its time',
    async () => {
      const from = saveDescription('Edit one: the working directory.');
      const line = await nextLine(from, /protocol\.idl\.json: (regenerated|no generated)/);
      expect(line).toMatch(
        /^\d\d:\d\d:\d\d protocol\.idl\.json: regenerated \d+ files \(.*docs\/protocol\.md.*\) · green in [\d.]+ s \[generated ✓, breaking ✓, TS vectors ✓, Python vectors ✓\]$/,
      );
      expect(lines.slice(from)).toStrictEqual([line]);
      expect(readFileSync(join(copy, 'docs/protocol.md'), 'utf8')).toContain(
        'Edit one: the working directory.',
      );
    },
    RUN_BUDGET,
  );

  it(
    'shows an IDL error with its pointer and line:column, keeps watching, and recovers',
    async () => {
      const path = join(copy, 'protocol.idl.json');
      const good = readFileSync(path, 'utf8');
      const broken = good.replace(
        '"params": "SessionPromptParams"',
        '"params": "SessionPromptParam"',
      );
      const offset = broken.indexOf('"params": "SessionPromptParam"');
      const lineNumber = broken.slice(0, offset).split('\n').length;
      const column = offset - broken.lastIndexOf('\n', offset - 1);
      let from = lines.length;
      writeFileSync(path, broken);
      const error = await nextLine(from, /protocol\.idl\.json: IDL error/);
      expect(error).toContain(
        `protocol.idl.json: IDL error, nothing written: protocol.idl.json:${lineNumber}:${column} /methods/1/params: unknown type "SessionPromptParam" (fix: `,
      );
      expect(watcher.exitCode).toBeNull();

      from = lines.length;
      writeFileSync(path, good);
      // The content that passed before: every step checks it again, the vector runs say it passed.
      const recovered = await nextLine(from, /protocol\.idl\.json: (regenerated|no generated)/);
      expect(recovered).toMatch(
        /· green in [\d.]+ s \[generated ✓, breaking ✓, TS vectors - \(inputs unchanged since it passed\), Python vectors - \(inputs unchanged since it passed\)\]$/,
      );
    },
    RUN_BUDGET,
  );

  it(
    'stops a run saved over, with its whole process group, and checks the newer save',
    async () => {
      const from = saveDescription('Edit two: saved over.');
      const firstRun = await waitForRunProcesses();
      saveDescription('Edit three: the one checked.');
      await nextLine(from, /protocol\.idl\.json: saved again [\d.]+ s into the run · restarted$/);
      const deadline = Date.now() + budgetMs(10_000);
      const alive = () => {
        const now = processesUnder(copy);
        return firstRun.filter((p) => now.some((q) => q.pid === p.pid && q.started === p.started));
      };
      while (alive().length > 0 && Date.now() < deadline) await sleep(50);
      expect(alive()).toStrictEqual([]);
      const verdict = await nextLine(from, /· green in/);
      expect(lines.slice(from)).toHaveLength(2);
      expect(verdict).toMatch(/protocol\.idl\.json: regenerated \d+ files/);
      expect(readFileSync(join(copy, 'docs/protocol.md'), 'utf8')).toContain(
        'Edit three: the one checked.',
      );
    },
    RUN_BUDGET,
  );

  it(
    'picks up a protocol folder added while it runs, and checks only that protocol',
    async () => {
      const generated = () =>
        hashTree(join(copy, 'packages/protocol/src/gen')) +
        hashTree(join(copy, 'python/src/dsh_sdk/_gen'));
      const before = generated();
      const idl = readFileSync(join(copy, 'protocol.idl.json'), 'utf8');
      let from = lines.length;
      mkdirSync(join(copy, 'protocols/demo'), { recursive: true });
      await sleep(300);
      writeFileSync(join(copy, 'protocols/demo/protocol.idl.json'), idl);
      const line = await nextLine(from, /protocols\/demo\/protocol\.idl\.json:/);
      // Without a protocol.targets.json nothing can be generated: the line says so, and how to fix it.
      expect(line).toMatch(
        /protocols\/demo\/protocol\.idl\.json: no generated file changed · FAILED in [\d.]+ s \[generated ✗, breaking ✗, TS vectors - \(vectors in package suites\), Python vectors - \(vectors in package suites\)\]: generated protocols\/demo\/protocol\.idl\.json has no protocol\.targets\.json beside it: add one/,
      );
      from = lines.length;
      writeFileSync(join(copy, 'protocols/demo/protocol.idl.json'), idl.slice(0, 200));
      const error = await nextLine(from, /protocols\/demo\/protocol\.idl\.json: IDL error/);
      expect(error).toMatch(
        /IDL error, nothing written: protocols\/demo\/protocol\.idl\.json:\d+:\d+ \/: not valid JSON/,
      );
      expect(generated()).toBe(before);
    },
    RUN_BUDGET,
  );

  it(
    'names a failing check in its line and keeps the whole output in a log',
    async () => {
      const vector = join(
        copy,
        'test-vectors/messages/initialize/capabilities-with-unknown-key.ndjson',
      );
      const original = readFileSync(vector, 'utf8');
      writeFileSync(
        vector,
        original.replace('"protocolVersion":3}}', '"protocolVersion":"three"}}'),
      );
      const from = saveDescription('Edit four: with a broken vector.');
      const line = await nextLine(from, /protocol\.idl\.json: regenerated/);
      writeFileSync(vector, original);
      expect(line).toMatch(
        /· FAILED in [\d.]+ s \[generated ✓, breaking ✓, TS vectors ✗, Python vectors ✗\]: (TS|Python) vectors \d+ failed, \d+ passed; full output in .+\.log$/,
      );
      const log = /full output in (.+\.log)$/.exec(line)?.[1] ?? '';
      expect(readFileSync(isAbsolute(log) ? log : join(copy, log), 'utf8')).toContain(
        'test_delivered_frames_are_valid_and_round_trip[messages/initialize/capabilities-with-unknown-key]',
      );
    },
    RUN_BUDGET,
  );

  it(
    'stops on Ctrl-C during a run and leaves no process behind',
    async () => {
      saveDescription('Edit five: interrupted.');
      await waitForRunProcesses();
      process.kill(-(watcher.pid ?? 0), 'SIGINT');
      expect(await exited).toBe(130);
      expect(processesUnder(copy)).toStrictEqual([]);
    },
    RUN_BUDGET,
  );
});
