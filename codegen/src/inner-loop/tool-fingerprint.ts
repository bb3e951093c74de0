// What a cache key or a recorded pass must know about an installed Python environment besides
// the sources: the interpreter's version and every distribution in the venv, by name and version.
import { existsSync, readFileSync, readdirSync, realpathSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The fingerprint of the venv a tool's executable (e.g. pipx's datamodel-codegen link) lives in. */
export function pythonToolFingerprint(executable: string): string[] {
  try {
    return venvFingerprint(dirname(dirname(realpathSync(executable))));
  } catch {
    return [];
  }
}

/** `python X.Y.Z` from pyvenv.cfg, then each `name-version.dist-info` of its site-packages. */
export function venvFingerprint(venv: string): string[] {
  const config = join(venv, 'pyvenv.cfg');
  const interpreter = existsSync(config)
    ? (/^version(?:_info)?\s*=\s*(.+)$/m.exec(readFileSync(config, 'utf8'))?.[1] ?? '')
    : '';
  const lib = join(venv, 'lib');
  const distributions = existsSync(lib)
    ? readdirSync(lib).flatMap((python) => {
        const sitePackages = join(lib, python, 'site-packages');
        if (!existsSync(sitePackages)) return [];
        return readdirSync(sitePackages).filter((name) => name.endsWith('.dist-info'));
      })
    : [];
  return [`python ${interpreter.trim()}`, ...distributions.sort()];
}
