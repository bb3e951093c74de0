// IDL `capabilities` → the capability table of methods.py: each flag's name, version and the
// methods it guards, for the client (which calls a guarded method only when its flag was
// reported) and the runtime (which reports the flags of the version it negotiated).
import type { Model } from '../idl/model.js';
import type { GeneratedFile } from '../printer/generated-file.js';
import { pyDocstring, pyStr, pyTuple } from './py-literals.js';

export function emitCapabilityTable(f: GeneratedFile, model: Model): void {
  if (model.capabilities.length === 0) return;
  const Final = f.import('Final', 'typing');
  const Literal = f.import('Literal', 'typing');
  f.blank(2);
  f.print`CapabilityName = ${Literal}[`;
  for (const c of model.capabilities) f.print`    ${pyStr(c.name)},`;
  f.print`]`;
  f.raw(pyDocstring("A flag of `initialize`'s capabilities, by wire name."));
  f.blank(2);
  f.print`@${f.import('dataclass', 'dataclasses')}(frozen=True, kw_only=True, slots=True)`;
  f.print`class CapabilityInfo:`;
  f.raw(pyDocstring('What the IDL says about one capability, available at run time.', '    '));
  f.blank();
  f.print`    name: CapabilityName`;
  f.print`    type: ${Literal}["boolean"]`;
  f.print`    since: int`;
  f.raw(
    pyDocstring(
      'The protocol version that added it: a runtime that negotiates it or a later one reports it.',
      '    ',
    ),
  );
  f.print`    guards: tuple[MethodName, ...]`;
  f.raw(
    pyDocstring(
      'The requests a client sends only when the runtime reported it (otherwise the call fails locally, unsent).',
      '    ',
    ),
  );
  f.blank(2);
  f.print`CAPABILITIES: ${Final}[tuple[CapabilityInfo, ...]] = (`;
  for (const c of model.capabilities) {
    const guards = pyTuple(c.guards.map(pyStr));
    f.print`    CapabilityInfo(name=${pyStr(c.name)}, type=${pyStr(c.type)}, since=${c.since}, guards=${guards}),`;
  }
  f.print`)`;
  f.raw(pyDocstring('Every capability of the protocol, in IDL order.'));
}
