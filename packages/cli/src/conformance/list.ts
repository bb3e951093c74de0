// `--list`: the requirements (id, tier, citation, title) and the cases with what they judge.
import type { Requirement } from './requirements/index.js';
import type { Selectable } from './selection.js';

export function renderList(
  requirements: readonly Requirement[],
  cases: readonly (Selectable & { readonly title: string })[],
  monitored: readonly string[],
): string {
  const lines = ['Requirements:'];
  for (const r of requirements)
    lines.push(
      `  ${r.id.padEnd(18)} ${r.tier.padEnd(10)} ${r.title}`,
      `  ${''.padEnd(29)} ${r.citation}${r.capability ? ` (capability ${r.capability})` : ''}`,
    );
  lines.push('', `Cases (each also judges ${monitored.join(', ')} on all it reads):`);
  for (const c of cases)
    lines.push(`  ${c.id}`, `      ${c.title}`, `      judges ${c.requirements.join(', ')}`);
  return `${lines.join('\n')}\n`;
}
