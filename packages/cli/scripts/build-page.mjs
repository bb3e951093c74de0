// Builds the page: page/main.ts (and what it imports, CSS included) bundled by esbuild into one
// script and one style sheet, inlined into page/template.html → dist/page.html. No network at run
// time: the page is a single file.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const result = await build({
  entryPoints: [join(root, 'page/main.ts')],
  bundle: true,
  write: false,
  format: 'iife',
  target: 'es2022',
  platform: 'browser',
  outdir: join(root, 'dist/page-build'),
  minify: false,
  legalComments: 'none',
  logLevel: 'warning',
});
const output = (ending) => {
  const file = result.outputFiles.find((f) => f.path.endsWith(ending));
  if (!file) throw new Error(`esbuild produced no ${ending}`);
  return file.text;
};
const script = output('.js');
const style = output('.css');
// Inline code must not close its own element early.
for (const [name, text, closing] of [
  ['script', script, '</script'],
  ['style', style, '</style'],
]) {
  if (text.toLowerCase().includes(closing)) throw new Error(`the page ${name} contains ${closing}`);
}
const template = readFileSync(join(root, 'page/template.html'), 'utf8');
const html = template.replace('/*DSH-STYLE*/', () => style).replace('/*DSH-SCRIPT*/', () => script);
mkdirSync(join(root, 'dist'), { recursive: true });
writeFileSync(join(root, 'dist/page.html'), html);
