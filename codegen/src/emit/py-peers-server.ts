// The server end of peers.py: the handlers protocol, the notifier, the server peer (with a typed
// coroutine per request it sends and a subscription per notification it receives, when the protocol
// has them) and serve_<prefix>, which checks params before any handler runs (see py-peers.ts).
import { snakeCase } from '../idl/names.js';
import type { GeneratedFile } from '../printer/generated-file.js';
import type { Ends } from './py-peer-ends.js';
import { aSide, printDef, sentArrow, side, support } from './py-peer-ends.js';
import {
  emitNotifyCoroutine,
  emitRequestCoroutine,
  emitSubscription,
  printFanoutInit,
  printHandlerMethod,
  printRoutes,
} from './py-peer-parts.js';
import { pyDocstring, pyStr, layoutPy } from './py-literals.js';

const SERVE_DOC = `Serves the protocol on \`transport\` with \`handlers\`. Params that break the schema are answered \`-32602\`,
listing every violation, before any handler runs; absent params are accepted only by a method without params.
\`validate=False\` skips the check (to measure its cost). Returns the outbound surface.`;

/** Why a handlers protocol's optional coroutines have a body; said where there are some. */
export const OPTIONAL_HANDLERS_DOC = `Optional coroutines answer \`-32601\`: a class that subclasses this protocol may leave them out, and
they are then not registered.`;

export function emitHandlers(f: GeneratedFile, ends: Ends): void {
  const requests = ends.server.handles.requests;
  f.print`class ${ends.names.handlers}(${f.import('Protocol', 'typing')}):`;
  const doc = `What ${aSide(ends, 'server')} implements: one coroutine per ${sentArrow(ends, 'client')} request. Params arrive checked against the
schema and decoded; raise \`JsonRpcResponseError\` to answer with an error, anything else is answered \`-32603\`.`;
  const optional = requests.some((m) => m.isOptional) ? `\n\n${OPTIONAL_HANDLERS_DOC}` : '';
  f.raw(pyDocstring(doc + optional, '    '));
  for (const m of requests) printHandlerMethod(f, m);
}

export function emitNotifier(f: GeneratedFile, ends: Ends): void {
  f.print`class ${ends.names.notifier}:`;
  const doc = `A typed notify coroutine per ${sentArrow(ends, 'server')} notification, over any \`send\` (which gets the wire
method and the encoded params): the ${side(ends, 'server')} peer sends through its transport; a runtime can put a gate
in between.`;
  f.raw(pyDocstring(doc, '    '));
  f.blank();
  f.print`    __slots__ = ("_send",)`;
  f.blank();
  const send = `${f.import('Callable', 'collections.abc')}[[str, ${f.import('Any', 'typing')}], ${f.import('Awaitable', 'collections.abc')}[None]]`;
  f.print`    def __init__(self, send: ${send}) -> None:`;
  f.print`        self._send = send`;
  for (const m of ends.server.sends.notifications) emitNotifyCoroutine(f, ends, m, 'self._send');
}

/** Whether the server peer sends requests or receives notifications (then it checks and fans out). */
const isTwoWay = ({ server }: Ends): boolean =>
  server.sends.requests.length > 0 || server.handles.notifications.length > 0;

function serverDoc(ends: Ends): string {
  const { sends, handles } = ends.server;
  const extra = [
    ...(sends.requests.length > 0
      ? [`a typed coroutine per ${sentArrow(ends, 'server')} request`]
      : []),
    ...(handles.notifications.length > 0
      ? [`a subscription per ${sentArrow(ends, 'client')} notification`]
      : []),
  ];
  const more = extra.length > 0 ? `, ${extra.join(' and ')}` : '';
  return `The ${side(ends, 'server')} end's outbound surface: a typed notify coroutine per ${sentArrow(ends, 'server')} notification${more}.`;
}

export function emitServer(f: GeneratedFile, ends: Ends): void {
  const { names } = ends;
  f.print`class ${names.server}(${names.notifier}):`;
  f.raw(pyDocstring(serverDoc(ends), '    '));
  f.blank();
  const transport = support(f, 'PeerTransport');
  const dispose = `dispose: ${f.import('Callable', 'collections.abc')}[[], None]`;
  if (isTwoWay(ends)) printTwoWayInit(f, ends, transport, dispose);
  else {
    f.print`    __slots__ = ("_dispose",)`;
    f.blank();
    f.print`    def __init__(self, transport: ${transport}, ${dispose}) -> None:`;
    f.print`        super().__init__(transport.notify)`;
    f.print`        self._dispose = dispose`;
  }
  f.blank();
  f.print`    def dispose(self) -> None:`;
  f.raw(pyDocstring('Unregisters the request handlers.', '        '));
  f.print`        self._dispose()`;
  for (const m of ends.server.sends.requests) emitRequestCoroutine(f, ends, m);
  for (const m of ends.server.handles.notifications) emitSubscription(f, m);
}

function printTwoWayInit(f: GeneratedFile, ends: Ends, transport: string, dispose: string): void {
  const fanouts = ends.server.handles.notifications.map((m) => `_${snakeCase(m.name)}`);
  const slots = ['_dispose', '_transport', '_validate', ...fanouts].sort().map(pyStr);
  f.raw(layoutPy({ head: '(', items: slots, close: ')' }, 4, '__slots__ = '));
  f.blank();
  const signature = ['self', `transport: ${transport}`, dispose, '*', 'validate: bool = True'];
  printDef(f, 4, '__init__', signature, 'None');
  f.print`        super().__init__(transport.notify)`;
  f.print`        self._dispose = dispose`;
  f.print`        self._transport = transport`;
  f.print`        self._validate = validate`;
  for (const m of ends.server.handles.notifications) printFanoutInit(f, m);
}

export function emitServe(f: GeneratedFile, ends: Ends): void {
  const { names } = ends;
  const signature = [
    `transport: ${support(f, 'PeerTransport')}`,
    `handlers: ${names.handlers}`,
    '*',
    'validate: bool = True',
  ];
  printDef(f, 0, names.serve, signature, names.server);
  f.raw(pyDocstring(SERVE_DOC, '    '));
  printRoutes(f, ends.server.handles.requests, names.handlers, 4);
  const register = `${support(f, 'register_request_handlers')}(transport, routes)`;
  const args = ['transport', register, ...(isTwoWay(ends) ? ['validate=validate'] : [])];
  f.raw(layoutPy({ head: `${names.server}(`, items: args, close: ')' }, 4, 'return '));
}
