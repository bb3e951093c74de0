// A short human summary of the protocol, printed by `idl-gen --summary`.
import type { Model } from './idl/model.js';

export function describeModel(model: Model): string {
  const rows = model.methods.map((m) => {
    const arrow = m.direction === 'clientToServer' ? 'client → server' : 'server → client';
    const payload =
      m.kind === 'request' ? `${m.params ?? '(no params)'} → ${m.result ?? ''}` : (m.params ?? '');
    return `  ${arrow}  ${m.kind.padEnd(12)} ${m.wireName.padEnd(18)} ${payload}`;
  });
  const open = model.types
    .filter((t) => t.union?.isOpen || t.kind === 'openEnum')
    .map((t) => t.name);
  return [
    `${model.meta.title} ${model.meta.version}`,
    '',
    'Methods:',
    ...rows,
    '',
    `Types: ${model.types.length} named types; open vocabulary: ${open.join(', ')}`,
    `Errors: ${model.errors.map((e) => `${e.code} ${e.name}`).join(', ')}`,
    `Diagnostics: ${model.diagnostics.map((d) => d.reason).join(', ')}`,
    '',
  ].join('\n');
}
