// Puts what the conformance kit derives its cases from beside its compiled code, so an installed
// @dsh-sdk/cli carries them: the IDL itself (its sequences, and its hash in reports) and the
// golden vectors of test-vectors/. Run by the build after tsc: an IDL or vector change reaches
// the kit without a hand edit.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { readVectors } from '../dist/conformance/idl-data.js';

const cli = join(dirname(fileURLToPath(import.meta.url)), '..');
const root = join(cli, '../..');
const out = join(cli, 'dist/conformance/data');
mkdirSync(out, { recursive: true });
writeFileSync(join(out, 'protocol.idl.json'), readFileSync(join(root, 'protocol.idl.json')));
writeFileSync(
  join(out, 'golden-vectors.json'),
  `${JSON.stringify({ files: readVectors(join(root, 'test-vectors')) })}\n`,
);
