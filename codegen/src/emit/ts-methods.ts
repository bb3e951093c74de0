// IDL → methods.gen.ts: method-name constants, the request and notification maps, method metadata.
import type { Method, MethodKind, Model } from '../idl/model.js';
import { isSentBy } from '../idl/model.js';
import { kebabCase, pascalCase } from '../idl/names.js';
import type { GeneratedFile } from '../printer/generated-file.js';
import type { ProtocolTargets } from '../protocols/targets.js';
import { arrow, bindingNames } from './binding-names.js';
import type { Emitter } from './emitter.js';
import { emitCapabilityTable } from './ts-capabilities.js';
import { tsFile } from './emitter.js';
import { deprecationText, withJsdocTags } from './version-notes.js';

export const tsMethodsEmitter: Emitter = {
  name: 'ts-methods',
  target: 'typescript',
  emit({ model, target }) {
    const f = tsFile(target, 'methods.gen.ts', 'ts-methods');
    emitMethodConstants(f, model);
    for (const spec of mapSpecs(model, target)) emitMap(f, model, target, spec);
    emitMethodTable(f, model);
    emitCapabilityTable(f, model);
    return [f.finish()];
  },
};

/** A payload type of `types.gen.ts`, imported where it is printed. */
const payload = (f: GeneratedFile, name: string | null, absent: string): string =>
  name ? f.importType(name, './types.gen.js') : absent;

function emitMethodConstants(f: GeneratedFile, model: Model): void {
  f.raw(f.jsdoc('The wire name of every method, by its generated name.'));
  f.print`export const Method = {`;
  for (const m of model.methods) {
    f.raw(f.jsdoc(withJsdocTags(m.description, m), '  '));
    f.print`  ${m.name}: ${f.string(m.wireName)},`;
  }
  f.print`} as const;`;
  f.raw(f.jsdoc('A wire method name of the protocol.'));
  f.print`export type MethodName = (typeof Method)[keyof typeof Method];`;
  f.blank();
}

/** One map of methods by wire name: those one end sends, of one kind. */
interface MapSpec {
  readonly name: string;
  /** The type of its keys (`RequestMethod`). */
  readonly keyType: string;
  readonly kind: MethodKind;
  readonly sender: 'client' | 'server';
}

/**
 * The maps of what each end sends: client → server requests and server → client notifications
 * always; server → client requests and client → server notifications when the protocol has them.
 */
function mapSpecs(model: Model, target: ProtocolTargets): MapSpec[] {
  const names = bindingNames(target);
  const { client, server } = target.bindings.sides;
  const specs: MapSpec[] = [
    { name: names.requestMap, keyType: 'RequestMethod', kind: 'request', sender: 'client' },
    {
      name: names.notificationMap,
      keyType: 'NotificationMethod',
      kind: 'notification',
      sender: 'server',
    },
  ];
  const extra: MapSpec[] = [
    {
      name: names.serverRequestMap,
      keyType: `${pascalCase(server)}RequestMethod`,
      kind: 'request',
      sender: 'server',
    },
    {
      name: names.clientNotificationMap,
      keyType: `${pascalCase(client)}NotificationMethod`,
      kind: 'notification',
      sender: 'client',
    },
  ];
  return [...specs, ...extra.filter((spec) => sentBy(model, spec).length > 0)];
}

const sentBy = (model: Model, spec: MapSpec): Method[] =>
  model.methods.filter((m) => m.kind === spec.kind && isSentBy(m, spec.sender));

function emitMap(f: GeneratedFile, model: Model, target: ProtocolTargets, spec: MapSpec): void {
  const way = arrow(spec.sender === 'client' ? 'clientToServer' : 'serverToClient', target);
  const what = spec.kind === 'request' ? 'Params and result' : 'Params';
  f.raw(f.jsdoc(`${what} of every ${way} ${spec.kind}, indexed by wire method name.`));
  f.print`export interface ${spec.name} {`;
  for (const m of sentBy(model, spec)) {
    f.raw(f.jsdoc(withJsdocTags(m.description, m), '  '));
    // A family of methods is an index signature: every wire name with its prefix.
    const key = m.isPrefix ? `[method: \`${m.wireName}\${string}\`]` : f.string(m.wireName);
    const value =
      spec.kind === 'request'
        ? `{ params: ${payload(f, m.params, 'undefined')}; result: ${payload(f, m.result, 'never')} }`
        : payload(f, m.params, 'undefined');
    f.print`  ${key}: ${value};`;
  }
  f.print`}`;
  f.raw(f.jsdoc(`A ${way} ${spec.kind} method.`));
  f.print`export type ${spec.keyType} = keyof ${spec.name};`;
  f.blank();
}

function emitMethodTable(f: GeneratedFile, model: Model): void {
  f.raw(f.jsdoc('What the IDL says about one method, available at run time.'));
  f.print`export interface MethodInfo {`;
  f.print`  readonly name: string;`;
  f.raw(f.jsdoc("The name in kebab case, for file and folder names (the golden vectors').", '  '));
  f.print`  readonly kebabName: string;`;
  f.print`  readonly wireName: MethodName;`;
  const both = model.methods.some((m) => m.direction === 'both') ? " | 'both'" : '';
  f.print`  readonly direction: 'clientToServer' | 'serverToClient'${both};`;
  f.print`  readonly kind: 'request' | 'notification';`;
  f.print`  readonly paramsType: string | null;`;
  f.print`  readonly resultType: string | null;`;
  f.print`  readonly errorCodes: readonly number[];`;
  f.raw(
    f.jsdoc(
      'The protocol version that introduced it: peers of earlier versions never see it.',
      '  ',
    ),
  );
  f.print`  readonly since: number;`;
  f.raw(f.jsdoc('Why it is deprecated and what to use instead, or null.', '  '));
  f.print`  readonly deprecated: string | null;`;
  f.raw(
    f.jsdoc(
      'Params members introduced after version 1, with their version: a peer playing an older version treats them as unknown members.',
      '  ',
    ),
  );
  f.print`  readonly paramsMembersSince: Readonly<Record<string, number>>;`;
  f.print`}`;
  f.blank();
  f.raw(f.jsdoc('Every method of the protocol, in IDL order.'));
  f.print`export const METHODS: readonly MethodInfo[] = [`;
  for (const m of model.methods) f.raw(`  ${methodInfo(f, m, model)},`);
  f.print`];`;
}

/** The members of a method's params introduced after version 1, in IDL order. */
export function newerParamsMembers(m: Method, model: Model): [string, number][] {
  const params = model.types.find((t) => t.name === m.params);
  return (params?.fields ?? []).filter((f) => f.since > 1).map((f) => [f.name, f.since]);
}

/** `{ 'protocolVersion': 2 }`, or `{}`. */
function paramsSince(f: GeneratedFile, m: Method, model: Model): string {
  const entries = newerParamsMembers(m, model).map(
    ([name, since]) => `${f.string(name)}: ${since}`,
  );
  return entries.length === 0 ? '{}' : `{ ${entries.join(', ')} }`;
}

function methodInfo(f: GeneratedFile, m: Method, model: Model): string {
  const codes = m.errors.map((name) => model.errors.find((e) => e.name === name)?.code ?? 0);
  const fields = [
    `name: ${f.string(m.name)}`,
    `kebabName: ${f.string(kebabCase(m.name))}`,
    `wireName: ${f.string(m.wireName)}`,
    `direction: ${f.string(m.direction)}`,
    `kind: ${f.string(m.kind)}`,
    `paramsType: ${m.params ? f.string(m.params) : 'null'}`,
    `resultType: ${m.result ? f.string(m.result) : 'null'}`,
    `errorCodes: [${codes.join(', ')}]`,
    `since: ${m.since}`,
    `deprecated: ${m.deprecated ? f.string(deprecationText(m.deprecated)) : 'null'}`,
    `paramsMembersSince: ${paramsSince(f, m, model)}`,
  ];
  return `{ ${fields.join(', ')} }`;
}
