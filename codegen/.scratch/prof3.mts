import { format } from 'prettier';
import { loadProtocols } from '../src/protocols/load-protocol.js';
import { buildSchemaBundle } from '../src/schema/bundle.js';
import { docsEmitter } from '../src/emit/docs.js';
const [p] = loadProtocols('/work/wt/i26-codegen', 'acp');
const bundle = buildSchemaBundle(p!.model, p!.targets.schemaId);
const [md] = await docsEmitter.emit({ model: p!.model, bundle, target: p!.targets, releases: [] });
const text = md!.content;
for (const n of [20000, 40000, 80000]) {
  const t = performance.now();
  await format(text.slice(0, n), { parser: 'markdown', printWidth: 100, singleQuote: true, trailingComma: 'all' });
  console.log(n, 'prettier md', (performance.now() - t).toFixed(0));
}
