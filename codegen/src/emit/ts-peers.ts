// IDL → peers.gen.ts: a typed client end and server end over any PeerTransport.
import type { Method, Model } from '../idl/model.js';
import { notifications, requests } from '../idl/model.js';
import { pascalCase } from '../idl/names.js';
import { GeneratedFile } from '../printer/generated-file.js';
import type { Emitter } from './emitter.js';
import { TS_GEN_DIR } from './emitter.js';
import { paramsValidator, resultValidator } from './validator-names.js';
import { withJsdocTags } from './version-notes.js';

export const tsPeersEmitter: Emitter = {
  name: 'ts-peers',
  emit({ model }) {
    const f = new GeneratedFile(`${TS_GEN_DIR}/peers.gen.ts`, 'ts-peers', 'ts');
    emitImports(f, model);
    emitClient(f, model);
    emitHandlers(f, model);
    emitServer(f, model);
    emitServe(f, model);
    return [f.finish()];
  },
};

const clientNames = (model: Model) => ({
  requests: requests(model).filter((m) => m.direction === 'clientToServer'),
  notifications: notifications(model).filter((m) => m.direction === 'serverToClient'),
});

function emitImports(f: GeneratedFile, model: Model): void {
  const types = new Set<string>();
  const validators = new Set<string>();
  for (const m of model.methods) {
    if (m.params) types.add(m.params);
    if (m.result) types.add(m.result);
    validators.add(paramsValidator(m).name);
    const result = resultValidator(m);
    if (result) validators.add(result.name);
  }
  f.print`import type { RequestContext } from '../inbound-handlers.js';`;
  f.print`import type { RequestOptions } from '../pending-requests.js';`;
  f.print`import type { PeerOptions, PeerTransport, Subscriber } from '../peer-support.js';`;
  f.print`import { NotificationFanout, requireValidParams, requireValidResult } from '../peer-support.js';`;
  f.print`import { Method } from './methods.gen.js';`;
  f.print`import type { ${[...types].join(', ')} } from './types.gen.js';`;
  f.print`import { ${[...validators].join(', ')} } from './validators.gen.js';`;
  f.blank();
}

function emitClient(f: GeneratedFile, model: Model): void {
  const { requests: calls, notifications: events } = clientNames(model);
  f.raw(
    f.jsdoc(
      'The client end: a typed method per client → server request and a subscription per server → client notification.\nResults are checked against the schema; a result that breaks it rejects with `ProtocolError`.',
    ),
  );
  f.print`export class HarnessSdkClientPeer {`;
  for (const m of events)
    f.print`  readonly #${m.name}: NotificationFanout<${m.params ?? 'undefined'}>;`;
  f.print`  readonly #validate: boolean;`;
  f.blank();
  f.print`  constructor(private readonly transport: PeerTransport, options: PeerOptions = {}) {`;
  f.print`    this.#validate = options.validate ?? true;`;
  for (const m of events) {
    f.print`    this.#${m.name} = new NotificationFanout(transport, Method.${m.name}, this.#validate ? ${paramsValidator(m).name} : null);`;
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
    f.print`  on${pascalCase(m.name)}(handler: Subscriber<${m.params ?? 'undefined'}>): () => void {`;
    f.print`    return this.#${m.name}.subscribe(handler);`;
    f.print`  }`;
  }
  f.print`}`;
  f.blank();
}

function emitClientRequest(f: GeneratedFile, m: Method): void {
  const result = resultValidator(m);
  const args = m.params
    ? `params: ${m.params}, options?: RequestOptions`
    : 'options?: RequestOptions';
  f.blank();
  f.raw(f.jsdoc(withJsdocTags(`Sends \`${m.wireName}\`. ${m.description}`, m), '  '));
  f.print`  async ${m.name}(${args}): Promise<${m.result ?? 'void'}> {`;
  f.print`    const result = await this.transport.request(Method.${m.name}, ${m.params ? 'params' : 'undefined'}, options);`;
  f.print`    return requireValidResult(this.#validate ? ${result?.name ?? 'null'} : null, Method.${m.name}, result);`;
  f.print`  }`;
}

function emitHandlers(f: GeneratedFile, model: Model): void {
  f.raw(
    f.jsdoc(
      'What a server implements: one handler per client → server request. Params arrive already checked against the schema.',
    ),
  );
  f.print`export interface HarnessSdkRequestHandlers {`;
  for (const m of clientNames(model).requests) {
    const params = m.params ? `params: ${m.params}, ` : '';
    f.raw(f.jsdoc(withJsdocTags(m.description, m), '  '));
    f.print`  ${m.name}(${params}context: RequestContext): ${m.result ?? 'void'} | Promise<${m.result ?? 'void'}>;`;
  }
  f.print`}`;
  f.blank();
}

function emitServer(f: GeneratedFile, model: Model): void {
  f.raw(
    f.jsdoc(
      "The server end's outbound surface: a typed notify method per server → client notification.",
    ),
  );
  f.print`export class HarnessSdkServerPeer {`;
  f.print`  constructor(`;
  f.print`    private readonly transport: PeerTransport,`;
  f.print`    /** Unregisters the request handlers. */`;
  f.print`    readonly dispose: () => void,`;
  f.print`  ) {}`;
  for (const m of clientNames(model).notifications) {
    f.blank();
    f.raw(f.jsdoc(withJsdocTags(`Sends \`${m.wireName}\`. ${m.description}`, m), '  '));
    f.print`  notify${pascalCase(m.name)}(params: ${m.params ?? 'undefined'}): Promise<void> {`;
    f.print`    return this.transport.notify(Method.${m.name}, params);`;
    f.print`  }`;
  }
  f.print`}`;
  f.blank();
}

function emitServe(f: GeneratedFile, model: Model): void {
  f.raw(
    f.jsdoc(
      'Serves the protocol on `transport` with `handlers`: params that break the schema are answered `-32602`,\nlisting every violation, before any handler runs.',
    ),
  );
  f.print`export function serveHarnessSdk(transport: PeerTransport, handlers: HarnessSdkRequestHandlers, options: PeerOptions = {}): HarnessSdkServerPeer {`;
  f.print`  const validate = options.validate ?? true;`;
  f.print`  const disposers = [`;
  for (const m of clientNames(model).requests) {
    const validator = paramsValidator(m).name;
    const call = m.params ? `handlers.${m.name}(checked, context)` : `handlers.${m.name}(context)`;
    f.print`    transport.onRequest(Method.${m.name}, (params, context) => {`;
    // A method without params accepts them absent; any other method must receive them.
    const check = m.params
      ? `validate ? ${validator} : null`
      : `validate && params !== undefined ? ${validator} : null`;
    f.print`      ${m.params ? 'const checked = ' : ''}requireValidParams(${check}, params);`;
    f.print`      return ${call};`;
    f.print`    }),`;
  }
  f.print`  ];`;
  f.print`  return new HarnessSdkServerPeer(transport, () => disposers.forEach((dispose) => dispose()));`;
  f.print`}`;
}
