// IDL `capabilities` → the Capabilities section of docs/protocol.md: the holder type's description,
// then one row per flag with its version and the methods it guards.
import type { Model } from '../idl/model.js';
import type { GeneratedFile } from '../printer/generated-file.js';

export function emitCapabilities(f: GeneratedFile, model: Model): void {
  if (model.capabilities.length === 0) return;
  const holder = model.types.find((t) => t.schema['x-capabilities'] === true);
  f.print`## Capabilities`;
  f.blank();
  if (holder) {
    f.raw(`Reported in [\`${holder.name}\`](#${holder.name.toLowerCase()}). ${holder.description}`);
    f.blank();
  }
  f.print`| capability | type | since | guards | meaning |`;
  f.print`|---|---|---|---|---|`;
  for (const c of model.capabilities) {
    const guards = c.guards.map((g) => `\`${g}\``).join(', ');
    f.print`| \`${c.name}\` | ${c.type} | ${c.since} | ${guards} | ${c.description.replace(/\|/g, '\\|')} |`;
  }
  f.blank();
}
