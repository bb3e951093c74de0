// What the Python peers emitters (py-peers.ts, py-peers-server.ts) share: which methods each end
// speaks, and how methods and signatures are spelled in the generated Python.
import type { Method, Model } from '../idl/model.js';
import { findType } from '../idl/model.js';
import { constantCase, safePyIdentifier, snakeCase } from '../idl/names.js';
import type { PyFile } from './py-file.js';
import type { PyExpr } from './py-literals.js';
import { layoutPy, pyCallExpr, pyStr } from './py-literals.js';
import { deprecationText } from './version-notes.js';

export const CLIENT = 'HarnessSdkClientPeer';
export const HANDLERS = 'HarnessSdkRequestHandlers';
export const SERVER = 'HarnessSdkServerPeer';
export const SERVE = 'serve_harness_sdk';

export type Request = Method & { readonly result: string };
export type Notification = Method & { readonly params: string };

/** The methods the peers speak: client → server requests and server → client notifications. */
export interface Ends {
  readonly requests: readonly Request[];
  readonly notifications: readonly Notification[];
}

/** The ends of a model; a method going another way is refused rather than silently dropped. */
export function endsOf(model: Model): Ends {
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
  return { requests, notifications };
}

/** `Method.SESSION_PROMPT`. */
export const methodConstant = (m: Method): string => `Method.${constantCase(m.name)}`;

/** `session_prompt`: the Python name of a method's coroutine. */
export const pyMethodName = (m: Method): string => safePyIdentifier(snakeCase(m.name));

/** A `def` (or `async def`) line laid out as `ruff format` prints it. */
export function printDef(
  f: PyFile,
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
  f: PyFile,
  indent: number,
  callee: string,
  args: readonly PyExpr[],
  prefix = '',
): void {
  f.raw(layoutPy(pyCallExpr(callee, args), indent, prefix));
}

/** A deprecated method warns the code that calls it (`DeprecationWarning`, pointing at the caller). */
export function printDeprecationWarning(f: PyFile, m: Request | Notification): void {
  if (!m.deprecated) return;
  const message = pyStr(`${m.wireName} is deprecated: ${deprecationText(m.deprecated)}`);
  printCall(f, 8, 'warnings.warn', [message, 'DeprecationWarning', 'stacklevel=2']);
}
