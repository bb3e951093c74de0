// tsc does not copy the generated ajv standalone JavaScript; this puts it beside the compiled code.
import { cpSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

const [from, to] = process.argv.slice(2);
mkdirSync(to, { recursive: true });
for (const name of readdirSync(from)) {
  if (name.endsWith('.gen.js') || name.endsWith('.gen.d.ts'))
    cpSync(join(from, name), join(to, name));
}
