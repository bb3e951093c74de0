// IDL → protocol.schema.json, written beside the TypeScript and the Python bindings.
import { headerLines } from '../printer/generated-file.js';
import { withNumberRule } from '../schema/number-rule.js';
import type { Emitter } from './emitter.js';
import { PY_GEN_DIR, TS_GEN_DIR } from './emitter.js';

export const jsonSchemaEmitter: Emitter = {
  name: 'json-schema',
  emit({ model, bundle }) {
    // Published with the number rule, so general-purpose validators hold open content to it too.
    const { $schema, $id, ...rest } = withNumberRule(bundle, model);
    const document = { $schema, $id, $comment: headerLines('json-schema').join(' '), ...rest };
    const content = `${JSON.stringify(document, null, 2)}\n`;
    return [TS_GEN_DIR, PY_GEN_DIR].map((dir) => ({
      path: `${dir}/protocol.schema.json`,
      content,
      language: 'json' as const,
    }));
  },
};
