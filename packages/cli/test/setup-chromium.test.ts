// scripts/setup-chromium.sh as two set-ups run it at once on a machine without Chromium: a stand-in
// apt-get on the PATH behaves as dpkg does (a second apt-get while one runs fails on the lock)
// and "installs" a stand-in Chromium, so the script's real locking and re-checking are exercised.
import { spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, expect, test } from 'vitest';
import { REPO_ROOT } from './helpers/cli.js';

const SCRIPT = join(REPO_ROOT, 'scripts/setup-chromium.sh');
const scratches: string[] = [];

afterEach(() => {
  for (const dir of scratches.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A folder with a stand-in apt-get; its log lists the subcommands that ran. */
function fakeMachine(): { dir: string; chromium: string; log: string; env: NodeJS.ProcessEnv } {
  const dir = mkdtempSync(join(tmpdir(), 'dsh-sdk-setup-chromium-'));
  scratches.push(dir);
  const chromium = join(dir, 'chromium');
  const log = join(dir, 'apt.log');
  // mkdir is atomic: a second apt-get while the first holds the "lock" fails as dpkg's does.
  const aptGet = `#!/bin/sh
mkdir "${dir}/dpkg.lock" 2>/dev/null || { echo "E: Could not get lock ${dir}/dpkg.lock" >&2; exit 100; }
for arg; do case "$arg" in update|install) echo "$arg" >> "${log}";; esac; done
sleep 0.3
case " $* " in *" install "*) printf '#!/bin/sh\\necho Chromium 1.0\\n' > "${chromium}"; chmod +x "${chromium}";; esac
rmdir "${dir}/dpkg.lock"
`;
  writeFileSync(join(dir, 'apt-get'), aptGet);
  chmodSync(join(dir, 'apt-get'), 0o755);
  const env = {
    ...process.env,
    PATH: `${dir}:${process.env['PATH'] ?? ''}`,
    DSH_SDK_CHROMIUM: chromium,
    DSH_SDK_SETUP_LOCK: join(dir, 'setup.lock'),
  };
  return { dir, chromium, log, env };
}

function runScript(env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', [SCRIPT], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

test.runIf(process.getuid?.() === 0)(
  'two set-ups at once both succeed and install Chromium once',
  async () => {
    const machine = fakeMachine();
    const runs = await Promise.all([runScript(machine.env), runScript(machine.env)]);
    for (const run of runs) expect(run, run.output).toMatchObject({ code: 0 });
    expect(existsSync(machine.chromium)).toBe(true);
    expect(readFileSync(machine.log, 'utf8').split('\n').filter(Boolean)).toEqual([
      'update',
      'install',
    ]);
  },
);

test('a machine that already has Chromium runs no installer', async () => {
  const machine = fakeMachine();
  writeFileSync(machine.chromium, '#!/bin/sh\necho Chromium 1.0\n');
  chmodSync(machine.chromium, 0o755);
  const run = await runScript(machine.env);
  expect(run).toEqual({ code: 0, output: '' });
  expect(existsSync(machine.log)).toBe(false);
});
