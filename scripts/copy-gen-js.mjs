// tsc does not copy the generated ajv standalone JavaScript, nor the schema bundle; this puts them
// beside the compiled code.
import { cpSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const [from, to] = process.argv.slice(2);
mkdirSync(to, { recursive: true });
for (const name of readdirSync(from)) {
  if (name.endsWith('.gen.js') || name.endsWith('.gen.d.ts') || name.endsWith('.schema.json'))
    cpSync(join(from, name), join(to, name));
}
