// IDL `capabilities` → the capability table of methods.gen.ts: each flag's name, version and the
// methods it guards, for clients (which call a guarded method only when its flag was reported),
// runtimes (which report the flags of the version they negotiated) and the conformance kit.
import type { Model } from '../idl/model.js';
import type { GeneratedFile } from '../printer/generated-file.js';

export function emitCapabilityTable(f: GeneratedFile, model: Model): void {
  if (model.capabilities.length === 0) return;
  f.blank();
  f.raw(f.jsdoc("A flag of `initialize`'s capabilities, by wire name."));
  const names = model.capabilities.map((c) => f.string(c.name));
  f.print`export type CapabilityName = ${names.join(' | ')};`;
  f.blank();
  f.raw(f.jsdoc('What the IDL says about one capability, available at run time.'));
  f.print`export interface CapabilityInfo {`;
  f.print`  readonly name: CapabilityName;`;
  f.print`  readonly type: 'boolean';`;
  f.raw(
    f.jsdoc(
      'The protocol version that added it: a runtime that negotiates it or a later one reports it.',
      '  ',
    ),
  );
  f.print`  readonly since: number;`;
  f.raw(
    f.jsdoc(
      'The requests a client sends only when the runtime reported it (otherwise the call fails locally, unsent).',
      '  ',
    ),
  );
  f.print`  readonly guards: readonly MethodName[];`;
  f.print`}`;
  f.blank();
  f.raw(f.jsdoc('Every capability of the protocol, in IDL order.'));
  f.print`export const CAPABILITIES: readonly CapabilityInfo[] = [`;
  for (const c of model.capabilities) {
    f.raw(f.jsdoc(c.description, '  '));
    const guards = c.guards.map((g) => f.string(g)).join(', ');
    f.print`  { name: ${f.string(c.name)}, type: ${f.string(c.type)}, since: ${c.since}, guards: [${guards}] },`;
  }
  f.print`];`;
}
