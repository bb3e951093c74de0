// Schema bundle → TypeScript payload types, by json-schema-to-typescript.
// Each definition is compiled on its own (references printed by name) so the output follows IDL order
// and includes types no frame reaches, such as the -32602 violation list.
import { compile, type Options } from 'json-schema-to-typescript';
import type { Emitter } from './emitter.js';
import { TS_GEN_DIR } from './emitter.js';
import { commentedHeader } from '../printer/generated-file.js';

const OPTIONS: Partial<Options> = {
  bannerComment: '',
  additionalProperties: false,
  declareExternallyReferenced: false,
  enableConstEnums: false,
  ignoreMinAndMaxItems: true,
  format: false,
  unknownAny: true,
};

export const tsTypesEmitter: Emitter = {
  name: 'ts-types',
  async emit({ bundle }) {
    const { definitions, ...root } = bundle;
    const parts: string[] = [commentedHeader('ts-types', 'ts')];
    const compileOne = (schema: object, name: string) =>
      compile({ ...structuredClone(schema), definitions: structuredClone(definitions) } as never, name, OPTIONS);
    parts.push(await compileOne(root, 'ProtocolFrame'));
    for (const [name, schema] of Object.entries(definitions)) parts.push(await compileOne(schema, name));
    return [{ path: `${TS_GEN_DIR}/types.gen.ts`, content: parts.join('\n'), language: 'ts' }];
  },
};
