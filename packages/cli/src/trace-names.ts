// Names for the inspector's traces: the file a download is saved as (the runtime's name and when
// it started) and where `--out` puts each run's.
import { basename, join, parse } from 'node:path';
import { LAUNCHERS } from './launchers.js';

/**
 * Words of a command line that start the runtime rather than name it: launchers, their
 * subcommands, interpreters.
 */
const STARTING_WORDS: ReadonlySet<string> = new Set([
  ...LAUNCHERS,
  'exec',
  'dlx',
  'run',
  'node',
  'deno',
]);

/** A package spec or file as a name: `@dsh-sdk/runtime@1.0` → `dsh-sdk-runtime`, `x/a.mjs` → `a`. */
function nameOf(word: string): string {
  const spec = word.startsWith('@') ? word.slice(1).replace('/', '-') : basename(word);
  const name = spec.replace(/@[^@]*$/, '').replace(/\.(?:[cm]?js|ts|py|sh)$/, '');
  return name.replace(/[^\w.-]+/g, '_') || 'runtime';
}

/**
 * The runtime's name, from its command line past the launchers and their options:
 * `npx -y dsh-sdk-runtime` → `dsh-sdk-runtime`, `node test/dies-mid-turn.mjs` → `dies-mid-turn`,
 * `python -m dsh_sdk.runtime` → `dsh_sdk.runtime`, `FOO=1 env bin/x` → `x`.
 */
export function runtimeName(command: readonly string[]): string {
  for (let i = 0; i < command.length; i++) {
    const word = command[i]!;
    if (word === '-m' && command[i + 1] !== undefined) return nameOf(command[i + 1]!);
    const base = basename(word);
    const skipped =
      word.startsWith('-') ||
      /^[A-Za-z_]\w*=/.test(word) ||
      STARTING_WORDS.has(base) ||
      /^python[\d.]*$/.test(base);
    if (!skipped) return nameOf(word);
  }
  return 'runtime';
}

/** Local time as `20260305-140509`. */
function stamp(epochMs: number): string {
  const d = new Date(epochMs);
  const two = (n: number): string => String(n).padStart(2, '0');
  const date = `${d.getFullYear()}${two(d.getMonth() + 1)}${two(d.getDate())}`;
  return `${date}-${two(d.getHours())}${two(d.getMinutes())}${two(d.getSeconds())}`;
}

/** What a run's trace downloads as: `dsh-sdk-runtime-20260305-140509.trace.ndjson`. */
export function traceFileName(command: readonly string[], startedAt: number): string {
  return `${runtimeName(command)}-${stamp(startedAt)}.trace.ndjson`;
}

/** `--out FILE` holds the first run's trace; a restart's goes next to it (`x-2.ndjson`). */
export function tracePathFor(out: string, run: number): string {
  if (run === 1) return out;
  const { dir, name, ext } = parse(out);
  return join(dir, `${name}-${run}${ext}`);
}
