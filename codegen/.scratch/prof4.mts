import { format, resolveConfig } from 'prettier';
import { loadProtocols } from '../src/protocols/load-protocol.js';
import { buildSchemaBundle } from '../src/schema/bundle.js';
import { EMITTERS } from '../src/emit/registry.js';
import { hasTarget } from '../src/emit/emitter.js';
const name = process.argv[2] ?? 'acp';
const cpu = () => process.cpuUsage().user / 1000;
let c = cpu();
const [p] = loadProtocols('/work/wt/i26-codegen', name);
const bundle = buildSchemaBundle(p!.model, p!.targets.schemaId);
console.log('load', (cpu() - c).toFixed(0));
const config = (await resolveConfig('/work/wt/i26-codegen/package.json')) ?? {};
const parsers: Record<string, string> = { ts: 'typescript', js: 'babel', md: 'markdown', json: 'json' };
for (const e of EMITTERS) {
  if (!hasTarget(p!.targets, e.target)) continue;
  c = cpu();
  const out = await e.emit({ model: p!.model, bundle, releases: [], target: p!.targets });
  const emitMs = cpu() - c;
  c = cpu();
  for (const o of out) if (parsers[o.language]) await format(o.content, { ...config, parser: parsers[o.language] });
  console.log(e.name.padEnd(14), 'emit', emitMs.toFixed(0).padStart(6), 'prettier', (cpu() - c).toFixed(0).padStart(6));
}
