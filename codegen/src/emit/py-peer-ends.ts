// What the Python peers emitters (py-peers.ts, py-peers-server.ts) share: which methods each end
// speaks, and how methods and signatures are spelled in the generated Python.
import type { Method, Model } from '../idl/model.js';
import { findType } from '../idl/model.js';
import { constantCase, safePyIdentifier, snakeCase } from '../idl/names.js';
import type { GeneratedFile } from '../printer/generated-file.js';
import type { ProtocolTargets } from '../protocols/targets.js';
import { bindingNames } from './binding-names.js';
import { pyGenModule } from './emitter.js';
import type { PyExpr } from './py-literals.js';
import { layoutPy, pyCallExpr, pyStr } from './py-literals.js';
import { pyValidatorName } from './py-validators.js';
import type { ValidatorSpec } from './validator-names.js';
import { deprecationText } from './version-notes.js';

/** The Python names of the peers' classes and functions (binding-names.ts spells them). */
export interface PyPeerNames {
  readonly client: string;
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
    anyParams: `${names.anyNotification}Params`,
    notifier: names.notifier,
    handlers: names.requestHandlers,
    server: names.serverPeer,
    serve: snakeCase(names.serve),
  };
}

export type Request = Method & { readonly result: string };
export type Notification = Method & { readonly params: string };

/** The methods the peers speak (client → server requests, server → client notifications), and the peers' names. */
export interface Ends {
  readonly requests: readonly Request[];
  readonly notifications: readonly Notification[];
  readonly names: PyPeerNames;
}

/** The ends of a model; a method going another way is refused rather than silently dropped. */
export function endsOf(model: Model, target: ProtocolTargets): Ends {
  const requests: Request[] = [];
  const notifications: Notification[] = [];
  for (const m of model.methods) {
    for (const name of [m.params, m.result]) {
      if (name && findType(model, name).kind !== 'object')
        throw new Error(`py-peers: ${m.wireName} carries ${name}, which is not an object type`);
    }
    if (m.kind === 'request' && m.direction === 'clientToServer' && m.result)
      requests.push({ ...m, result: m.result });
    else if (m.kind === 'notification' && m.direction === 'serverToClient' && m.params)
      notifications.push({ ...m, params: m.params });
    else
      throw new Error(
        `py-peers: ${m.wireName} (${m.direction} ${m.kind}) is not supported: the peers speak ` +
          'client → server requests with a result and server → client notifications with params',
      );
  }
  return { requests, notifications, names: pyPeerNames(target) };
}

/** `encode` / `decode` of the runtime's codec, imported where it is printed. */
export const codec = (f: GeneratedFile, name: string): string =>
  f.import(name, f.python.runtime.codec);

/** `Method.SESSION_PROMPT`, with `Method` imported. */
export const methodConstant = (f: GeneratedFile, m: Method): string =>
  `${f.import('Method', pyGenModule(f, 'methods'))}.${constantCase(m.name)}`;

/** A model class, imported where it is printed. */
export const model = (f: GeneratedFile, name: string): string =>
  f.import(name, pyGenModule(f, 'models'));

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
export function printDeprecationWarning(f: GeneratedFile, m: Request | Notification): void {
  if (!m.deprecated) return;
  const message = pyStr(`${m.wireName} is deprecated: ${deprecationText(m.deprecated)}`);
  const warn = `${f.importModule('warnings')}.warn`;
  printCall(f, 8, warn, [message, 'DeprecationWarning', 'stacklevel=2']);
}
