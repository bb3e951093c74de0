// IDL → python/src/dsh_sdk/_gen/peers.py: a typed client end and server end over any PeerTransport,
// the Python twin of ts-peers.ts. Dataclasses in and out (codec.encode/decode), validators by name;
// the server end is printed by py-peers-server.ts.
import type { Model } from '../idl/model.js';
import { snakeCase } from '../idl/names.js';
import type { OutputFile } from '../printer/generated-file.js';
import type { Emitter } from './emitter.js';
import { PY_GEN_DIR } from './emitter.js';
import { PyFile } from './py-file.js';
import type { Ends, Notification, Request } from './py-peer-ends.js';
import {
  CLIENT,
  endsOf,
  HANDLERS,
  methodConstant,
  printCall,
  printDef,
  printDeprecationWarning,
  pyMethodName,
  SERVE,
  SERVER,
} from './py-peer-ends.js';
import { emitHandlers, emitServe, emitServer } from './py-peers-server.js';
import { layoutPy, pyDocstring, pyImport, pyStr } from './py-literals.js';
import { pyValidatorName } from './py-validators.js';
import { paramsValidator, resultValidator } from './validator-names.js';
import { withVersionSentences } from './version-notes.js';

export const pyPeersEmitter: Emitter = {
  name: 'py-peers',
  emit({ model }) {
    return [emitPeers(model)];
  },
};

const CLIENT_DOC = `The client end: a typed coroutine per client → server request and a subscription per server → client
notification, dataclasses in and out.

Results are checked against the schema; a result that breaks it raises \`ProtocolError\`. Notification params
that break it are dropped and reported as \`invalid-notification-params\`. \`validate=False\` skips both checks
(to measure their cost; never against a peer you do not control).`;

export function emitPeers(model: Model): OutputFile {
  const ends = endsOf(model);
  const f = new PyFile(`${PY_GEN_DIR}/peers.py`, 'py-peers');
  const title = `Typed peers of the ${model.meta.title}: the client end and the server end over any \`PeerTransport\`.`;
  f.raw(pyDocstring(title));
  f.blank();
  emitImports(f, ends);
  f.blank();
  const names = [CLIENT, HANDLERS, SERVER, SERVE].map(pyStr);
  f.raw(layoutPy({ head: '[', items: names, close: ']' }, 0, '__all__ = '));
  for (const emit of [emitClient, emitHandlers, emitServer, emitServe]) {
    f.blank(2);
    emit(f, ends);
  }
  return f.finish();
}

/** A `from … import …` line, with parentheses only when the names do not fit on one line. */
function printImport(f: PyFile, module: string, names: Iterable<string>): void {
  f.raw(pyImport(module, names));
}

/** Imports exactly what the file uses (ruff's unused-import rule holds for generated code too). */
function emitImports(f: PyFile, { requests, notifications }: Ends): void {
  const types = requests.flatMap((m) => (m.params ? [m.params, m.result] : [m.result]));
  types.push(...notifications.map((m) => m.params));
  // Every params validator is used, a request's without params too (for params that are present).
  const validators = [...requests, ...notifications].flatMap((m) => {
    const result = resultValidator(m);
    return [paramsValidator(m), ...(result ? [result] : [])].map(pyValidatorName);
  });
  const hasRequests = requests.length > 0;
  const support = ['PeerTransport', 'answer', 'register_request_handlers'];
  if (hasRequests) support.push('decode_result', 'require_valid_params', 'require_valid_result');
  if (requests.some((m) => m.params)) support.push('decode_params');
  if (notifications.length > 0) support.push('NotificationFanout');
  f.print`from __future__ import annotations`;
  f.blank();
  if ([...requests, ...notifications].some((m) => m.deprecated)) f.print`import warnings`;
  f.print`from collections.abc import Awaitable, Callable`;
  f.print`from typing import ${hasRequests ? 'Any, Protocol' : 'Protocol'}`;
  f.blank();
  f.print`from dsh_sdk._gen.methods import Method`;
  printImport(f, 'dsh_sdk._gen.models', types);
  printImport(f, 'dsh_sdk._gen.validators', validators);
  f.print`from dsh_sdk.codec import encode`;
  f.print`from dsh_sdk.inbound_handlers import RequestContext, RequestHandler`;
  if (requests.some((m) => !m.params)) f.print`from dsh_sdk.jsonlib import ABSENT`;
  printImport(f, 'dsh_sdk.peer_support', support);
}

function emitClient(f: PyFile, { requests, notifications }: Ends): void {
  f.print`class ${CLIENT}:`;
  f.raw(pyDocstring(CLIENT_DOC, '    '));
  f.blank();
  const slots = ['_transport', '_validate', ...notifications.map((m) => `_${snakeCase(m.name)}`)];
  f.raw(layoutPy({ head: '(', items: slots.sort().map(pyStr), close: ')' }, 4, '__slots__ = '));
  f.blank();
  printDef(
    f,
    4,
    '__init__',
    ['self', 'transport: PeerTransport', '*', 'validate: bool = True'],
    'None',
  );
  f.print`        self._transport = transport`;
  f.print`        self._validate = validate`;
  for (const m of notifications) {
    const validator = `${pyValidatorName(paramsValidator(m))} if validate else None`;
    const args = ['transport', methodConstant(m), validator, m.params];
    printCall(f, 8, 'NotificationFanout', args, `self._${snakeCase(m.name)} = `);
  }
  for (const m of requests) emitClientRequest(f, m);
  for (const m of notifications) emitSubscription(f, m);
}

function emitClientRequest(f: PyFile, m: Request): void {
  const params = m.params ? [`params: ${m.params}`] : [];
  const method = methodConstant(m);
  f.blank();
  printDef(
    f,
    4,
    pyMethodName(m),
    ['self', ...params, '*', 'timeout: float | None = None'],
    m.result,
    true,
  );
  f.raw(
    pyDocstring(withVersionSentences(`Sends \`${m.wireName}\`. ${m.description}`, m), '        '),
  );
  printDeprecationWarning(f, m);
  const args = [method, ...(m.params ? ['encode(params)'] : []), 'timeout=timeout'];
  printCall(f, 8, 'self._transport.request', args, 'result = await ');
  f.print`        if self._validate:`;
  const validator = pyValidatorName(resultValidator(m) ?? paramsValidator(m));
  printCall(f, 12, 'require_valid_result', [validator, method, 'result']);
  printCall(f, 8, 'decode_result', [m.result, method, 'result'], 'return ');
}

function emitSubscription(f: PyFile, m: Notification): void {
  const handler = `handler: Callable[[${m.params}], Awaitable[None] | None]`;
  f.blank();
  printDef(f, 4, `on_${snakeCase(m.name)}`, ['self', handler], 'Callable[[], None]');
  const doc = `Subscribes to \`${m.wireName}\`. ${m.description}

\`handler\` gets the params checked and decoded; it may be a coroutine function. Returns the
function that unsubscribes.`;
  f.raw(pyDocstring(withVersionSentences(doc, m), '        '));
  printDeprecationWarning(f, m);
  f.print`        return self._${snakeCase(m.name)}.subscribe(handler)`;
}
