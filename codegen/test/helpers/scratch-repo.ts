// A scratch copy of the whole repository (every file git tracks or would track, as it is in the
// working tree), with the installs linked rather than copied: tests edit the copy's IDL and
// vectors, never the real ones, and run the real tools on it.
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, realpathSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const REPO = realpathSync(new URL('../../..', import.meta.url).pathname);

/**
 * Installs the tools need, linked into the copy. Not the root node_modules: its `.bin/idl-gen`
 * runs the real repository's codegen, which writes the real repository.
 */
const LINKED = ['.tools', 'packages/protocol/node_modules', 'codegen/node_modules', 'python/.venv'];

export function makeScratchRepo(prefix: string): string {
  const copy = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  const files = execFileSync(
    'git',
    ['ls-files', '--cached', '--others', '--exclude-standard', '-z'],
    {
      cwd: REPO,
      encoding: 'utf8',
    },
  )
    .split('\0')
    .filter((file) => file !== '' && existsSync(join(REPO, file)));
  for (const file of files) cpSync(join(REPO, file), join(copy, file), { recursive: true });
  for (const path of LINKED) symlinkSync(join(REPO, path), join(copy, path));
  return copy;
}

export function removeScratchRepo(copy: string): void {
  rmSync(copy, { recursive: true, force: true });
}
