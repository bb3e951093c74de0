// IDL → python/src/dsh_sdk/_gen/peers.py: a typed client end and server end over any PeerTransport,
// the Python twin of ts-peers.ts. Dataclasses in and out (codec.encode/decode), validators by name;
// the server end is printed by py-peers-server.ts.
import type { Model } from '../idl/model.js';
import { snakeCase } from '../idl/names.js';
import type { GeneratedFile, OutputFile } from '../printer/generated-file.js';
import type { ProtocolTargets } from '../protocols/targets.js';
import type { Emitter } from './emitter.js';
import { pyFile } from './emitter.js';
import type { Ends, Notification, Request } from './py-peer-ends.js';
import {
  codec,
  endsOf,
  methodConstant,
  model,
  printCall,
  printDef,
  printDeprecationWarning,
  pyMethodName,
  support,
  validatorOf,
} from './py-peer-ends.js';
import { emitHandlers, emitNotifier, emitServe, emitServer } from './py-peers-server.js';
import { layoutPy, pyCallExpr, pyDocstring, pyStr, PY_LINE_LENGTH } from './py-literals.js';
import { paramsValidator, resultValidator } from './validator-names.js';
import { withVersionSentences } from './version-notes.js';

export const pyPeersEmitter: Emitter = {
  name: 'py-peers',
  target: 'python',
  emit({ model, target }) {
    return [emitPeers(model, target)];
  },
};

const CLIENT_DOC = `The client end: a typed coroutine per client → server request and a subscription per server → client
notification, dataclasses in and out.

Results are checked against the schema; a result that breaks it raises \`ProtocolError\`. Notification params
that break it are dropped and reported as \`invalid-notification-params\`. \`validate=False\` skips both checks
(to measure their cost; never against a peer you do not control).`;

export function emitPeers(model: Model, target: ProtocolTargets): OutputFile {
  const ends = endsOf(model, target);
  const { client, handlers, anyParams, notifier, server, serve } = ends.names;
  const f = pyFile(target, 'peers.py', 'py-peers');
  const title = `Typed peers of the ${model.meta.title}: the client end and the server end over any \`PeerTransport\`.`;
  f.preamble(pyDocstring(title));
  f.import('annotations', '__future__');
  const names = [client, handlers, anyParams, notifier, server, serve].map(pyStr);
  f.raw(layoutPy({ head: '[', items: names, close: ']' }, 0, '__all__ = '));
  f.blank(2);
  emitAnyParams(f, ends);
  for (const emit of [emitClient, emitHandlers, emitNotifier, emitServer, emitServe]) {
    f.blank(2);
    emit(f, ends);
  }
  return f.finish();
}

function emitAnyParams(f: GeneratedFile, { notifications, names }: Ends): void {
  const head = `${names.anyParams}: ${f.import('TypeAlias', 'typing')} = `;
  const union = notifications.map((m) => model(f, m.params));
  const oneLine = `${head}${union.join(' | ')}`;
  // As ruff format prints a long union: parenthesized, one member a line.
  if (oneLine.length <= PY_LINE_LENGTH) f.raw(oneLine);
  else f.raw([`${head}(`, `    ${union.join('\n    | ')}`, ')'].join('\n'));
  f.raw(pyDocstring('The params of any server → client notification, decoded.'));
}

function emitClient(f: GeneratedFile, { requests, notifications, names }: Ends): void {
  f.print`class ${names.client}:`;
  f.raw(pyDocstring(CLIENT_DOC, '    '));
  f.blank();
  const slots = ['_transport', '_validate', ...notifications.map((m) => `_${snakeCase(m.name)}`)];
  f.raw(layoutPy({ head: '(', items: slots.sort().map(pyStr), close: ')' }, 4, '__slots__ = '));
  f.blank();
  const transport = `transport: ${support(f, 'PeerTransport')}`;
  printDef(f, 4, '__init__', ['self', transport, '*', 'validate: bool = True'], 'None');
  f.print`        self._transport = transport`;
  f.print`        self._validate = validate`;
  for (const m of notifications) {
    const validator = `${validatorOf(f, paramsValidator(m))} if validate else None`;
    const args = ['transport', methodConstant(f, m), validator, model(f, m.params)];
    printCall(f, 8, support(f, 'NotificationFanout'), args, `self._${snakeCase(m.name)} = `);
  }
  for (const m of requests) emitClientRequest(f, m);
  for (const m of notifications) emitSubscription(f, m);
  emitAnySubscription(f, notifications, names.anyParams);
}

function emitAnySubscription(
  f: GeneratedFile,
  notifications: readonly Notification[],
  anyParams: string,
): void {
  const handler = `handler: ${handlerType(f, `str, ${anyParams}`)}`;
  f.blank();
  printDef(f, 4, 'on_any_notification', ['self', handler], unsubscribeType(f));
  const doc = `Subscribes to every server → client notification: \`handler\` gets its wire method and its
checked, decoded params, in wire order. Returns the function that unsubscribes from all of them.`;
  f.raw(pyDocstring(doc, '        '));
  const subscriptions = notifications.map((m) =>
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

function emitClientRequest(f: GeneratedFile, m: Request): void {
  const params = m.params ? [`params: ${model(f, m.params)}`] : [];
  const method = methodConstant(f, m);
  const signature = ['self', ...params, '*', 'timeout: float | None = None'];
  f.blank();
  printDef(f, 4, pyMethodName(m), signature, model(f, m.result), true);
  f.raw(
    pyDocstring(withVersionSentences(`Sends \`${m.wireName}\`. ${m.description}`, m), '        '),
  );
  printDeprecationWarning(f, m);
  const encoded = m.params ? [`${codec(f, 'encode')}(params)`] : [];
  printCall(
    f,
    8,
    'self._transport.request',
    [method, ...encoded, 'timeout=timeout'],
    'result = await ',
  );
  f.print`        if self._validate:`;
  const validator = validatorOf(f, resultValidator(m) ?? paramsValidator(m));
  printCall(f, 12, support(f, 'require_valid_result'), [validator, method, 'result']);
  printCall(f, 8, support(f, 'decode_result'), [model(f, m.result), method, 'result'], 'return ');
}

function emitSubscription(f: GeneratedFile, m: Notification): void {
  const handler = `handler: ${handlerType(f, model(f, m.params))}`;
  f.blank();
  printDef(f, 4, `on_${snakeCase(m.name)}`, ['self', handler], unsubscribeType(f));
  const doc = `Subscribes to \`${m.wireName}\`. ${m.description}

\`handler\` gets the params checked and decoded; it may be a coroutine function. Returns the
function that unsubscribes.`;
  f.raw(pyDocstring(withVersionSentences(doc, m), '        '));
  printDeprecationWarning(f, m);
  f.print`        return self._${snakeCase(m.name)}.subscribe(handler)`;
}

/** `Callable[[<args>], Awaitable[None] | None]`: a subscriber, which may be a coroutine function. */
function handlerType(f: GeneratedFile, args: string): string {
  const callable = f.import('Callable', 'collections.abc');
  return `${callable}[[${args}], ${f.import('Awaitable', 'collections.abc')}[None] | None]`;
}

function unsubscribeType(f: GeneratedFile): string {
  return `${f.import('Callable', 'collections.abc')}[[], None]`;
}
