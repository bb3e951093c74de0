// The server end of python/src/dsh_sdk/_gen/peers.py: the handlers protocol, the outbound peer and
// serve_harness_sdk, which checks params before any handler runs (see py-peers.ts).
import { snakeCase } from '../idl/names.js';
import type { Ends } from './py-peer-ends.js';
import {
  HANDLERS,
  methodConstant,
  printCall,
  printDeprecationWarning,
  printDef,
  pyMethodName,
  SERVE,
  SERVER,
} from './py-peer-ends.js';
import type { PyFile } from './py-file.js';
import { layoutPy, pyCallExpr, pyDocstring } from './py-literals.js';
import { withVersionSentences } from './version-notes.js';
import { pyValidatorName } from './py-validators.js';
import { paramsValidator } from './validator-names.js';

const HANDLERS_DOC = `What a server implements: one coroutine per client → server request. Params arrive checked against the
schema and decoded; raise \`JsonRpcResponseError\` to answer with an error, anything else is answered \`-32603\`.`;

const SERVE_DOC = `Serves the protocol on \`transport\` with \`handlers\`. Params that break the schema are answered \`-32602\`,
listing every violation, before any handler runs; absent params are accepted only by a method without params.
\`validate=False\` skips the check (to measure its cost). Returns the outbound surface.`;

export function emitHandlers(f: PyFile, { requests }: Ends): void {
  f.print`class ${HANDLERS}(Protocol):`;
  f.raw(pyDocstring(HANDLERS_DOC, '    '));
  for (const m of requests) {
    const params = m.params ? [`params: ${m.params}`] : [];
    f.blank();
    printDef(f, 4, pyMethodName(m), ['self', ...params, 'context: RequestContext'], m.result, true);
    f.raw(pyDocstring(withVersionSentences(m.description, m), '        '));
    f.print`        ...`;
  }
}

export function emitServer(f: PyFile, { notifications }: Ends): void {
  f.print`class ${SERVER}:`;
  const doc =
    "The server end's outbound surface: a typed notify coroutine per server → client notification.";
  f.raw(pyDocstring(doc, '    '));
  f.blank();
  f.print`    __slots__ = ("_dispose", "_transport")`;
  f.blank();
  f.print`    def __init__(self, transport: PeerTransport, dispose: Callable[[], None]) -> None:`;
  f.print`        self._transport = transport`;
  f.print`        self._dispose = dispose`;
  f.blank();
  f.print`    def dispose(self) -> None:`;
  f.raw(pyDocstring('Unregisters the request handlers.', '        '));
  f.print`        self._dispose()`;
  for (const m of notifications) {
    f.blank();
    printDef(f, 4, `notify_${snakeCase(m.name)}`, ['self', `params: ${m.params}`], 'None', true);
    f.raw(
      pyDocstring(withVersionSentences(`Sends \`${m.wireName}\`. ${m.description}`, m), '        '),
    );
    printDeprecationWarning(f, m);
    printCall(f, 8, 'await self._transport.notify', [methodConstant(m), 'encode(params)']);
  }
}

export function emitServe(f: PyFile, { requests }: Ends): void {
  const signature = [
    'transport: PeerTransport',
    `handlers: ${HANDLERS}`,
    '*',
    'validate: bool = True',
  ];
  printDef(f, 0, SERVE, signature, SERVER);
  f.raw(pyDocstring(SERVE_DOC, '    '));
  for (const m of requests) {
    const validator = pyValidatorName(paramsValidator(m));
    f.blank();
    printDef(
      f,
      4,
      `on_${snakeCase(m.name)}`,
      ['params: Any', 'context: RequestContext'],
      'Awaitable[dict[str, Any]]',
    );
    if (m.params) {
      f.print`        if validate:`;
      printCall(f, 12, 'require_valid_params', [validator, 'params']);
      const decoded = pyCallExpr('decode_params', [m.params, 'params']);
      const call = pyCallExpr(`handlers.${pyMethodName(m)}`, [decoded, 'context']);
      printCall(f, 8, 'answer', [call], 'return ');
    } else {
      f.print`        # A method without params accepts them absent; present, they must be an object or null.`;
      f.print`        if validate and params is not ABSENT:`;
      printCall(f, 12, 'require_valid_params', [validator, 'params']);
      printCall(f, 8, 'answer', [`handlers.${pyMethodName(m)}(context)`], 'return ');
    }
  }
  f.blank();
  const routes = requests.map((m) => `${methodConstant(m)}: on_${snakeCase(m.name)}`);
  f.raw(
    layoutPy({ head: '{', items: routes, close: '}' }, 4, 'routes: dict[str, RequestHandler] = '),
  );
  printCall(f, 4, SERVER, ['transport', 'register_request_handlers(transport, routes)'], 'return ');
}
