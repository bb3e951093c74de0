// The shared golden vectors (test-vectors/, see its README): where they are, which folder each
// runner claims, how cases pair with their expectations, and the IDL and schema they are checked
// against.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import AjvModule from 'ajv';
import type { ErrorObject } from 'ajv';
import { METHODS } from '../../src/gen/methods.gen.js';
import type { ValidationError } from '../../src/gen/validators.gen.js';
import { toViolations } from '../../src/violations.js';

const Ajv = AjvModule.default;

export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const VECTORS_ROOT = join(REPO_ROOT, 'test-vectors');

export type JsonObject = { [key: string]: unknown };

/** A folder of vectors and the runner that claims it. */
export interface Suite {
  /** Path under test-vectors/, with `/`. */
  readonly folder: string;
  /** Cases live in one sub-folder per IDL method (`messages/<method>/`). */
  readonly isPerMethod: boolean;
  /** Ending of the wire file and of its expectation. */
  readonly wireExt: string;
  readonly expectExt: string;
  /** Members an expectation may have (null: the expectation is not JSON). */
  readonly expectKeys: readonly string[] | null;
}

export const SUITES: readonly Suite[] = [
  {
    folder: 'framing/read',
    isPerMethod: false,
    wireExt: '.ndjson',
    expectExt: '.expect.json',
    expectKeys: [
      'description',
      'maxFrameBytes',
      'splitAt',
      'pendingRequests',
      'messages',
      'reports',
      'refusals',
      'inputEnds',
    ],
  },
  {
    folder: 'framing/write',
    isPerMethod: false,
    wireExt: '.json',
    expectExt: '.expect.ndjson',
    expectKeys: null,
  },
  suite('messages', true, ['description', 'outcome']),
  suite('invalid', true, ['description', 'outcome', 'pointers']),
  suite('open-unions', false, ['description', 'outcome']),
  suite('exchanges', false, [
    'description',
    'runtime',
    'ignoreNotifications',
    'serverProtocolVersion',
    'chunkDelayMs',
  ]),
];

function suite(folder: string, isPerMethod: boolean, expectKeys: readonly string[]): Suite {
  return { folder, isPerMethod, wireExt: '.ndjson', expectExt: '.expect.json', expectKeys };
}

/** One case: a wire file and its expectation. */
export interface VectorCase {
  /** The test id: the wire file's path under test-vectors/ without its extension. */
  readonly id: string;
  readonly suite: Suite;
  /** For per-method suites: the IDL method the folder names. */
  readonly method?: IdlMethod;
  readonly wirePath: string;
  readonly expectPath: string;
}

/** Every file under `dir`, as paths relative to test-vectors/ written with `/`, sorted. */
export function listVectorFiles(dir = VECTORS_ROOT): string[] {
  const files: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) files.push(...listVectorFiles(path));
    else files.push(relative(VECTORS_ROOT, path).split(sep).join('/'));
  }
  return files.sort();
}

/** The cases of a suite: each wire file, whether or not its expectation exists. */
export function listCases(target: Suite): VectorCase[] {
  const prefix = `${target.folder}/`;
  const cases: VectorCase[] = [];
  for (const file of listVectorFiles()) {
    if (!file.startsWith(prefix) || !isWireFile(target, file)) continue;
    const stem = file.slice(0, -target.wireExt.length);
    const folder = file.slice(prefix.length).split('/');
    const method = target.isPerMethod ? methodByFolder(folder[0] ?? '') : undefined;
    cases.push({
      id: stem,
      suite: target,
      ...(method ? { method } : {}),
      wirePath: join(VECTORS_ROOT, file),
      expectPath: join(VECTORS_ROOT, stem + target.expectExt),
    });
  }
  return cases;
}

/** True for a suite's wire file (an expectation also ends in `.json` or `.ndjson`). */
export function isWireFile(target: Suite, file: string): boolean {
  return file.endsWith(target.wireExt) && !file.endsWith(target.expectExt);
}

export function readJson<T = unknown>(path: string): T {
  return JSON.parse(readFileSync(path, 'utf8')) as T;
}

/** The lines of an NDJSON file, parsed; the raw text of each is kept beside it. */
export function readNdjson(path: string): { raw: string; value: unknown }[] {
  const text = readFileSync(path, 'utf8');
  if (!text.endsWith('\n')) throw new Error(`${path}: the last line has no \\n`);
  return text
    .slice(0, -1)
    .split('\n')
    .map((raw) => ({ raw, value: JSON.parse(raw) as unknown }));
}

// ---------------------------------------------------------------- the IDL

export interface IdlMethod {
  readonly name: string;
  readonly method: string;
  readonly direction: 'clientToServer' | 'serverToClient';
  readonly kind: 'request' | 'notification';
  readonly params: string | null;
  readonly result?: string;
}

interface Idl {
  readonly meta: { readonly defaultMaxFrameBytes: number };
  readonly methods: readonly IdlMethod[];
  readonly types: Readonly<Record<string, { readonly examples?: readonly unknown[] }>>;
}

export const IDL = readJson<Idl>(join(REPO_ROOT, 'protocol.idl.json'));

/** The folder of a method's cases (`session-prompt`), as the generator spells it. */
export function folderOf(method: { readonly name: string }): string | undefined {
  return METHODS.find((m) => m.name === method.name)?.kebabName;
}

export function pascalCase(name: string): string {
  return name.charAt(0).toUpperCase() + name.slice(1);
}

export function methodByFolder(folder: string): IdlMethod | undefined {
  return IDL.methods.find((m) => folderOf(m) === folder);
}

export function methodByWireName(wireName: string): IdlMethod | undefined {
  return IDL.methods.find((m) => m.method === wireName);
}

/** The IDL examples of a type (empty for none). */
export function typeExamples(typeName: string | null | undefined): readonly unknown[] {
  return typeName ? (IDL.types[typeName]?.examples ?? []) : [];
}

// ------------------------------------------------------- frames and schema

export type FrameKind = 'request' | 'response' | 'notification';

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Classifies a well-formed frame of a vector (vectors in these folders hold no malformed ones). */
export function frameKind(frame: JsonObject): FrameKind {
  if ('method' in frame) return 'id' in frame ? 'request' : 'notification';
  return 'response';
}

/** The bundle's definition of one method's frames, e.g. `SessionPromptRequestFrame`. */
export function frameDefinition(method: IdlMethod, kind: FrameKind): string {
  const suffix = { request: 'Request', response: 'Response', notification: 'Notification' }[kind];
  return `${pascalCase(method.name)}${suffix}Frame`;
}

const BUNDLE = readJson<JsonObject & { $id: string }>(
  join(REPO_ROOT, 'packages/protocol/src/gen/protocol.schema.json'),
);
const ajv = new Ajv({ allErrors: true, strict: false, logger: false });
// The protocol asserts `contentEncoding: base64` (canonical padded base64), which ajv by default
// treats as an annotation; this is an independent check of the same rule.
ajv.removeKeyword('contentEncoding');
ajv.addKeyword({
  keyword: 'contentEncoding',
  type: 'string',
  schemaType: 'string',
  validate: (encoding: string, data: string) => encoding !== 'base64' || isCanonicalBase64(data),
});
// `x-not-object-lacks-required` (a value that is not an object also misses each required member)
// is the protocol's own keyword; told to ajv here as an independent check of the same rule.
ajv.addKeyword({
  keyword: 'x-not-object-lacks-required',
  schemaType: 'boolean',
  validate: function notObjectLacksRequired(
    flag: boolean,
    data: unknown,
    parent?: { required?: string[] },
  ): boolean {
    const isObject = typeof data === 'object' && data !== null && !Array.isArray(data);
    if (!flag || isObject) return true;
    (notObjectLacksRequired as { errors?: Partial<ErrorObject>[] }).errors = (
      parent?.required ?? []
    ).map((name) => ({
      keyword: 'required',
      params: { missingProperty: name },
      message: `must have required property '${name}'`,
    }));
    return false;
  },
});
ajv.addSchema(BUNDLE);

/** RFC 4648 §4 with padding, no line breaks: decoding and encoding again gives the same text. */
export function isCanonicalBase64(text: string): boolean {
  return text.length % 4 === 0 && Buffer.from(text, 'base64').toString('base64') === text;
}

/** What a general-purpose validator says of a value, checked against the bundle compiled now. */
export interface BundleVerdict {
  readonly isValid: boolean;
  /** Violations as the wire reports them (`{pointer, message}`). */
  readonly pointers: string[];
  /** Whether an `anyOf` failed, so that other branches' complaints are mixed in. */
  readonly isAnyOfInvolved: boolean;
  readonly errors: readonly ErrorObject[];
}

/** Validates against the bundle's root (any frame) or one of its definitions. */
export function validateWithBundle(value: unknown, definition?: string): BundleVerdict {
  const ref = definition ? `${BUNDLE.$id}#/definitions/${definition}` : BUNDLE.$id;
  const validate = ajv.getSchema(ref);
  if (!validate) throw new Error(`the bundle has no schema ${ref}`);
  const isValid = validate(value) === true;
  const errors = validate.errors ?? [];
  return {
    isValid,
    pointers: toViolations(errors as ValidationError[]).map((v) => v.pointer),
    isAnyOfInvolved: errors.some((e) => e.keyword === 'anyOf'),
    errors,
  };
}

/** Pointers into a frame's `params` or `result`, made relative to it (`/params/a` → `/a`). */
export function relativePointers(pointers: readonly string[], member: string): string[] {
  const prefix = `/${member}`;
  return pointers.map((p) =>
    p === prefix || p.startsWith(`${prefix}/`) ? p.slice(prefix.length) : p,
  );
}

/** The distinct members of a list of pointers, sorted, for comparison as a set. */
export function pointerSet(pointers: readonly string[]): string[] {
  return [...new Set(pointers)].sort();
}
