// The Python tools these tests run come from set-up (python/.venv). Outside CI a checkout
// without them skips those tests; under CI=true a missing tool fails them, as test-py.sh does,
// so a broken set-up cannot pass as a green run.
import { execFileSync } from 'node:child_process';

const pythonDir = new URL('../../../python/', import.meta.url).pathname;

export const venvPython = `${pythonDir}.venv/bin/python`;
export const venvRuff = `${pythonDir}.venv/bin/ruff`;
export { pythonDir };

function runs(executable: string): boolean {
  try {
    execFileSync(executable, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** Whether to skip the tests that need `executable`: only outside CI, and only when it is missing. */
export function skipWithout(executable: string): boolean {
  if (runs(executable)) return false;
  if (process.env['CI'] === 'true') {
    // Not skipped: the test runs and fails on the missing executable, naming it.
    console.error(`${executable} is missing under CI=true: run bash scripts/setup.sh`);
    return false;
  }
  return true;
}
