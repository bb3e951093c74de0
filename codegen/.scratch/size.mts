import { loadProtocols } from '../src/protocols/load-protocol.js';
import { buildSchemaBundle } from '../src/schema/bundle.js';
import { tsValidatorsEmitter } from '../src/emit/ts-validators.js';
import type { Model } from '../src/idl/model.js';
const [p] = loadProtocols('/work/wt/i26-codegen', 'acp');
const size = async (model: Model) => {
  const bundle = buildSchemaBundle(model, p!.targets.schemaId);
  const [js] = await tsValidatorsEmitter.emit({ model, bundle, target: p!.targets });
  return js!.content.length;
};
console.log('as is', await size(p!.model));
const strip = (m: Model, pred: (k: string, v: any) => boolean): Model => ({ ...m, types: m.types.map((t) => {
  const props = t.schema['properties'] as Record<string, any> | undefined;
  if (!props) return t;
  const kept = Object.fromEntries(Object.entries(props).filter(([k, v]) => !pred(k, v)));
  return { ...t, schema: { ...t.schema, properties: kept } };
}) });
console.log('no _meta', await size(strip(p!.model, (k) => k === '_meta')));
const noLenient = { ...p!.model, types: p!.model.types.map((t) => ({ ...t, schema: JSON.parse(JSON.stringify(t.schema).replace(/"x-deserialize-[a-z-]+":true,?/g, '').replace(/,}/g, '}')) })) };
console.log('no lenient', await size(noLenient));
