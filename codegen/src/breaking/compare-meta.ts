// What `meta` promises every peer: the default frame limit and the protocol version.
import type { IdlDocument } from './document.js';
import type { PlacedDelta } from './delta.js';

export function compareMeta(old: IdlDocument, next: IdlDocument): PlacedDelta[] {
  const deltas: PlacedDelta[] = [];
  const base = {
    position: null,
    change: 'both' as const,
    breaks: ['old clients', 'old runtimes'] as const,
  };
  const [oldLimit, newLimit] = [
    old.model.meta.defaultMaxFrameBytes,
    next.model.meta.defaultMaxFrameBytes,
  ];
  if (newLimit < oldLimit)
    deltas.push({
      ...base,
      rule: 'frame-limit-lowered',
      oldPointer: '/meta/defaultMaxFrameBytes',
      newPointer: '/meta/defaultMaxFrameBytes',
      message: `the default frame limit went from ${oldLimit} to ${newLimit} bytes: new peers drop frames old peers may send`,
    });
  if (next.version < old.version)
    deltas.push({
      ...base,
      rule: 'protocol-version-lowered',
      oldPointer: '/meta/protocolVersion',
      newPointer: '/meta/protocolVersion',
      message: `meta.protocolVersion went from ${old.version} to ${next.version}`,
    });
  return deltas;
}
