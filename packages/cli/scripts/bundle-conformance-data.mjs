// Puts what the conformance kit derives its cases from beside its code, so an installed
// @dsh-sdk/cli carries them: the IDL itself (its sequences, and its hash in reports) and the
// golden vectors of test-vectors/ (text, or base64 for the framing files, which hold bytes that
// are not UTF-8 on purpose). Run by the build: an IDL or vector change reaches the kit unedited.
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const cli = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(cli, '../..');
const out = join(cli, 'dist/conformance/data');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'protocol.idl.json'), readFileSync(join(root, 'protocol.idl.json')));

const vectorsRoot = join(root, 'test-vectors');
const files = {};
for (const name of readdirSync(vectorsRoot, { recursive: true, encoding: 'utf8' }).sort()) {
  if (!/\.(ndjson|json)$/.test(name)) continue;
  const path = relative(vectorsRoot, join(vectorsRoot, name)).split(sep).join('/');
  const bytes = readFileSync(join(vectorsRoot, name));
  files[path] = path.startsWith('framing/')
    ? { base64: bytes.toString('base64') }
    : { text: bytes.toString('utf8') };
}
writeFileSync(join(out, 'golden-vectors.json'), `${JSON.stringify({ files })}\n`);
