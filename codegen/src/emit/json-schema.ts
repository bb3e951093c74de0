// IDL → protocol.schema.json, written beside the TypeScript and the Python bindings.
import { headerLines } from '../printer/generated-file.js';
import { withNumberRule } from '../schema/number-rule.js';
import type { Emitter } from './emitter.js';

export const jsonSchemaEmitter: Emitter = {
  name: 'json-schema',
  target: 'schema',
  emit({ model, bundle, target }) {
    // Published with the number rule, so general-purpose validators hold open content to it too.
    const { $schema, $id, ...rest } = withNumberRule(bundle, model);
    const $comment = headerLines('json-schema', target.idlPath).join(' ');
    const content = `${JSON.stringify({ $schema, $id, $comment, ...rest }, null, 2)}\n`;
    const dirs = [target.typescript?.genDir, target.python?.genDir].filter((d) => d !== undefined);
    return dirs.map((dir) => ({
      path: `${dir}/protocol.schema.json`,
      content,
      language: 'json' as const,
    }));
  },
};
