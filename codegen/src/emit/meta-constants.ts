// The numeric limits of the IDL's `meta` that the constants modules of both languages export and
// the protocol reference lists.
import type { Meta } from '../idl/model.js';

export interface MetaConstant {
  /** The member of `meta` that holds the value. */
  readonly key: 'defaultMaxFrameBytes' | 'maxNestingDepth' | 'maxSafeInteger';
  /** The constant's name in both languages. */
  readonly name: string;
  /** Its doc comment. */
  readonly doc: string;
}

export const META_CONSTANTS: readonly MetaConstant[] = [
  {
    key: 'defaultMaxFrameBytes',
    name: 'DEFAULT_MAX_FRAME_BYTES',
    doc: 'Default frame size limit in bytes, counted without the `\\n`.',
  },
  {
    key: 'maxNestingDepth',
    name: 'MAX_NESTING_DEPTH',
    doc: 'The deepest a line may nest, the frame object counting as level 1; a deeper line is `nesting-too-deep`.',
  },
  {
    key: 'maxSafeInteger',
    name: 'MAX_SAFE_INTEGER',
    doc: 'The largest magnitude of any number a payload carries (2^53−1): beyond it JavaScript and Python read numbers differently.',
  },
];

export function metaValue(meta: Meta, constant: MetaConstant): number {
  return meta[constant.key];
}
