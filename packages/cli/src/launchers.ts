// Programs that start another program, and may stay its parent while it runs: package runners,
// `env`, shells. The runtime's name is looked for past them (trace-names.ts), and a process
// running one may still be starting the runtime (runtime-tracker.ts).
import { basename } from 'node:path';

export const LAUNCHERS: ReadonlySet<string> = new Set([
  'npm',
  'npx',
  'pnpm',
  'pnpx',
  'yarn',
  'bun',
  'bunx',
  'uv',
  'uvx',
  'pipx',
  'poetry',
  'env',
  'sh',
  'bash',
  'dash',
  'zsh',
]);

/** Whether a command line's program (its first word) is a launcher. */
export function startsWithLauncher(command: string): boolean {
  return LAUNCHERS.has(basename(command.split(' ')[0] ?? ''));
}
