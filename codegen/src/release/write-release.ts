// Freezes an IDL text as a released version: `<releases dir>/N.idl.json` plus its line in
// SHA256SUMS. The text is kept byte for byte, except that `$schema` is re-pointed from the new folder.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { applyEdits, modify } from 'jsonc-parser';
import type { ReleasedFile } from './released-files.js';
import { CHECKSUMS_FILE, readChecksums, releasedFileName, sha256 } from './released-files.js';

/** Freezes `idlPath` as `version` in `releasesDir` (relative to `root`). */
export function writeRelease(
  root: string,
  releasesDir: string,
  idlPath: string,
  version: number,
): ReleasedFile {
  const dir = join(root, releasesDir);
  const path = join(dir, releasedFileName(version));
  if (existsSync(path))
    throw new Error(`${relative(root, path)} exists: released versions are frozen`);
  const text = repointSchema(readFileSync(idlPath, 'utf8'), dirname(idlPath), dir);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path, text);
  const released: ReleasedFile = {
    version,
    path: `${releasesDir}/${releasedFileName(version)}`,
    sha256: sha256(text),
  };
  const files = [...readChecksums(root, releasesDir).files, released].sort(
    (a, b) => a.version - b.version,
  );
  const lines = files.map((f) => `${f.sha256}  ${releasedFileName(f.version)}\n`);
  writeFileSync(join(dir, CHECKSUMS_FILE), lines.join(''));
  return released;
}

/** `"$schema": "./codegen/idl.schema.json"` relative to the IDL becomes relative to the released folder. */
function repointSchema(text: string, fromDir: string, toDir: string): string {
  const value = (JSON.parse(text) as { $schema?: unknown }).$schema;
  if (typeof value !== 'string' || /^[a-z]+:/i.test(value)) return text;
  const target = relative(toDir, resolve(fromDir, value)).split('\\').join('/');
  return applyEdits(text, modify(text, ['$schema'], target, {}));
}
