import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { RuntimeNotInstalledError } from './errors.js';

/** The package that holds the reference runtime: this package's optional peer dependency. */
export const RUNTIME_PACKAGE = '@dsh-sdk/runtime';
/** The name of the runtime's executable in that package's `bin`. */
export const RUNTIME_BIN = 'dsh-sdk-runtime';

/**
 * The default runtime command of `HarnessClient.spawn`: the `dsh-sdk-runtime` bin of the
 * installed `@dsh-sdk/runtime`, run by this Node.js (so no PATH lookup is involved). Throws
 * {@link RuntimeNotInstalledError}, before anything is spawned, when the package is not installed.
 */
export function defaultRuntimeCommand(): readonly string[] {
  let manifestPath: string;
  try {
    // ESM resolution, as the user's own `import` would resolve it (NODE_PATH plays no part).
    manifestPath = fileURLToPath(import.meta.resolve(`${RUNTIME_PACKAGE}/package.json`));
  } catch (error) {
    throw new RuntimeNotInstalledError(RUNTIME_PACKAGE, error);
  }
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as {
    bin?: Record<string, string>;
  };
  const bin = manifest.bin?.[RUNTIME_BIN];
  if (bin === undefined) {
    const cause = new Error(`${manifestPath} declares no bin named ${RUNTIME_BIN}`);
    throw new RuntimeNotInstalledError(RUNTIME_PACKAGE, cause);
  }
  return [process.execPath, join(dirname(manifestPath), bin)];
}

/**
 * The reference runtime's launcher in a checkout of the repository, `bin/dsh-sdk-runtime`, found
 * from this module (`packages/client/{src,dist}/`). Meaningful only in a checkout; the demo and
 * the repository's tests use it.
 */
export const REFERENCE_RUNTIME_LAUNCHER = fileURLToPath(
  new URL('../../../bin/dsh-sdk-runtime', import.meta.url),
);

/** The Python twin's launcher in a checkout, `bin/dsh-sdk-runtime-py`. */
export const PYTHON_RUNTIME_LAUNCHER = fileURLToPath(
  new URL('../../../bin/dsh-sdk-runtime-py', import.meta.url),
);
