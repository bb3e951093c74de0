import { readFileSync } from 'node:fs';
import { loadProtocols } from '../src/protocols/load-protocol.js';
import { buildSchemaBundle } from '../src/schema/bundle.js';
import { refName } from '../src/idl/model.js';
import { withoutIdlAnnotations } from '../src/emit/ts-types.js';
const name = process.argv[2] ?? 'dsh';
const file = process.argv[3];
const [p] = loadProtocols('/work/wt/i26-codegen', name);
const bundle = buildSchemaBundle(p!.model, p!.targets.schemaId);
const { definitions: d, ...root } = bundle;
const defs = withoutIdlAnnotations(d) as Record<string, object>;
const order: string[] = [];
const seen = new Set<string>();
const refsOf = (node: unknown, out: string[]) => {
  if (Array.isArray(node)) { node.forEach((n) => refsOf(n, out)); return; }
  if (typeof node !== 'object' || node === null) return;
  const r = refName(node); if (r) { out.push(r); return; }
  for (const [k, v] of Object.entries(node)) if (k !== 'examples') refsOf(v, out);
};
const visit = (n: string) => { if (seen.has(n)) return; seen.add(n); order.push(n); const out: string[] = []; refsOf(defs[n], out); out.forEach(visit); };
const rootRefs: string[] = []; refsOf(root, rootRefs); order.push('ProtocolFrame'); rootRefs.forEach(visit);
for (const n of Object.keys(defs)) visit(n);
const actual = [...readFileSync(file!, 'utf8').matchAll(/^export (?:type|interface) (\w+)/gm)].map((m) => m[1]);
console.log(actual.length, order.length);
let i = 0; for (; i < actual.length; i++) if (actual[i] !== order[i]) break;
console.log('first mismatch at', i, actual.slice(i, i + 5), order.slice(i, i + 5));
