// A short human summary of a protocol, printed by `idl-gen summary`.
import { arrow } from './emit/binding-names.js';
import type { Model } from './idl/model.js';
import type { ProtocolTargets } from './protocols/targets.js';

export function describeModel(model: Model, target: ProtocolTargets): string {
  const rows = model.methods.map((m) => {
    const payload =
      m.kind === 'request' ? `${m.params ?? '(no params)'} → ${m.result ?? ''}` : (m.params ?? '');
    return `  ${arrow(m.direction, target)}  ${m.kind.padEnd(12)} ${m.wireName.padEnd(18)} ${payload}`;
  });
  const open = model.types
    .filter((t) => t.union?.isOpen || t.kind === 'openEnum')
    .map((t) => t.name);
  return [
    `${model.meta.title} ${model.meta.version} (${target.idlPath})`,
    '',
    'Methods:',
    ...rows,
    '',
    `Types: ${model.types.length} named types; open vocabulary: ${open.join(', ')}`,
    `Errors: ${model.errors.map((e) => `${e.code} ${e.name}`).join(', ')}`,
    `Diagnostics: ${model.diagnostics.map((d) => d.reason).join(', ') || 'none'}`,
    '',
  ].join('\n');
}
