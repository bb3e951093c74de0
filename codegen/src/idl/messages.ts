// The message texts of `errors` and `diagnostics`, gathered into one list with their placeholders.
import type { RawIdl } from './build-model.js';
import type { MessageDef } from './model.js';
import { camelCase } from './names.js';

/** `{name}`: a placeholder of a message template (the generated format functions use it too). */
export const PLACEHOLDER_PATTERN = '\\{([a-z][A-Za-z0-9]*)\\}';
const PLACEHOLDER = new RegExp(PLACEHOLDER_PATTERN, 'g');

/** The placeholders of `template`, in order of first appearance. */
export function placeholdersOf(template: string): string[] {
  return [...new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1] ?? ''))];
}

/** Every message of the IDL, errors first, in IDL order (names may repeat: check.ts says so). */
export function collectMessages(raw: Pick<RawIdl, 'errors' | 'diagnostics'>): MessageDef[] {
  const found: MessageDef[] = [];
  const add = (name: string, template: string, pointer: string, owner: string): void => {
    found.push({ name, template, placeholders: placeholdersOf(template), pointer, owner });
  };
  raw.errors.forEach((e, i) => {
    for (const [name, template] of Object.entries(e.messages ?? {}))
      add(name, template, `/errors/${i}/messages/${name}`, `error ${e.code} (${e.name})`);
  });
  raw.diagnostics.forEach((d, i) => {
    const owner = `diagnostic ${d.reason}`;
    if (d.message !== undefined)
      add(camelCase(d.reason), d.message, `/diagnostics/${i}/message`, owner);
    for (const [name, template] of Object.entries(d.messages ?? {}))
      add(name, template, `/diagnostics/${i}/messages/${name}`, owner);
  });
  return found;
}

/** The doc comment of a message's constant, in every language. */
export function messageDoc(m: MessageDef): string {
  const filled = m.placeholders.map((p) => `\`${p}\``).join(', ');
  return `Sent with ${m.owner}.${filled ? ` Placeholders: ${filled}.` : ''}`;
}
