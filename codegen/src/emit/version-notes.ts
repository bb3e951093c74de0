// How `since` and `deprecated` read in generated docs: JSDoc tags for TypeScript, sentences for
// Python docstrings and the reference. One wording for every emitter.
import type { Deprecation } from '../idl/model.js';

/** Anything the IDL can version: a method, a member, a known value. */
export interface Versioned {
  readonly since: number;
  readonly deprecated: Deprecation | null;
}

/** `Why. Use X instead.` */
export function deprecationText(deprecated: Deprecation): string {
  const reason = deprecated.reason.replace(/\.?$/, '.');
  return deprecated.replacement ? `${reason} Use ${deprecated.replacement} instead.` : reason;
}

/** JSDoc tags: `@since 2` (only after version 1) and `@deprecated …`. */
export function jsdocTags(item: Versioned): string[] {
  const tags: string[] = [];
  if (item.since > 1) tags.push(`@since ${item.since}`);
  if (item.deprecated) tags.push(`@deprecated ${deprecationText(item.deprecated)}`);
  return tags;
}

/** `text` followed by its JSDoc tags, one per line. */
export function withJsdocTags(text: string, item: Versioned): string {
  return [text, ...jsdocTags(item)].join('\n');
}

/** Sentences for a docstring: `Since protocol version 2.` and `Deprecated: …`. */
export function versionSentences(item: Versioned): string[] {
  const sentences: string[] = [];
  if (item.since > 1) sentences.push(`Since protocol version ${item.since}.`);
  if (item.deprecated) sentences.push(`Deprecated: ${deprecationText(item.deprecated)}`);
  return sentences;
}

/** `text`, then its version sentences in a paragraph of their own. */
export function withVersionSentences(text: string, item: Versioned): string {
  const sentences = versionSentences(item);
  return sentences.length === 0 ? text : `${text}\n\n${sentences.join(' ')}`;
}
