// The server end of python/src/dsh_sdk/_gen/peers.py: the handlers protocol, the notifier, the
// outbound peer and serve_harness_sdk, which checks params before any handler runs (see py-peers.ts).
import { snakeCase } from '../idl/names.js';
import type { GeneratedFile } from '../printer/generated-file.js';
import type { Ends } from './py-peer-ends.js';
import {
  codec,
  methodConstant,
  model,
  printCall,
  printDeprecationWarning,
  printDef,
  pyMethodName,
  support,
  validatorOf,
} from './py-peer-ends.js';
import { layoutPy, pyCallExpr, pyDocstring } from './py-literals.js';
import { withVersionSentences } from './version-notes.js';
import { paramsValidator } from './validator-names.js';

const HANDLERS_DOC = `What a server implements: one coroutine per client → server request. Params arrive checked against the
schema and decoded; raise \`JsonRpcResponseError\` to answer with an error, anything else is answered \`-32603\`.`;

const SERVE_DOC = `Serves the protocol on \`transport\` with \`handlers\`. Params that break the schema are answered \`-32602\`,
listing every violation, before any handler runs; absent params are accepted only by a method without params.
\`validate=False\` skips the check (to measure its cost). Returns the outbound surface.`;

/** A name of the runtime's inbound handlers module, imported where it is printed. */
const inbound = (f: GeneratedFile, name: string): string =>
  f.import(name, f.python.runtime.inboundHandlers);

export function emitHandlers(f: GeneratedFile, { requests, names }: Ends): void {
  f.print`class ${names.handlers}(${f.import('Protocol', 'typing')}):`;
  f.raw(pyDocstring(HANDLERS_DOC, '    '));
  for (const m of requests) {
    const params = m.params ? [`params: ${model(f, m.params)}`] : [];
    const context = `context: ${inbound(f, 'RequestContext')}`;
    f.blank();
    printDef(f, 4, pyMethodName(m), ['self', ...params, context], model(f, m.result), true);
    f.raw(pyDocstring(withVersionSentences(m.description, m), '        '));
    f.print`        ...`;
  }
}

export function emitNotifier(f: GeneratedFile, { notifications, names }: Ends): void {
  f.print`class ${names.notifier}:`;
  const doc = `A typed notify coroutine per server → client notification, over any \`send\` (which gets the wire
method and the encoded params): the server peer sends through its transport; a runtime can put a gate
in between.`;
  f.raw(pyDocstring(doc, '    '));
  f.blank();
  f.print`    __slots__ = ("_send",)`;
  f.blank();
  const send = `${f.import('Callable', 'collections.abc')}[[str, ${f.import('Any', 'typing')}], ${f.import('Awaitable', 'collections.abc')}[None]]`;
  f.print`    def __init__(self, send: ${send}) -> None:`;
  f.print`        self._send = send`;
  for (const m of notifications) {
    f.blank();
    printDef(
      f,
      4,
      `notify_${snakeCase(m.name)}`,
      ['self', `params: ${model(f, m.params)}`],
      'None',
      true,
    );
    f.raw(
      pyDocstring(withVersionSentences(`Sends \`${m.wireName}\`. ${m.description}`, m), '        '),
    );
    printDeprecationWarning(f, m);
    printCall(f, 8, 'await self._send', [methodConstant(f, m), `${codec(f, 'encode')}(params)`]);
  }
}

export function emitServer(f: GeneratedFile, { names }: Ends): void {
  f.print`class ${names.server}(${names.notifier}):`;
  const doc =
    "The server end's outbound surface: a typed notify coroutine per server → client notification.";
  f.raw(pyDocstring(doc, '    '));
  f.blank();
  f.print`    __slots__ = ("_dispose",)`;
  f.blank();
  const transport = support(f, 'PeerTransport');
  f.print`    def __init__(self, transport: ${transport}, dispose: ${f.import('Callable', 'collections.abc')}[[], None]) -> None:`;
  f.print`        super().__init__(transport.notify)`;
  f.print`        self._dispose = dispose`;
  f.blank();
  f.print`    def dispose(self) -> None:`;
  f.raw(pyDocstring('Unregisters the request handlers.', '        '));
  f.print`        self._dispose()`;
}

export function emitServe(f: GeneratedFile, { requests, names }: Ends): void {
  const signature = [
    `transport: ${support(f, 'PeerTransport')}`,
    `handlers: ${names.handlers}`,
    '*',
    'validate: bool = True',
  ];
  printDef(f, 0, names.serve, signature, names.server);
  f.raw(pyDocstring(SERVE_DOC, '    '));
  const any = f.import('Any', 'typing');
  const context = inbound(f, 'RequestContext');
  const answer = support(f, 'answer');
  for (const m of requests) {
    const validator = validatorOf(f, paramsValidator(m));
    const returns = `${f.import('Awaitable', 'collections.abc')}[dict[str, ${any}]]`;
    f.blank();
    printDef(f, 4, `on_${snakeCase(m.name)}`, [`params: ${any}`, `context: ${context}`], returns);
    const requireValid = support(f, 'require_valid_params');
    if (m.params) {
      f.print`        if validate:`;
      printCall(f, 12, requireValid, [validator, 'params']);
      const decoded = pyCallExpr(support(f, 'decode_params'), [model(f, m.params), 'params']);
      const call = pyCallExpr(`handlers.${pyMethodName(m)}`, [decoded, 'context']);
      printCall(f, 8, answer, [call], 'return ');
    } else {
      f.print`        # A method without params accepts them absent; present, they must be an object or null.`;
      f.print`        if validate and params is not ${f.import('ABSENT', f.python.runtime.json)}:`;
      printCall(f, 12, requireValid, [validator, 'params']);
      printCall(f, 8, answer, [`handlers.${pyMethodName(m)}(context)`], 'return ');
    }
  }
  f.blank();
  const routes = requests.map((m) => `${methodConstant(f, m)}: on_${snakeCase(m.name)}`);
  const handler = inbound(f, 'RequestHandler');
  f.raw(layoutPy({ head: '{', items: routes, close: '}' }, 4, `routes: dict[str, ${handler}] = `));
  const register = `${support(f, 'register_request_handlers')}(transport, routes)`;
  printCall(f, 4, names.server, ['transport', register], 'return ');
}
