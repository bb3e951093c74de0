// `node bench/src/inner-loop.mjs [--rounds N] [--base REF]`: the contributor's inner loop, timed
// as they run it. Each round makes a different one-line edit to the IDL of a scratch copy of the
// repository (never the real one), regenerates (`idl-gen generate`, what `pnpm generate` runs
// through turbo), then times `pnpm test:quick`. Side by side, in alternating order, the same
// round on a copy of REF (default: main; `--base ''` for none), whose test:quick is the one
// before this work. Prints every time, the median and min–max, the CPU time (user + system, every
// process of the run: on a loaded machine the part of the time that is the run's own), and the
// load average.
import { execFileSync, spawnSync } from 'node:child_process';
import {
  chmodSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';

const repo = new URL('../..', import.meta.url).pathname;
const pnpm = join(repo, '.tools/bin/pnpm');
/** Installs linked into each copy (content-addressed caches included: a contributor's are warm). */
const LINKED = [
  '.tools',
  'packages/protocol/node_modules',
  'codegen/node_modules',
  'python/.venv',
  'node_modules/.cache',
];
/** The line each round edits: a description, so every generated file that carries it changes. */
const EDITED = /"Working directory recorded for SDK-created sessions[^"]*"/;

const { values } = parseArgs({
  options: { rounds: { type: 'string', default: '5' }, base: { type: 'string', default: 'main' } },
  strict: true,
});
const rounds = Number(values.rounds);

/** A copy of the working tree (or of `ref`, from git) with the installs linked. */
function scratchCopy(ref) {
  const copy = mkdtempSync(join(os.tmpdir(), 'bench-inner-loop-'));
  if (ref) {
    execFileSync('bash', ['-c', `git -C "${repo}" archive "${ref}" | tar -x -C "${copy}"`]);
  } else {
    const files = execFileSync(
      'git',
      ['ls-files', '--cached', '--others', '--exclude-standard', '-z'],
      {
        cwd: repo,
        encoding: 'utf8',
      },
    );
    for (const file of files.split('\0').filter((f) => f && existsSync(join(repo, f))))
      cpSync(join(repo, file), join(copy, file));
  }
  mkdirSync(join(copy, 'node_modules/.bin'), { recursive: true });
  for (const path of LINKED) symlinkSync(join(repo, path), join(copy, path));
  // The copy's own idl-gen: the real node_modules/.bin/idl-gen runs (and writes) the real repository.
  const shim = join(copy, 'node_modules/.bin/idl-gen');
  writeFileSync(shim, `#!/bin/sh\nexec node "${copy}/codegen/bin/idl-gen.mjs" "$@"\n`);
  chmodSync(shim, 0o755);
  return copy;
}

/** GNU time reports the CPU time of the run and of every process it waited for. */
const TIME = '/usr/bin/time';

function run(copy, args) {
  const cpuFile = join(copy, '.bench-cpu');
  const [file, argv] = existsSync(TIME)
    ? [TIME, ['-f', '%U %S', '-o', cpuFile, pnpm, ...args]]
    : [pnpm, args];
  const started = process.hrtime.bigint();
  const result = spawnSync(file, argv, { cwd: copy, encoding: 'utf8', maxBuffer: 64 << 20 });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.status !== 0)
    throw new Error(`${args.join(' ')} failed in ${copy}:\n${result.stdout}${result.stderr}`);
  const cpu = existsSync(cpuFile)
    ? readFileSync(cpuFile, 'utf8')
        .trim()
        .split(/\s+/)
        .reduce((sum, part) => sum + Number(part), 0)
    : NaN;
  return { seconds, cpu, out: result.stdout };
}

function editIdl(copy, round) {
  const path = join(copy, 'protocol.idl.json');
  const idl = readFileSync(path, 'utf8');
  if (!EDITED.test(idl)) throw new Error(`${EDITED} is no longer in the IDL: pick another line`);
  const text = `"Working directory recorded for SDK-created sessions (edit ${round} at ${Date.now()})."`;
  writeFileSync(path, idl.replace(EDITED, text));
}

const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

const copies = {};
const times = {};
const cpuTimes = {};
const generateTimes = {};
try {
  for (const [name, ref] of [
    ['this tree', null],
    ...(values.base ? [[values.base, values.base]] : []),
  ]) {
    copies[name] = scratchCopy(ref);
    times[name] = [];
    cpuTimes[name] = [];
    generateTimes[name] = [];
  }
  console.log(`inner loop: ${rounds} rounds, ${os.cpus().length} cores; load average ${load()}`);
  for (let round = 0; round < rounds; round++) {
    const names = Object.keys(copies);
    const order = round % 2 === 0 ? names : [...names].reverse();
    for (const name of order) {
      editIdl(copies[name], round);
      generateTimes[name].push(run(copies[name], ['-s', 'exec', 'idl-gen', 'generate']).seconds);
      const { seconds, cpu } = run(copies[name], ['-s', 'test:quick']);
      times[name].push(seconds);
      cpuTimes[name].push(cpu);
      console.log(
        `  round ${round + 1} ${name.padEnd(10)} test:quick ${seconds.toFixed(1)} s, ` +
          `CPU ${cpu.toFixed(1)} s  (load ${load()})`,
      );
    }
  }
  for (const name of Object.keys(copies)) {
    const xs = times[name];
    console.log(
      `${name.padEnd(10)} test:quick after a one-line IDL edit: median ${median(xs).toFixed(1)} s, ` +
        `min–max ${Math.min(...xs).toFixed(1)}–${Math.max(...xs).toFixed(1)} s, ` +
        `CPU median ${median(cpuTimes[name]).toFixed(1)} s; ` +
        `idl-gen generate before it: median ${median(generateTimes[name]).toFixed(1)} s`,
    );
  }
  console.log(`load average at the end: ${load()}`);
} finally {
  for (const copy of Object.values(copies)) rmSync(copy, { recursive: true, force: true });
}
