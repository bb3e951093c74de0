// Every params instance a method's case sends: the ones derived from the IDL (instances.ts), the
// golden `invalid/` requests (refused), and the IDL's examples with the golden `messages/` and
// `open-unions/` requests (accepted). The route of the run replaces the vectors' own.
import { METHOD_VALIDATORS, METHODS, toViolations } from '@dsh-sdk/protocol';
import type { MethodName } from '@dsh-sdk/protocol';
import { schemaDefinitions, vectorExpectation, vectorPaths, vectorText } from '../idl-data.js';
import { negativeInstances, resolve, unionVariants } from './instances.js';
import { isObject } from './server-line.js';
import type { JsonObject } from './server-line.js';

/** A params value the runtime must refuse `-32602` naming every pointer (any when `''`). */
export interface Refusal {
  readonly label: string;
  /** `undefined`: the request has no params member. */
  readonly params: unknown;
  /** The params exactly as a golden vector writes them (`1e400` survives no parse). */
  readonly raw?: string;
  readonly pointers: readonly string[];
}

/** A params value the runtime must accept. */
export interface Acceptance {
  readonly label: string;
  readonly params: unknown;
}

const ROUTE_MEMBERS = ['cwd', 'provider', 'model', 'reasoningEffort'] as const;

/** Sets the route members the instance does not break to the run's route (removing an absent one). */
export function withRoute(params: unknown, route: JsonObject, broken: readonly string[]): unknown {
  if (!isObject(params)) return params;
  const next: Record<string, unknown> = { ...params };
  for (const member of ROUTE_MEMBERS) {
    if (!(member in next) || broken.includes(`/${member}`)) continue;
    if (route[member] === undefined) delete next[member];
    else next[member] = route[member];
  }
  return next;
}

function examplesOf(typeName: string): unknown[] {
  return (schemaDefinitions()[typeName]?.['examples'] as unknown[] | undefined) ?? [];
}

/** The examples of the params type, and one per known variant of the unions in its arrays. */
function bases(paramsType: string): unknown[] {
  const definitions = schemaDefinitions();
  const schema = resolve({ $ref: `#/definitions/${paramsType}` }, definitions);
  const out = [...examplesOf(paramsType)];
  const first = out[0];
  for (const [name, raw] of Object.entries((schema['properties'] ?? {}) as JsonObject)) {
    const member = resolve(raw, definitions);
    if (member['type'] !== 'array' || !isObject(first)) continue;
    const items = resolve(member['items'], definitions);
    for (const variant of unionVariants(items, definitions)) {
      const example = (variant['examples'] as unknown[] | undefined)?.[0];
      if (example !== undefined) out.push({ ...first, [name]: [example] });
    }
  }
  return out;
}

/** The text of a top-level member of a JSON object's text, as written, or undefined. */
export function rawMember(text: string, name: string): string | undefined {
  let depth = 0;
  let inString = false;
  let start = -1;
  const key = `${JSON.stringify(name)}:`;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (depth === 1 && start < 0 && text.startsWith(key, i)) {
      start = i + key.length;
      i = start - 1;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
    if (start >= 0 && depth === 1 && c === ',') return text.slice(start, i);
    if (start >= 0 && depth === 0) return text.slice(start, i);
  }
  return undefined;
}

/** Requests of `method` in golden vector files under `prefix`, with each file's expectation. */
function vectorRequests(
  prefix: string,
  method: string,
): { path: string; params: unknown; raw?: string; expect: JsonObject }[] {
  return vectorPaths(prefix)
    .filter((path) => path.endsWith('.ndjson') && !path.endsWith('.expect.ndjson'))
    .flatMap((path) =>
      vectorText(path)
        .split('\n')
        .filter((line) => line.trim() !== '')
        .map((line) => ({ line, frame: JSON.parse(line) as JsonObject }))
        .filter(({ frame }) => frame['method'] === method && frame['id'] !== undefined)
        .map(({ line, frame }) => {
          const raw = rawMember(line, 'params');
          return {
            path,
            params: frame['params'],
            ...(raw === undefined ? {} : { raw }),
            expect: vectorExpectation(path),
          };
        }),
    );
}

/** Root values that are not the params object: absent, `null`, an array, a string. */
function rootRefusals(method: string): Refusal[] {
  const validate = METHOD_VALIDATORS[method as MethodName].params;
  return [undefined, null, [], 'conformance'].flatMap((params) => {
    if (validate(params)) return [];
    const pointers = toViolations(validate.errors).map((v) => v.pointer);
    const named = pointers.filter((p) => p !== '');
    return [
      {
        label: `params ${params === undefined ? 'absent' : JSON.stringify(params)}`,
        params,
        pointers: named.length > 0 ? named : [''],
      },
    ];
  });
}

/** What `method`'s case sends that must be refused, with the run's route where the IDL has one. */
export function refusalsOf(method: string, route: JsonObject, version: number): Refusal[] {
  const info = METHODS.find((m) => m.wireName === method);
  if (!info?.paramsType) return [];
  const newer = Object.entries(info.paramsMembersSince)
    .filter(([, since]) => since > version)
    .map(([name]) => `/${name}`);
  const withoutNewer = (params: unknown) =>
    isObject(params)
      ? Object.fromEntries(Object.entries(params).filter(([k]) => !newer.includes(`/${k}`)))
      : params;
  const derived: Refusal[] = negativeInstances(
    method,
    info.paramsType,
    bases(info.paramsType).map(withoutNewer),
    schemaDefinitions(),
  ).map((i) => ({ label: i.label, params: i.params, pointers: [i.pointer] }));
  const golden: Refusal[] = vectorRequests(`invalid/${info.kebabName}/`, method)
    .filter((v) => v.expect['outcome'] === 'invalid-params')
    .map((v) => ({
      label: v.path,
      params: v.params,
      ...(v.raw === undefined || method === 'initialize' ? {} : { raw: v.raw }),
      pointers: (v.expect['pointers'] as string[]) ?? [''],
    }));
  return [...rootRefusals(method), ...derived, ...golden]
    .filter((r) => !r.pointers.some((p) => newer.some((n) => p === n || p.startsWith(`${n}/`))))
    .map((r) =>
      method === 'initialize' ? { ...r, params: withRoute(r.params, route, r.pointers) } : r,
    );
}

/** A durable image block: its attachment is some runtime's own, unknown to others. */
const holdsAttachment = (value: unknown): boolean =>
  Array.isArray(value)
    ? value.some(holdsAttachment)
    : isObject(value) &&
      ((value['type'] === 'image' && 'attachment' in value) ||
        Object.values(value).some(holdsAttachment));

/**
 * What `method`'s case sends that must be accepted: the IDL's examples and the golden valid
 * requests (durable images left out: their attachments are the reference runtime's own).
 */
export function acceptancesOf(method: string): Acceptance[] {
  const info = METHODS.find((m) => m.wireName === method);
  if (!info?.paramsType || method === 'initialize') return [];
  const examples = examplesOf(info.paramsType).map((params, i) => ({
    label: `the IDL's example ${i + 1} of ${info.paramsType}`,
    params,
  }));
  const golden = [
    ...vectorRequests(`messages/${info.kebabName}/`, method),
    ...vectorRequests('open-unions/', method),
  ].map((v) => ({
    label: v.path,
    params: v.params,
  }));
  return [...examples, ...golden].filter((a) => !holdsAttachment(a.params));
}
