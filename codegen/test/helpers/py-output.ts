// Reading a generated Python file in tests: a block of its lines, and ruff's verdict on it as
// `pnpm lint:py` gives it for the files under _gen/.
import { execFileSync } from 'node:child_process';
import { expect } from 'vitest';
import { pythonDir, venvRuff } from './python-tools.js';

/** The lines from the one equal to `first` up to the next blank line. */
export function block(lines: string[], first: string): string[] {
  const start = lines.indexOf(first);
  expect(start, first).toBeGreaterThanOrEqual(0);
  const end = lines.indexOf('', start);
  return lines.slice(start, end < 0 ? undefined : end);
}

/** Expects `source` formatted and lint-clean as ruff checks `src/dsh_sdk/_gen/<name>`. */
export function expectRuffClean(source: string, name: string): void {
  const run = (args: string[]) =>
    execFileSync(venvRuff, [...args, '--stdin-filename', `src/dsh_sdk/_gen/${name}`, '-'], {
      cwd: pythonDir,
      input: source,
      encoding: 'utf8',
    });
  expect(() => run(['format', '--check', '--no-cache'])).not.toThrow();
  expect(() => run(['check', '--no-cache'])).not.toThrow();
}
