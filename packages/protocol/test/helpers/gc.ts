import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

// Memory checks need a full collection; this exposes `gc` without a command-line flag.
setFlagsFromString('--expose-gc');
const exposedGc: unknown = runInNewContext('gc');
if (typeof exposedGc !== 'function') throw new Error('could not expose gc');

/** Runs a full garbage collection. */
export const gc = exposedGc as () => void;
