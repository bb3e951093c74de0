/// <reference types="node" preserve="true" />
// What the kit derives its cases from, read once: the IDL (bundled beside the kit at build time),
// its schema bundle (from @dsh-sdk/protocol) and the golden vectors (bundled too).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Definitions } from './runtime/instances.js';
import type { JsonObject } from './runtime/server-line.js';

/** The checkout, when the kit runs from its sources (the tests): the data is read in place. */
const checkout = new URL('../../../../', import.meta.url);
const bundled = new URL('./data/', import.meta.url);

const dataUrl = (name: string) => new URL(name, bundled);

let idlText: Buffer | undefined;
let idl: JsonObject | undefined;
let definitions: Definitions | undefined;
let vectors: Readonly<Record<string, { text?: string; base64?: string }>> | undefined;

const isBundled = (): boolean => existsSync(dataUrl('protocol.idl.json'));

function idlBytes(): Buffer {
  idlText ??= readFileSync(
    isBundled() ? dataUrl('protocol.idl.json') : new URL('protocol.idl.json', checkout),
  );
  return idlText;
}

/** The IDL the kit was built from. */
export function loadIdl(): JsonObject {
  idl ??= JSON.parse(idlBytes().toString('utf8')) as JsonObject;
  return idl;
}

/** sha256 of the IDL file, for reports. */
export function idlSha256(): string {
  return createHash('sha256').update(idlBytes()).digest('hex');
}

/** The schema bundle's definitions (protocol.schema.json of @dsh-sdk/protocol). */
export function schemaDefinitions(): Definitions {
  if (!definitions) {
    const path = fileURLToPath(import.meta.resolve('@dsh-sdk/protocol/protocol.schema.json'));
    const bundle = JSON.parse(readFileSync(path, 'utf8')) as { definitions: Definitions };
    definitions = bundle.definitions;
  }
  return definitions;
}

/**
 * The golden vectors of a test-vectors/ folder by path, as text, or as base64 for the framing
 * files, which hold bytes that are not UTF-8 on purpose (the build bundles this).
 */
export function readVectors(root: string): Record<string, { text?: string; base64?: string }> {
  const files: Record<string, { text?: string; base64?: string }> = {};
  for (const name of readdirSync(root, { recursive: true, encoding: 'utf8' }).sort()) {
    if (!/\.(ndjson|json)$/.test(name)) continue;
    const path = name.split(sep).join('/');
    const bytes = readFileSync(join(root, name));
    files[path] = path.startsWith('framing/')
      ? { base64: bytes.toString('base64') }
      : { text: bytes.toString('utf8') };
  }
  return files;
}

/** The golden vectors by path under test-vectors/ (`exchanges/x.ndjson`). */
function vectorFiles(): Readonly<Record<string, { text?: string; base64?: string }>> {
  vectors ??= isBundled()
    ? (
        JSON.parse(readFileSync(dataUrl('golden-vectors.json'), 'utf8')) as {
          files: Record<string, { text?: string; base64?: string }>;
        }
      ).files
    : readVectors(fileURLToPath(new URL('test-vectors/', checkout)));
  return vectors;
}

export function vectorPaths(prefix: string): string[] {
  return Object.keys(vectorFiles()).filter((path) => path.startsWith(prefix));
}

export function vectorText(path: string): string {
  const file = vectorFiles()[path];
  if (file?.text === undefined) throw new Error(`no text vector ${path}`);
  return file.text;
}

export function vectorBytes(path: string): Buffer {
  const file = vectorFiles()[path];
  if (!file) throw new Error(`no vector ${path}`);
  return file.base64 !== undefined
    ? Buffer.from(file.base64, 'base64')
    : Buffer.from(file.text ?? '', 'utf8');
}

/** The JSON of a vector's expectation (`<case>.expect.json`). */
export function vectorExpectation(wirePath: string): JsonObject {
  return JSON.parse(
    vectorBytes(wirePath.replace(/\.ndjson$/, '.expect.json')).toString('utf8'),
  ) as JsonObject;
}

/** The kit's version: @dsh-sdk/cli's. */
export function kitVersion(): string {
  const manifest = JSON.parse(
    readFileSync(new URL('../../package.json', import.meta.url), 'utf8'),
  ) as {
    version: string;
  };
  return manifest.version;
}
