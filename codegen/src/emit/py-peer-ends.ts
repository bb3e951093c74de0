// What the Python peers emitters (py-peers*.ts, py-peer-parts.ts) share: which methods each end
// sends and handles, and how methods, payloads and signatures are spelled in the generated Python.
import type { Method, Model } from '../idl/model.js';
import { findType } from '../idl/model.js';
import { constantCase, safePyIdentifier, snakeCase } from '../idl/names.js';
import type { GeneratedFile } from '../printer/generated-file.js';
import type { ProtocolTargets } from '../protocols/targets.js';
import { arrow, bindingNames } from './binding-names.js';
import { pyGenModule } from './emitter.js';
import type { End, EndMethods } from './peer-methods.js';
import { endMethods } from './peer-methods.js';
import type { PyExpr } from './py-literals.js';
import { layoutPy, pyCallExpr, pyStr } from './py-literals.js';
import { pyValidatorName } from './py-validators.js';
import type { ValidatorSpec } from './validator-names.js';
import { deprecationText } from './version-notes.js';

export type { End } from './peer-methods.js';

/** The Python names of the peers' classes and functions (binding-names.ts spells them). */
export interface PyPeerNames {
  readonly client: string;
  readonly clientHandlers: string;
  readonly anyParams: string;
  readonly notifier: string;
  readonly handlers: string;
  readonly server: string;
  readonly serve: string;
}

export function pyPeerNames(target: ProtocolTargets): PyPeerNames {
  const names = bindingNames(target);
  return {
    client: names.clientPeer,
    clientHandlers: names.clientRequestHandlers,
    anyParams: `${names.anyNotification}Params`,
    notifier: names.notifier,
    handlers: names.requestHandlers,
    server: names.serverPeer,
    serve: snakeCase(names.serve),
  };
}

/** What the peers are printed from: each end's methods, the peers' names and the sides' words. */
export interface Ends {
  readonly model: Model;
  readonly target: ProtocolTargets;
  readonly names: PyPeerNames;
  readonly client: EndMethods;
  readonly server: EndMethods;
}

/**
 * The ends of a model. A method an end handles is decoded into a dataclass, so its payloads must be
 * object or union types; a prefix family is only sent, and its payloads may be any JSON value.
 */
export function endsOf(model: Model, target: ProtocolTargets): Ends {
  for (const m of model.methods) {
    if (m.kind === 'request' && !m.result)
      throw new Error(`py-peers: ${m.wireName} is a request without a result type`);
    if (m.kind === 'notification' && !m.params)
      throw new Error(`py-peers: ${m.wireName} is a notification without a params type`);
    for (const name of m.isPrefix ? [] : [m.params, m.result]) {
      if (name && !isDecoded(model, name))
        throw new Error(
          `py-peers: ${m.wireName} carries ${name}, which is neither an object nor a union type; ` +
            'the peers decode what an end handles into dataclasses: give the method an object type',
        );
    }
  }
  const [client, server] = [endMethods(model, 'client'), endMethods(model, 'server')];
  return { model, target, names: pyPeerNames(target), client, server };
}

/** Whether values of a type go through the codec (dataclasses); others travel as plain JSON. */
export const isDecoded = (model: Model, name: string): boolean =>
  ['object', 'union'].includes(findType(model, name).kind);

/** `client → server` for what `end` sends, in the protocol's own words. */
export const sentArrow = (ends: Ends, end: End): string =>
  arrow(end === 'client' ? 'clientToServer' : 'serverToClient', ends.target);

/** The name of a side (`client`, `agent`). */
export const side = (ends: Ends, end: End): string => ends.target.bindings.sides[end];

/** `a server`, `an agent`. */
export const aSide = (ends: Ends, end: End): string =>
  `${/^[aeiou]/i.test(side(ends, end)) ? 'an' : 'a'} ${side(ends, end)}`;

/** `encode` / `decode` of the runtime's codec, imported where it is printed. */
export const codec = (f: GeneratedFile, name: string): string =>
  f.import(name, f.python.runtime.codec);

/** `Method.SESSION_PROMPT`, with `Method` imported. */
export const methodConstant = (f: GeneratedFile, m: Method): string =>
  `${f.import('Method', pyGenModule(f, 'methods'))}.${constantCase(m.name)}`;

/** The wire method a call sends: a family's comes from the caller (`method`). */
export const wireMethod = (f: GeneratedFile, m: Method): string =>
  m.isPrefix ? 'method' : methodConstant(f, m);

/** A model class or alias, imported where it is printed. */
export const model = (f: GeneratedFile, name: string): string =>
  f.import(name, pyGenModule(f, 'models'));

/** The wire value of `params`: encoded when its type is a dataclass, as it is otherwise. */
export const encoded = (f: GeneratedFile, ends: Ends, name: string): string =>
  isDecoded(ends.model, name) ? `${codec(f, 'encode')}(params)` : 'params';

/** A name of the runtime's peer support, imported where it is printed. */
export const support = (f: GeneratedFile, name: string): string =>
  f.import(name, f.python.runtime.peerSupport);

/** `validate_initialize_params`, imported where it is printed. */
export const validatorOf = (f: GeneratedFile, spec: ValidatorSpec): string =>
  f.import(pyValidatorName(spec), pyGenModule(f, 'validators'));

/** `session_prompt`: the Python name of a method's coroutine. */
export const pyMethodName = (m: Method): string => safePyIdentifier(snakeCase(m.name));

/** A `def` (or `async def`) line laid out as `ruff format` prints it. */
export function printDef(
  f: GeneratedFile,
  indent: number,
  name: string,
  params: readonly string[],
  returns: string,
  isAsync = false,
): void {
  const keyword = isAsync ? 'async def ' : 'def ';
  f.raw(layoutPy(pyCallExpr(name, params), indent, keyword, ` -> ${returns}:`));
}

/** A call statement (`prefix` + call) laid out as `ruff format` prints it. */
export function printCall(
  f: GeneratedFile,
  indent: number,
  callee: string,
  args: readonly PyExpr[],
  prefix = '',
): void {
  f.raw(layoutPy(pyCallExpr(callee, args), indent, prefix));
}

/** A deprecated method warns the code that calls it (`DeprecationWarning`, pointing at the caller). */
export function printDeprecationWarning(f: GeneratedFile, m: Method): void {
  if (!m.deprecated) return;
  const message = pyStr(`${m.wireName} is deprecated: ${deprecationText(m.deprecated)}`);
  const warn = `${f.importModule('warnings')}.warn`;
  printCall(f, 8, warn, [message, 'DeprecationWarning', 'stacklevel=2']);
}

/** A family's method argument is checked to start with the family's prefix before anything is sent. */
export function printFamilyCheck(f: GeneratedFile, m: Method): void {
  if (m.isPrefix) printCall(f, 8, support(f, 'require_family'), [pyStr(m.wireName), 'method']);
}
