import { fileURLToPath } from 'node:url';

/**
 * The reference runtime's launcher, `bin/dsh-sdk-runtime` at the repository root, found from
 * this module (`packages/client/{src,dist}/`), so it works from any working directory.
 */
export const REFERENCE_RUNTIME_LAUNCHER = fileURLToPath(
  new URL('../../../bin/dsh-sdk-runtime', import.meta.url),
);

/** The Python twin's launcher, `bin/dsh-sdk-runtime-py`. */
export const PYTHON_RUNTIME_LAUNCHER = fileURLToPath(
  new URL('../../../bin/dsh-sdk-runtime-py', import.meta.url),
);
