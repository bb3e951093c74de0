import { loadProtocols } from '../src/protocols/load-protocol.js';
import { buildSchemaBundle } from '../src/schema/bundle.js';
import { EMITTERS } from '../src/emit/registry.js';
import { hasTarget } from '../src/emit/emitter.js';
const name = process.argv[2] ?? 'acp';
const t0 = performance.now();
const [p] = loadProtocols('/work/wt/i26-codegen', name);
const bundle = buildSchemaBundle(p!.model, p!.targets.schemaId);
console.log('load', (performance.now()-t0).toFixed(0));
for (const e of EMITTERS) { if (!hasTarget(p!.targets, e.target)) continue; const t = performance.now(); const out = await e.emit({model: p!.model, bundle, releases: [], target: p!.targets}); console.log(e.name, (performance.now()-t).toFixed(0), out.map(o => o.content.length).join(',')); }
