// IDL → peers.gen.ts: a typed client end and server end over any PeerTransport.
import type { Method, Model } from '../idl/model.js';
import { notifications, requests } from '../idl/model.js';
import { pascalCase } from '../idl/names.js';
import type { GeneratedFile } from '../printer/generated-file.js';
import type { BindingNames } from './binding-names.js';
import { bindingNames } from './binding-names.js';
import type { Emitter } from './emitter.js';
import { tsFile } from './emitter.js';
import { paramsValidator, resultValidator } from './validator-names.js';
import { withJsdocTags } from './version-notes.js';

export const tsPeersEmitter: Emitter = {
  name: 'ts-peers',
  target: 'typescript',
  emit({ model, target }) {
    const f = tsFile(target, 'peers.gen.ts', 'ts-peers');
    const names = bindingNames(target);
    emitAnyNotification(f, model, names);
    emitClient(f, model, names);
    emitHandlers(f, model, names);
    emitNotifier(f, model, names);
    emitServer(f, names);
    emitServe(f, model, names);
    return [f.finish()];
  },
};

const clientNames = (model: Model) => ({
  requests: requests(model).filter((m) => m.direction === 'clientToServer'),
  notifications: notifications(model).filter((m) => m.direction === 'serverToClient'),
});

/** The generated modules the peers print names from. */
const TYPES = './types.gen.js';
const METHODS = './methods.gen.js';
const VALIDATORS = './validators.gen.js';

/** A name of the JSON-RPC runtime's peer support, imported where it is printed. */
const support = (f: GeneratedFile, name: string): string =>
  f.import(name, f.typescript.runtime.peerSupport);
const supportType = (f: GeneratedFile, name: string): string =>
  f.importType(name, f.typescript.runtime.peerSupport);

/** A payload type, imported where it is printed; `absent` when the method carries none. */
const payload = (f: GeneratedFile, name: string | null, absent: string): string =>
  name ? f.importType(name, TYPES) : absent;

/** `Method`, imported where it is printed. */
const method = (f: GeneratedFile, m: Method): string => `${f.import('Method', METHODS)}.${m.name}`;

function emitAnyNotification(f: GeneratedFile, model: Model, names: BindingNames): void {
  f.raw(
    f.jsdoc('Any server → client notification with its checked params, told apart by `method`.'),
  );
  f.print`export type ${names.anyNotification} =`;
  for (const m of clientNames(model).notifications) {
    f.print`  | { readonly method: typeof ${method(f, m)}; readonly params: ${payload(f, m.params, 'undefined')} }`;
  }
  f.print`;`;
  f.blank();
}

function emitClient(f: GeneratedFile, model: Model, names: BindingNames): void {
  const { requests: calls, notifications: events } = clientNames(model);
  f.raw(
    f.jsdoc(
      'The client end: a typed method per client → server request and a subscription per server → client notification.\nResults are checked against the schema; a result that breaks it rejects with `ProtocolError`.',
    ),
  );
  f.print`export class ${names.clientPeer} {`;
  const fanout = support(f, 'NotificationFanout');
  for (const m of events)
    f.print`  readonly #${m.name}: ${fanout}<${payload(f, m.params, 'undefined')}>;`;
  f.print`  readonly #validate: boolean;`;
  f.blank();
  const transport = supportType(f, 'PeerTransport');
  f.print`  constructor(private readonly transport: ${transport}, options: ${supportType(f, 'PeerOptions')} = {}) {`;
  f.print`    this.#validate = options.validate ?? true;`;
  for (const m of events) {
    const validator = f.import(paramsValidator(m).name, VALIDATORS);
    f.print`    this.#${m.name} = new ${fanout}(transport, ${method(f, m)}, this.#validate ? ${validator} : null);`;
  }
  f.print`  }`;
  for (const m of calls) emitClientRequest(f, m);
  for (const m of events) {
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
  emitOnAnyNotification(f, events, names);
  f.print`}`;
  f.blank();
}

function emitOnAnyNotification(
  f: GeneratedFile,
  events: readonly Method[],
  names: BindingNames,
): void {
  f.blank();
  f.raw(
    f.jsdoc(
      'Subscribes to every server → client notification, as `{ method, params }`, in wire order.\nReturns the function that unsubscribes from all of them.',
      '  ',
    ),
  );
  f.print`  onAnyNotification(handler: ${supportType(f, 'Subscriber')}<${names.anyNotification}>): () => void {`;
  f.print`    const unsubscribes = [`;
  for (const m of events) {
    f.print`      this.#${m.name}.subscribe((params) => handler({ method: ${method(f, m)}, params })),`;
  }
  f.print`    ];`;
  f.print`    return () => unsubscribes.forEach((unsubscribe) => unsubscribe());`;
  f.print`  }`;
}

function emitClientRequest(f: GeneratedFile, m: Method): void {
  const result = resultValidator(m);
  const options = `options?: ${f.importType('RequestOptions', f.typescript.runtime.pendingRequests)}`;
  const args = m.params ? `params: ${payload(f, m.params, '')}, ${options}` : options;
  const validator = result ? f.import(result.name, VALIDATORS) : 'null';
  f.blank();
  f.raw(f.jsdoc(withJsdocTags(`Sends \`${m.wireName}\`. ${m.description}`, m), '  '));
  f.print`  async ${m.name}(${args}): Promise<${payload(f, m.result, 'void')}> {`;
  f.print`    const result = await this.transport.request(${method(f, m)}, ${m.params ? 'params' : 'undefined'}, options);`;
  f.print`    return ${support(f, 'requireValidResult')}(this.#validate ? ${validator} : null, ${method(f, m)}, result);`;
  f.print`  }`;
}

function emitHandlers(f: GeneratedFile, model: Model, names: BindingNames): void {
  f.raw(
    f.jsdoc(
      'What a server implements: one handler per client → server request. Params arrive already checked against the schema.',
    ),
  );
  f.print`export interface ${names.requestHandlers} {`;
  for (const m of clientNames(model).requests) {
    const params = m.params ? `params: ${payload(f, m.params, '')}, ` : '';
    const context = f.importType('RequestContext', f.typescript.runtime.inboundHandlers);
    const result = payload(f, m.result, 'void');
    f.raw(f.jsdoc(withJsdocTags(m.description, m), '  '));
    f.print`  ${m.name}(${params}context: ${context}): ${result} | Promise<${result}>;`;
  }
  f.print`}`;
  f.blank();
}

function emitNotifier(f: GeneratedFile, model: Model, names: BindingNames): void {
  f.raw(
    f.jsdoc(
      'A typed notify method per server → client notification, over any `send`: the server peer sends\nthrough its transport; a runtime can put a gate in between.',
    ),
  );
  f.print`export class ${names.notifier} {`;
  const methodName = f.importType('NotificationMethod', METHODS);
  f.print`  constructor(private readonly send: (method: ${methodName}, params: unknown) => Promise<void>) {}`;
  for (const m of clientNames(model).notifications) {
    f.blank();
    f.raw(f.jsdoc(withJsdocTags(`Sends \`${m.wireName}\`. ${m.description}`, m), '  '));
    f.print`  notify${pascalCase(m.name)}(params: ${payload(f, m.params, 'undefined')}): Promise<void> {`;
    f.print`    return this.send(${method(f, m)}, params);`;
    f.print`  }`;
  }
  f.print`}`;
  f.blank();
}

function emitServer(f: GeneratedFile, names: BindingNames): void {
  f.raw(
    f.jsdoc(
      "The server end's outbound surface: a typed notify method per server → client notification.",
    ),
  );
  f.print`export class ${names.serverPeer} extends ${names.notifier} {`;
  f.print`  constructor(`;
  f.print`    transport: ${supportType(f, 'PeerTransport')},`;
  f.print`    /** Unregisters the request handlers. */`;
  f.print`    readonly dispose: () => void,`;
  f.print`  ) {`;
  f.print`    super((method, params) => transport.notify(method, params));`;
  f.print`  }`;
  f.print`}`;
  f.blank();
}

function emitServe(f: GeneratedFile, model: Model, names: BindingNames): void {
  f.raw(
    f.jsdoc(
      'Serves the protocol on `transport` with `handlers`: params that break the schema are answered `-32602`,\nlisting every violation, before any handler runs.',
    ),
  );
  const transport = supportType(f, 'PeerTransport');
  const options = supportType(f, 'PeerOptions');
  f.print`export function ${names.serve}(transport: ${transport}, handlers: ${names.requestHandlers}, options: ${options} = {}): ${names.serverPeer} {`;
  f.print`  const validate = options.validate ?? true;`;
  f.print`  const disposers = [`;
  for (const m of clientNames(model).requests) {
    const validator = f.import(paramsValidator(m).name, VALIDATORS);
    const call = m.params ? `handlers.${m.name}(checked, context)` : `handlers.${m.name}(context)`;
    f.print`    transport.onRequest(${method(f, m)}, (params, context) => {`;
    // A method without params accepts them absent; any other method must receive them.
    const check = m.params
      ? `validate ? ${validator} : null`
      : `validate && params !== undefined ? ${validator} : null`;
    f.print`      ${m.params ? 'const checked = ' : ''}${support(f, 'requireValidParams')}(${check}, params);`;
    f.print`      return ${call};`;
    f.print`    }),`;
  }
  f.print`  ];`;
  f.print`  return new ${names.serverPeer}(transport, () => disposers.forEach((dispose) => dispose()));`;
  f.print`}`;
}
