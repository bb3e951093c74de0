import { readFileSync } from 'node:fs';
import { loadProtocols } from '../src/protocols/load-protocol.js';
import { buildSchemaBundle } from '../src/schema/bundle.js';
import { refName } from '../src/idl/model.js';
import { withoutIdlAnnotations } from '../src/emit/ts-types.js';
const [name, file, mode] = process.argv.slice(2);
const [p] = loadProtocols('/work/wt/i26-codegen', name!);
const bundle = buildSchemaBundle(p!.model, p!.targets.schemaId);
const { definitions: d, ...root } = bundle;
const defs = withoutIdlAnnotations(d) as Record<string, Record<string, unknown>>;
const order: string[] = []; const seen = new Set<string>();
const refsOf = (node: unknown, out: string[]) => {
  if (Array.isArray(node)) { node.forEach((n) => refsOf(n, out)); return; }
  if (typeof node !== 'object' || node === null) return;
  const r = refName(node); if (r) { out.push(r); return; }
  for (const [k, v] of Object.entries(node)) if (k !== 'examples') refsOf(v, out);
};
const isUnion = (n: string) => Array.isArray(defs[n]?.['anyOf']);
// own compile: declare D, then unions reached through union-to-union references (anyOf members)
const walk = (n: string, visited: Set<string>) => {
  const s = defs[n]; if (!s) return;
  const members = Array.isArray(s['anyOf']) ? (s['anyOf'] as unknown[]).map(refName).filter(Boolean) as string[] : [];
  for (const m of members) { if (visited.has(m)) continue; visited.add(m); if (isUnion(m)) { if (!seen.has(m)) { seen.add(m); order.push(m); } walk(m, visited); } }
};
const compile = (n: string) => { if (!seen.has(n)) { seen.add(n); order.push(n); } walk(n, new Set([n])); };
order.push('ProtocolFrame'); seen.add('ProtocolFrame');
for (const n of Object.keys(defs)) compile(n);
const actual = [...readFileSync(file!, 'utf8').matchAll(/^export (?:type|interface) (\w+)/gm)].map((m) => m[1]);
let i = 0; for (; i < actual.length; i++) if (actual[i] !== order[i]) break;
console.log(actual.length, order.length, 'first mismatch at', i, actual.slice(i, i + 4), order.slice(i, i + 4));
