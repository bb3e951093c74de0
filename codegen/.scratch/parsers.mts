import { readFileSync } from 'node:fs';
import { format } from 'prettier';
const text = readFileSync('/work/wt/i26-codegen/packages/acp/src/gen/validators.gen.js', 'utf8');
const opts = { printWidth: 100, singleQuote: true, trailingComma: 'all' } as const;
for (const parser of ['babel', 'acorn', 'meriyah', 'espree', 'babel', 'acorn']) {
  const t = process.cpuUsage().user;
  const out = await format(text, { ...opts, parser });
  console.log(parser, ((process.cpuUsage().user - t) / 1000).toFixed(0), out === text);
}
