// The server end of peers.gen.ts: the interface of what it implements, the notifier of what it
// sends, the server peer (with a typed method per request it sends and a subscription per
// notification it receives, when the protocol has them) and `serve<Prefix>`.
import type { GeneratedFile } from '../printer/generated-file.js';
import type { PeersContext } from './ts-peer-parts.js';
import {
  emitNotifyMethod,
  emitRequestMethod,
  emitSubscription,
  fanoutField,
  printFanoutInit,
  printHandlerSignature,
  printOptionalHandlers,
  printRegistration,
  sentArrow,
  supportType,
} from './ts-peer-parts.js';

export function emitHandlers(f: GeneratedFile, ctx: PeersContext): void {
  f.raw(
    f.jsdoc(
      `What a ${ctx.target.bindings.sides.server} implements: one handler per ${sentArrow(ctx, 'client')} request. Params arrive already checked against the schema.`,
    ),
  );
  f.print`export interface ${ctx.names.requestHandlers} {`;
  for (const m of ctx.server.handles.requests) printHandlerSignature(f, m);
  f.print`}`;
  f.blank();
}

export function emitNotifier(f: GeneratedFile, ctx: PeersContext): void {
  f.raw(
    f.jsdoc(
      `A typed notify method per ${sentArrow(ctx, 'server')} notification, over any \`send\`: the ${ctx.target.bindings.sides.server} peer sends\nthrough its transport; a runtime can put a gate in between.`,
    ),
  );
  f.print`export class ${ctx.names.notifier} {`;
  const methodName = f.importType('NotificationMethod', './methods.gen.js');
  f.print`  constructor(private readonly send: (method: ${methodName}, params: unknown) => Promise<void>) {}`;
  for (const m of ctx.server.sends.notifications) emitNotifyMethod(f, m, 'this.send');
  f.print`}`;
  f.blank();
}

/** Whether the server peer sends requests or receives notifications (then it checks and fans out). */
const isTwoWay = (ctx: PeersContext): boolean =>
  ctx.server.sends.requests.length > 0 || ctx.server.handles.notifications.length > 0;

export function emitServer(f: GeneratedFile, ctx: PeersContext): void {
  const { sends, handles } = ctx.server;
  const extra = [
    ...(sends.requests.length > 0
      ? [`a typed method per ${sentArrow(ctx, 'server')} request`]
      : []),
    ...(handles.notifications.length > 0
      ? [`a subscription per ${sentArrow(ctx, 'client')} notification`]
      : []),
  ];
  f.raw(
    f.jsdoc(
      `The ${ctx.target.bindings.sides.server} end's outbound surface: a typed notify method per ${sentArrow(ctx, 'server')} notification${extra.length > 0 ? `, ${extra.join(' and ')}` : ''}.`,
    ),
  );
  f.print`export class ${ctx.names.serverPeer} extends ${ctx.names.notifier} {`;
  const twoWay = isTwoWay(ctx);
  for (const m of twoWay ? handles.notifications : []) f.raw(fanoutField(f, m));
  if (twoWay) f.print`  readonly #validate: boolean;`;
  if (twoWay) f.blank();
  f.print`  constructor(`;
  f.print`    ${twoWay ? 'private readonly ' : ''}transport: ${supportType(f, 'PeerTransport')},`;
  f.print`    /** Unregisters the request handlers. */`;
  f.print`    readonly dispose: () => void,`;
  if (twoWay) f.print`    options: ${supportType(f, 'PeerOptions')} = {},`;
  f.print`  ) {`;
  f.print`    super((method, params) => transport.notify(method, params));`;
  if (twoWay) f.print`    this.#validate = options.validate ?? true;`;
  for (const m of twoWay ? handles.notifications : []) printFanoutInit(f, m);
  f.print`  }`;
  for (const m of sends.requests) emitRequestMethod(f, m);
  for (const m of handles.notifications) emitSubscription(f, m);
  f.print`}`;
  f.blank();
}

export function emitServe(f: GeneratedFile, ctx: PeersContext): void {
  f.raw(
    f.jsdoc(
      'Serves the protocol on `transport` with `handlers`: params that break the schema are answered `-32602`,\nlisting every violation, before any handler runs.',
    ),
  );
  const transport = supportType(f, 'PeerTransport');
  const options = supportType(f, 'PeerOptions');
  const { serve, requestHandlers, serverPeer } = ctx.names;
  f.print`export function ${serve}(transport: ${transport}, handlers: ${requestHandlers}, options: ${options} = {}): ${serverPeer} {`;
  f.print`  const validate = options.validate ?? true;`;
  printOptionalHandlers(f, ctx.server.handles.requests, '  ');
  f.print`  const disposers = [`;
  for (const m of ctx.server.handles.requests) printRegistration(f, m, '    ');
  f.print`  ];`;
  const rest = isTwoWay(ctx) ? ', options' : '';
  f.print`  return new ${serverPeer}(transport, () => disposers.forEach((dispose) => dispose())${rest});`;
  f.print`}`;
}
