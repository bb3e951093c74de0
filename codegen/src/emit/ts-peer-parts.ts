// What the TypeScript peers emitters (ts-peers.ts, ts-peers-client.ts, ts-peers-server.ts) share:
// which methods each end sends and handles, and how a request, a notify method, a subscription or
// a request handler's registration is printed, the same for either end.
import type { Method, Model } from '../idl/model.js';
import { pascalCase } from '../idl/names.js';
import type { GeneratedFile } from '../printer/generated-file.js';
import type { ProtocolTargets } from '../protocols/targets.js';
import { arrow, bindingNames } from './binding-names.js';
import type { BindingNames } from './binding-names.js';
import { paramsValidator, resultValidator } from './validator-names.js';
import { withJsdocTags } from './version-notes.js';
import type { End, EndMethods } from './peer-methods.js';
import { endMethods } from './peer-methods.js';

export type { End, EndMethods } from './peer-methods.js';

export interface PeersContext {
  readonly model: Model;
  readonly target: ProtocolTargets;
  readonly names: BindingNames;
  readonly client: EndMethods;
  readonly server: EndMethods;
}

export function peersContext(model: Model, target: ProtocolTargets): PeersContext {
  const names = bindingNames(target);
  return {
    model,
    target,
    names,
    client: endMethods(model, 'client'),
    server: endMethods(model, 'server'),
  };
}

/** `client → server` for what `end` sends. */
export const sentArrow = (ctx: PeersContext, end: End): string =>
  arrow(end === 'client' ? 'clientToServer' : 'serverToClient', ctx.target);

/** The generated modules the peers print names from. */
export const TYPES = './types.gen.js';
const METHODS = './methods.gen.js';
export const VALIDATORS = './validators.gen.js';

/** A name of the JSON-RPC runtime's peer support, imported where it is printed. */
export const support = (f: GeneratedFile, name: string): string =>
  f.import(name, f.typescript.runtime.peerSupport);
export const supportType = (f: GeneratedFile, name: string): string =>
  f.importType(name, f.typescript.runtime.peerSupport);

/** A payload type, imported where it is printed; `absent` when the method carries none. */
export const payload = (f: GeneratedFile, name: string | null, absent: string): string =>
  name ? f.importType(name, TYPES) : absent;

/** `Method`, imported where it is printed. */
export const method = (f: GeneratedFile, m: Method): string =>
  `${f.import('Method', METHODS)}.${m.name}`;

/** The wire-name type a family's method argument takes: `` `_${string}` ``. */
export const familyType = (m: Method): string => `\`${m.wireName}\${string}\``;

/** An outbound request: params sent, the result checked against its schema. */
export function emitRequestMethod(f: GeneratedFile, m: Method): void {
  const result = resultValidator(m);
  const options = `options?: ${f.importType('RequestOptions', f.typescript.runtime.pendingRequests)}`;
  const params = m.params ? [`params: ${payload(f, m.params, '')}`] : [];
  const args = [...(m.isPrefix ? [`method: ${familyType(m)}`] : []), ...params, options].join(', ');
  const wire = m.isPrefix ? 'method' : method(f, m);
  const validator = result ? f.import(result.name, VALIDATORS) : 'null';
  f.blank();
  f.raw(
    f.jsdoc(
      withJsdocTags(`Sends \`${m.wireName}\`${m.isPrefix ? '…' : ''}. ${m.description}`, m),
      '  ',
    ),
  );
  f.print`  async ${m.name}(${args}): Promise<${payload(f, m.result, 'void')}> {`;
  f.print`    const result = await this.transport.request(${wire}, ${m.params ? 'params' : 'undefined'}, options);`;
  f.print`    return ${support(f, 'requireValidResult')}(this.#validate ? ${validator} : null, ${wire}, result);`;
  f.print`  }`;
}

/** An outbound notification: `notify<Name>`, over `send` (`this.transport.notify` or the notifier's). */
export function emitNotifyMethod(f: GeneratedFile, m: Method, send: string): void {
  const args = [
    ...(m.isPrefix ? [`method: ${familyType(m)}`] : []),
    `params: ${payload(f, m.params, 'undefined')}`,
  ];
  f.blank();
  f.raw(
    f.jsdoc(
      withJsdocTags(`Sends \`${m.wireName}\`${m.isPrefix ? '…' : ''}. ${m.description}`, m),
      '  ',
    ),
  );
  f.print`  notify${pascalCase(m.name)}(${args.join(', ')}): Promise<void> {`;
  f.print`    return ${send}(${m.isPrefix ? 'method' : method(f, m)}, params);`;
  f.print`  }`;
}

/** The fan-out field of an inbound notification, and its creation in the constructor. */
export const fanoutField = (f: GeneratedFile, m: Method): string =>
  `  readonly #${m.name}: ${support(f, 'NotificationFanout')}<${payload(f, m.params, 'undefined')}>;`;

export function printFanoutInit(f: GeneratedFile, m: Method): void {
  const validator = f.import(paramsValidator(m).name, VALIDATORS);
  f.print`    this.#${m.name} = new ${support(f, 'NotificationFanout')}(transport, ${method(f, m)}, this.#validate ? ${validator} : null);`;
}

/** `on<Name>(handler)`: subscribes to an inbound notification. */
export function emitSubscription(f: GeneratedFile, m: Method): void {
  f.blank();
  f.raw(
    f.jsdoc(
      withJsdocTags(
        `Subscribes to \`${m.wireName}\`: ${m.description}\nA handler that throws or rejects is reported as \`notification-handler-failed\`; the others still run.\nReturns the function that unsubscribes.`,
        m,
      ),
      '  ',
    ),
  );
  const subscriber = supportType(f, 'Subscriber');
  f.print`  on${pascalCase(m.name)}(handler: ${subscriber}<${payload(f, m.params, 'undefined')}>): () => void {`;
  f.print`    return this.#${m.name}.subscribe(handler);`;
  f.print`  }`;
}

/** One entry of a handlers interface: optional methods may be left out. */
export function printHandlerSignature(f: GeneratedFile, m: Method): void {
  const params = m.params ? `params: ${payload(f, m.params, '')}, ` : '';
  const context = f.importType('RequestContext', f.typescript.runtime.inboundHandlers);
  const result = payload(f, m.result, 'void');
  const doc = m.isOptional
    ? `${m.description}\nOptional: without it, \`${m.wireName}\` is answered \`-32601\`.`
    : m.description;
  f.raw(f.jsdoc(withJsdocTags(doc, m), '  '));
  f.print`  ${m.name}${m.isOptional ? '?' : ''}(${params}context: ${context}): ${result} | Promise<${result}>;`;
}

/** `const sessionLoad = handlers.sessionLoad?.bind(handlers);` for each optional handler. */
export function printOptionalHandlers(
  f: GeneratedFile,
  requests: readonly Method[],
  indent: string,
): void {
  for (const m of requests.filter((r) => r.isOptional))
    f.print`${indent}const ${m.name} = handlers.${m.name}?.bind(handlers);`;
}

/** The registration of one request handler, as an element of the disposers array. */
export function printRegistration(f: GeneratedFile, m: Method, indent: string): void {
  const validator = f.import(paramsValidator(m).name, VALIDATORS);
  const handler = m.isOptional ? m.name : `handlers.${m.name}`;
  const call = m.params ? `${handler}(checked, context)` : `${handler}(context)`;
  const open = m.isOptional ? `...(${m.name} ? [` : '';
  f.print`${indent}${open}transport.onRequest(${method(f, m)}, (params, context) => {`;
  // A method without params accepts them absent; any other method must receive them.
  const check = m.params
    ? `validate ? ${validator} : null`
    : `validate && params !== undefined ? ${validator} : null`;
  f.print`${indent}  ${m.params ? 'const checked = ' : ''}${support(f, 'requireValidParams')}(${check}, params);`;
  f.print`${indent}  return ${call};`;
  f.print`${indent}})${m.isOptional ? '] : [])' : ''},`;
}
