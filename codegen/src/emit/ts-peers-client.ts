// The client end of peers.gen.ts: a typed method per request it sends, a notify method per
// notification it sends, a subscription per notification it receives, and (when the server sends
// requests) `handleRequests` with the interface of what the client implements.
import type { Method } from '../idl/model.js';
import type { GeneratedFile } from '../printer/generated-file.js';
import type { PeersContext } from './ts-peer-parts.js';
import {
  emitNotifyMethod,
  emitRequestMethod,
  emitSubscription,
  fanoutField,
  method,
  payload,
  printFanoutInit,
  printHandlerSignature,
  printOptionalHandlers,
  printRegistration,
  sentArrow,
  supportType,
} from './ts-peer-parts.js';

export function emitAnyNotification(f: GeneratedFile, ctx: PeersContext): void {
  f.raw(
    f.jsdoc(
      `Any ${sentArrow(ctx, 'server')} notification with its checked params, told apart by \`method\`.`,
    ),
  );
  const events = ctx.client.handles.notifications;
  // A protocol whose server sends no notification: the union has no member.
  if (events.length === 0) f.print`export type ${ctx.names.anyNotification} = never;`;
  else {
    f.print`export type ${ctx.names.anyNotification} =`;
    for (const m of events) {
      f.print`  | { readonly method: typeof ${method(f, m)}; readonly params: ${payload(f, m.params, 'undefined')} }`;
    }
    f.print`;`;
  }
  f.blank();
}

function clientDoc(ctx: PeersContext): string {
  const { client } = ctx.target.bindings.sides;
  const lines = [
    `The ${client} end: a typed method per ${sentArrow(ctx, 'client')} request and a subscription per ${sentArrow(ctx, 'server')} notification.`,
    'Results are checked against the schema; a result that breaks it rejects with `ProtocolError`.',
  ];
  if (ctx.client.sends.notifications.length > 0)
    lines.push(`A \`notify…\` method sends each ${sentArrow(ctx, 'client')} notification.`);
  if (ctx.client.handles.requests.length > 0)
    lines.push(
      `\`handleRequests\` serves the ${sentArrow(ctx, 'server')} requests, their params checked first.`,
    );
  return lines.join('\n');
}

export function emitClient(f: GeneratedFile, ctx: PeersContext): void {
  const { sends, handles } = ctx.client;
  f.raw(f.jsdoc(clientDoc(ctx)));
  f.print`export class ${ctx.names.clientPeer} {`;
  for (const m of handles.notifications) f.raw(fanoutField(f, m));
  f.print`  readonly #validate: boolean;`;
  f.blank();
  const transport = supportType(f, 'PeerTransport');
  f.print`  constructor(private readonly transport: ${transport}, options: ${supportType(f, 'PeerOptions')} = {}) {`;
  f.print`    this.#validate = options.validate ?? true;`;
  for (const m of handles.notifications) printFanoutInit(f, m);
  f.print`  }`;
  for (const m of sends.requests) emitRequestMethod(f, m);
  for (const m of sends.notifications) emitNotifyMethod(f, m, 'this.transport.notify');
  for (const m of handles.notifications) emitSubscription(f, m);
  emitOnAnyNotification(f, ctx);
  if (handles.requests.length > 0) emitHandleRequests(f, ctx, handles.requests);
  f.print`}`;
  f.blank();
}

function emitOnAnyNotification(f: GeneratedFile, ctx: PeersContext): void {
  f.blank();
  f.raw(
    f.jsdoc(
      `Subscribes to every ${sentArrow(ctx, 'server')} notification, as \`{ method, params }\`, in wire order.\nReturns the function that unsubscribes from all of them.`,
      '  ',
    ),
  );
  f.print`  onAnyNotification(handler: ${supportType(f, 'Subscriber')}<${ctx.names.anyNotification}>): () => void {`;
  f.print`    const unsubscribes = [`;
  for (const m of ctx.client.handles.notifications) {
    f.print`      this.#${m.name}.subscribe((params) => handler({ method: ${method(f, m)}, params })),`;
  }
  f.print`    ];`;
  f.print`    return () => unsubscribes.forEach((unsubscribe) => unsubscribe());`;
  f.print`  }`;
}

function emitHandleRequests(
  f: GeneratedFile,
  ctx: PeersContext,
  requests: readonly Method[],
): void {
  f.blank();
  f.raw(
    f.jsdoc(
      `Serves the ${sentArrow(ctx, 'server')} requests with \`handlers\`: params that break the schema are\nanswered \`-32602\`, listing every violation, before any handler runs; a method without a handler is\nanswered \`-32601\`. Returns the function that unregisters them.`,
      '  ',
    ),
  );
  f.print`  handleRequests(handlers: ${ctx.names.clientRequestHandlers}): () => void {`;
  f.print`    const transport = this.transport;`;
  f.print`    const validate = this.#validate;`;
  printOptionalHandlers(f, requests, '    ');
  f.print`    const disposers = [`;
  for (const m of requests) printRegistration(f, m, '      ');
  f.print`    ];`;
  f.print`    return () => disposers.forEach((dispose) => dispose());`;
  f.print`  }`;
}

/** What the client implements when the server sends requests. */
export function emitClientHandlers(f: GeneratedFile, ctx: PeersContext): void {
  const requests = ctx.client.handles.requests;
  if (requests.length === 0) return;
  f.raw(
    f.jsdoc(
      `What the ${ctx.target.bindings.sides.client} end implements: one handler per ${sentArrow(ctx, 'server')} request. Params arrive already checked against the schema.`,
    ),
  );
  f.print`export interface ${ctx.names.clientRequestHandlers} {`;
  for (const m of requests) printHandlerSignature(f, m);
  f.print`}`;
  f.blank();
}
