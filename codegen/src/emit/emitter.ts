// The contract every emitter follows: model in, files out. Emitters never touch the disk.
import type { Model } from '../idl/model.js';
import type { OutputFile } from '../printer/generated-file.js';
import type { ReleasedVersion } from '../release/released-files.js';
import type { SchemaBundle } from '../schema/bundle.js';

export interface EmitContext {
  readonly model: Model;
  /** The JSON Schema bundle, built once from the model. */
  readonly bundle: SchemaBundle;
  /** The released protocol versions frozen under protocol/released/, oldest first (none when absent). */
  readonly releases?: readonly ReleasedVersion[];
}

export interface Emitter {
  /** The module name under codegen/src/emit, used in file headers. */
  readonly name: string;
  emit(context: EmitContext): OutputFile[] | Promise<OutputFile[]>;
}

export const TS_GEN_DIR = 'packages/protocol/src/gen';
export const PY_GEN_DIR = 'python/src/dsh_sdk/_gen';
