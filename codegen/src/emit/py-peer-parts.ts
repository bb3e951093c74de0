// How the Python peers print a request coroutine, a notify coroutine, a subscription, a handlers
// protocol and the routes that serve it, the same for either end (the twin of ts-peer-parts.ts).
import type { Method } from '../idl/model.js';
import { findType } from '../idl/model.js';
import { snakeCase } from '../idl/names.js';
import type { GeneratedFile } from '../printer/generated-file.js';
import type { Ends } from './py-peer-ends.js';
import {
  encoded,
  isDecoded,
  methodConstant,
  model,
  printCall,
  printDef,
  printDeprecationWarning,
  printFamilyCheck,
  pyMethodName,
  support,
  validatorOf,
  wireMethod,
} from './py-peer-ends.js';
import { layoutPy, pyCallExpr, pyDocstring, pyStr } from './py-literals.js';
import { paramsValidator, resultValidator } from './validator-names.js';
import { withVersionSentences } from './version-notes.js';

/** A name of the runtime's inbound handlers module, imported where it is printed. */
export const inbound = (f: GeneratedFile, name: string): string =>
  f.import(name, f.python.runtime.inboundHandlers);

/** `Sends \`session/prompt\`. …`; a family's says `_…`. */
const sendsDoc = (m: Method): string =>
  withVersionSentences(`Sends \`${m.wireName}\`${m.isPrefix ? '…' : ''}. ${m.description}`, m);

/** The leading parameters of a call that sends `m`: a family's wire method, then the params. */
const sendParams = (f: GeneratedFile, m: Method): string[] => [
  ...(m.isPrefix ? ['method: str'] : []),
  ...(m.params ? [`params: ${model(f, m.params)}`] : []),
];

/** An outbound request: params encoded, the result checked against its schema and decoded. */
export function emitRequestCoroutine(f: GeneratedFile, ends: Ends, m: Method): void {
  const result = m.result as string;
  const method = wireMethod(f, m);
  const signature = ['self', ...sendParams(f, m), '*', 'timeout: float | None = None'];
  f.blank();
  printDef(f, 4, pyMethodName(m), signature, model(f, result), true);
  f.raw(pyDocstring(sendsDoc(m), '        '));
  printDeprecationWarning(f, m);
  printFamilyCheck(f, m);
  const params = m.params ? [encoded(f, ends, m.params)] : [];
  printCall(
    f,
    8,
    'self._transport.request',
    [method, ...params, 'timeout=timeout'],
    'result = await ',
  );
  f.print`        if self._validate:`;
  const validator = validatorOf(f, resultValidator(m) ?? paramsValidator(m));
  printCall(f, 12, support(f, 'require_valid_result'), [validator, method, 'result']);
  const decode = pyCallExpr(support(f, 'decode_result'), [model(f, result), method, 'result']);
  if (!isDecoded(ends.model, result)) f.print`        return result`;
  else if (findType(ends.model, result).kind === 'object') f.raw(layoutPy(decode, 8, 'return '));
  else {
    // A union alias is no class: its decoder is typed `Any`, which the annotation narrows.
    f.raw(layoutPy(decode, 8, `decoded: ${model(f, result)} = `));
    f.print`        return decoded`;
  }
}

/** An outbound notification: `notify_<name>`, over `send` (a transport's `notify`, a notifier's `_send`). */
export function emitNotifyCoroutine(f: GeneratedFile, ends: Ends, m: Method, send: string): void {
  f.blank();
  printDef(f, 4, `notify_${snakeCase(m.name)}`, ['self', ...sendParams(f, m)], 'None', true);
  f.raw(pyDocstring(sendsDoc(m), '        '));
  printDeprecationWarning(f, m);
  printFamilyCheck(f, m);
  printCall(f, 8, `await ${send}`, [wireMethod(f, m), encoded(f, ends, m.params as string)]);
}

/** The fan-out of an inbound notification, created in the peer's `__init__`. */
export function printFanoutInit(f: GeneratedFile, m: Method): void {
  const validator = `${validatorOf(f, paramsValidator(m))} if validate else None`;
  const args = ['transport', methodConstant(f, m), validator, model(f, m.params as string)];
  printCall(f, 8, support(f, 'NotificationFanout'), args, `self._${snakeCase(m.name)} = `);
}

/** `on_<name>(handler)`: subscribes to an inbound notification. */
export function emitSubscription(f: GeneratedFile, m: Method): void {
  const handler = `handler: ${handlerType(f, model(f, m.params as string))}`;
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
export function handlerType(f: GeneratedFile, args: string): string {
  const callable = f.import('Callable', 'collections.abc');
  return `${callable}[[${args}], ${f.import('Awaitable', 'collections.abc')}[None] | None]`;
}

export function unsubscribeType(f: GeneratedFile): string {
  return `${f.import('Callable', 'collections.abc')}[[], None]`;
}

/**
 * One coroutine of a handlers protocol. An optional one has a body answering `-32601`: a class
 * that subclasses the protocol may leave it out, and it is then never registered.
 */
export function printHandlerMethod(f: GeneratedFile, m: Method): void {
  const params = m.params ? [`params: ${model(f, m.params)}`] : [];
  const context = `context: ${inbound(f, 'RequestContext')}`;
  f.blank();
  printDef(f, 4, pyMethodName(m), ['self', ...params, context], model(f, m.result as string), true);
  const optional = `\n\nOptional: a subclass that leaves it out answers \`${m.wireName}\` with \`-32601\`.`;
  const doc = withVersionSentences(m.description, m) + (m.isOptional ? optional : '');
  f.raw(pyDocstring(doc, '        '));
  if (m.isOptional)
    printCall(f, 8, support(f, 'method_not_found'), [methodConstant(f, m)], 'raise ');
  else f.print`        ...`;
}

/**
 * The inbound routes of `requests` at `indent`: one function each that checks the params before the
 * handler of `protocol` runs, then `routes`, with an optional method only where `handlers` has it.
 */
export function printRoutes(
  f: GeneratedFile,
  requests: readonly Method[],
  protocol: string,
  indent: number,
): void {
  const any = f.import('Any', 'typing');
  const context = inbound(f, 'RequestContext');
  for (const m of requests) {
    const returns = `${f.import('Awaitable', 'collections.abc')}[dict[str, ${any}]]`;
    f.blank();
    printDef(
      f,
      indent,
      `on_${snakeCase(m.name)}`,
      [`params: ${any}`, `context: ${context}`],
      returns,
    );
    printRouteBody(f, m, indent + 4);
  }
  f.blank();
  const handler = inbound(f, 'RequestHandler');
  const entry = (m: Method) => `${methodConstant(f, m)}: on_${snakeCase(m.name)}`;
  const routes = requests.filter((m) => !m.isOptional).map(entry);
  const head = `routes: dict[str, ${handler}] = `;
  f.raw(layoutPy({ head: '{', items: routes, close: '}' }, indent, head));
  const pad = ' '.repeat(indent);
  for (const m of requests.filter((r) => r.isOptional)) {
    const implemented = pyCallExpr(support(f, 'implements'), [
      'handlers',
      protocol,
      pyStr(pyMethodName(m)),
    ]);
    f.raw(layoutPy(implemented, indent, 'if ', ':'));
    f.print`${pad}    routes[${methodConstant(f, m)}] = on_${snakeCase(m.name)}`;
  }
}

function printRouteBody(f: GeneratedFile, m: Method, indent: number): void {
  const pad = ' '.repeat(indent);
  const validator = validatorOf(f, paramsValidator(m));
  const requireValid = support(f, 'require_valid_params');
  const answer = support(f, 'answer');
  if (m.params) {
    f.print`${pad}if validate:`;
    printCall(f, indent + 4, requireValid, [validator, 'params']);
    const decoded = pyCallExpr(support(f, 'decode_params'), [model(f, m.params), 'params']);
    const call = pyCallExpr(`handlers.${pyMethodName(m)}`, [decoded, 'context']);
    printCall(f, indent, answer, [call], 'return ');
  } else {
    f.print`${pad}# A method without params accepts them absent; present, they must be an object or null.`;
    f.print`${pad}if validate and params is not ${f.import('ABSENT', f.python.runtime.json)}:`;
    printCall(f, indent + 4, requireValid, [validator, 'params']);
    printCall(f, indent, answer, [`handlers.${pyMethodName(m)}(context)`], 'return ');
  }
}
