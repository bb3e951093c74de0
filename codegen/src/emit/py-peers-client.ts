// The client end of peers.py: the params of any notification it receives, the client peer (a typed
// coroutine per request it sends, a notify coroutine per notification it sends, a subscription per
// notification it receives and, when the server sends requests, `handle_requests`) and the
// protocol of what the client implements (see py-peers.ts).
import { snakeCase } from '../idl/names.js';
import type { GeneratedFile } from '../printer/generated-file.js';
import type { Ends } from './py-peer-ends.js';
import { methodConstant, model, printDef, sentArrow, side, support } from './py-peer-ends.js';
import {
  emitNotifyCoroutine,
  emitRequestCoroutine,
  emitSubscription,
  handlerType,
  printFanoutInit,
  printHandlerMethod,
  printRoutes,
  unsubscribeType,
} from './py-peer-parts.js';
import { OPTIONAL_HANDLERS_DOC } from './py-peers-server.js';
import { layoutPy, pyCallExpr, pyDocstring, pyStr, PY_LINE_LENGTH } from './py-literals.js';

export function emitAnyParams(f: GeneratedFile, ends: Ends): void {
  const head = `${ends.names.anyParams}: ${f.import('TypeAlias', 'typing')} = `;
  const union = ends.client.handles.notifications.map((m) => model(f, m.params as string));
  const oneLine = `${head}${union.join(' | ')}`;
  // A protocol whose server sends no notification: the union has no member.
  if (union.length === 0) f.raw(`${head}${f.import('NoReturn', 'typing')}`);
  // As ruff format prints a long union: parenthesized, on one line when it fits, else one member a line.
  else if (oneLine.length <= PY_LINE_LENGTH) f.raw(oneLine);
  else if (`    ${union.join(' | ')}`.length <= PY_LINE_LENGTH)
    f.raw([`${head}(`, `    ${union.join(' | ')}`, ')'].join('\n'));
  else f.raw([`${head}(`, `    ${union.join('\n    | ')}`, ')'].join('\n'));
  f.raw(pyDocstring(`The params of any ${sentArrow(ends, 'server')} notification, decoded.`));
}

function clientDoc(ends: Ends): string {
  const { sends, handles } = ends.client;
  const lines = [
    `The ${side(ends, 'client')} end: a typed coroutine per ${sentArrow(ends, 'client')} request and a subscription per ${sentArrow(ends, 'server')}
notification, dataclasses in and out.`,
    '',
    `Results are checked against the schema; a result that breaks it raises \`ProtocolError\`. Notification params
that break it are dropped and reported as \`invalid-notification-params\`. \`validate=False\` skips both checks
(to measure their cost; never against a peer you do not control).`,
  ];
  const more = [
    ...(sends.notifications.length > 0
      ? [`A \`notify_…\` coroutine sends each ${sentArrow(ends, 'client')} notification.`]
      : []),
    ...(handles.requests.length > 0
      ? [
          `\`handle_requests\` serves the ${sentArrow(ends, 'server')} requests, their params checked first.`,
        ]
      : []),
  ];
  return [...lines, ...(more.length > 0 ? ['', more.join('\n')] : [])].join('\n');
}

export function emitClient(f: GeneratedFile, ends: Ends): void {
  const { sends, handles } = ends.client;
  f.print`class ${ends.names.client}:`;
  f.raw(pyDocstring(clientDoc(ends), '    '));
  f.blank();
  const slots = [
    '_transport',
    '_validate',
    ...handles.notifications.map((m) => `_${snakeCase(m.name)}`),
  ];
  f.raw(layoutPy({ head: '(', items: slots.sort().map(pyStr), close: ')' }, 4, '__slots__ = '));
  f.blank();
  const transport = `transport: ${support(f, 'PeerTransport')}`;
  printDef(f, 4, '__init__', ['self', transport, '*', 'validate: bool = True'], 'None');
  f.print`        self._transport = transport`;
  f.print`        self._validate = validate`;
  for (const m of handles.notifications) printFanoutInit(f, m);
  for (const m of sends.requests) emitRequestCoroutine(f, ends, m);
  for (const m of sends.notifications) emitNotifyCoroutine(f, ends, m, 'self._transport.notify');
  for (const m of handles.notifications) emitSubscription(f, m);
  emitAnySubscription(f, ends);
  if (handles.requests.length > 0) emitHandleRequests(f, ends);
}

function emitAnySubscription(f: GeneratedFile, ends: Ends): void {
  const handler = `handler: ${handlerType(f, `str, ${ends.names.anyParams}`)}`;
  f.blank();
  printDef(f, 4, 'on_any_notification', ['self', handler], unsubscribeType(f));
  const doc = `Subscribes to every ${sentArrow(ends, 'server')} notification: \`handler\` gets its wire method and its
checked, decoded params, in wire order. Returns the function that unsubscribes from all of them.`;
  f.raw(pyDocstring(doc, '        '));
  const subscriptions = ends.client.handles.notifications.map((m) =>
    pyCallExpr(`self._${snakeCase(m.name)}.subscribe`, [
      `lambda params: handler(${methodConstant(f, m)}, params)`,
    ]),
  );
  f.raw(layoutPy({ head: '[', items: subscriptions, close: ']' }, 8, 'unsubscribes = '));
  f.blank();
  f.print`        def unsubscribe() -> None:`;
  f.print`            for each in unsubscribes:`;
  f.print`                each()`;
  f.blank();
  f.print`        return unsubscribe`;
}

function emitHandleRequests(f: GeneratedFile, ends: Ends): void {
  const protocol = ends.names.clientHandlers;
  f.blank();
  printDef(f, 4, 'handle_requests', ['self', `handlers: ${protocol}`], unsubscribeType(f));
  const doc = `Serves the ${sentArrow(ends, 'server')} requests with \`handlers\`: params that break the schema are answered
\`-32602\`, listing every violation, before any handler runs; a method without a handler is answered \`-32601\`.
Returns the function that unregisters them.`;
  f.raw(pyDocstring(doc, '        '));
  f.print`        transport = self._transport`;
  f.print`        validate = self._validate`;
  printRoutes(f, ends.client.handles.requests, protocol, 8);
  f.print`        return ${support(f, 'register_request_handlers')}(transport, routes)`;
}

/** What the client implements when the server sends requests. */
export function emitClientHandlers(f: GeneratedFile, ends: Ends): void {
  const requests = ends.client.handles.requests;
  f.print`class ${ends.names.clientHandlers}(${f.import('Protocol', 'typing')}):`;
  const doc = `What the ${side(ends, 'client')} end implements: one coroutine per ${sentArrow(ends, 'server')} request, served by
\`handle_requests\`. Params arrive checked against the schema and decoded; raise \`JsonRpcResponseError\` to
answer with an error, anything else is answered \`-32603\`.`;
  const optional = requests.some((m) => m.isOptional) ? `\n\n${OPTIONAL_HANDLERS_DOC}` : '';
  f.raw(pyDocstring(doc + optional, '    '));
  for (const m of requests) printHandlerMethod(f, m);
}
