// Every rule the comparator reports, with what it means and how to make such a change compatible.
// docs/changing-the-protocol.md and the per-rule tests read from this list.

export interface Rule {
  /** What changed, in a few words. */
  readonly summary: string;
  /** How to get the same result without breaking old peers. */
  readonly fix: string;
}

export const RULES = {
  'method-removed': {
    summary: 'a method is gone',
    fix: 'keep the method and mark it `"deprecated": { "reason", "replacement" }`',
  },
  'method-renamed': {
    summary: "a method's wire name changed",
    fix: 'keep the old wire name; add the new name as a new method (with `since`) and deprecate the old one',
  },
  'method-direction-changed': {
    summary: 'a method now goes the other way',
    fix: 'keep the method as it is and add a new method for the other direction',
  },
  'method-kind-changed': {
    summary: 'a request became a notification or the reverse',
    fix: 'keep the method as it is and add a new method of the other kind',
  },
  'method-added': {
    summary: 'a new method',
    fix: 'nothing to do; mark it `since` the version that introduces it so clients can tell whether a runtime serves it',
  },
  'since-raised': {
    summary: 'an item of the released version is now marked `since` a later version',
    fix: 'keep its `since` at or below the released version: peers of that version use it',
  },
  'since-gated': {
    summary: 'an addition gated by `since` above the released version',
    fix: 'nothing to do: peers of the released version never see it',
  },
  deprecated: {
    summary: 'an item is now deprecated',
    fix: 'nothing to do: deprecating is never breaking',
  },
  'params-presence-changed': {
    summary: 'a method without params now takes params, or the reverse',
    fix: 'keep the params as they were; put new inputs in optional members',
  },
  'error-dropped': {
    summary: 'a method no longer lists an error code',
    fix: "keep the error in the method's `errors`",
  },
  'error-code-changed': {
    summary: "an error's code changed",
    fix: 'keep the code; add a new error with its own name and code instead',
  },
  'error-added': {
    summary: 'a method lists a new error code',
    fix: 'nothing to do: old peers handle an unknown code as a generic error',
  },
  'frame-limit-lowered': {
    summary: 'the default frame limit went down',
    fix: 'keep the default; a peer that wants a lower limit sets it itself',
  },
  'protocol-version-lowered': {
    summary: '`meta.protocolVersion` went down',
    fix: '`meta.protocolVersion` only goes up',
  },
  'type-changed': {
    summary: 'a value changed JSON type',
    fix: 'keep the old type; carry the new form in a new optional member',
  },
  'type-narrowed': {
    summary: 'a value accepts fewer JSON types',
    fix: 'keep accepting the old type; take the new form in a new optional member',
  },
  'type-widened': {
    summary: 'a value accepts more JSON types',
    fix: 'keep sending the old type; send the new form in a new optional member gated by `x-since`',
  },
  'enum-value-removed': {
    summary: 'a closed enum lost a value',
    fix: 'keep accepting the value (say in its description that it is deprecated)',
  },
  'enum-value-added': {
    summary: 'a closed enum gained a value',
    fix: 'old receivers reject unknown values of a closed enum: send the new value in a new open member (`x-known-values`) gated by `x-since`',
  },
  'enum-closed': {
    summary: 'an open or free value became a closed enum',
    fix: 'keep it open: `x-known-values` lists the known values and lets others through',
  },
  'enum-opened': {
    summary: 'a closed enum became open or free',
    fix: 'keep it closed; add the values old peers must handle as known values of a new member',
  },
  'known-value-added': {
    summary: 'an open enum gained a known value',
    fix: 'nothing to do: old peers pass unknown values through',
  },
  'constant-changed': {
    summary: 'a protocol constant changed',
    fix: 'keep the constant; peers compare it',
  },
  'constraint-tightened': {
    summary: 'a constraint got stricter (or was added)',
    fix: 'keep accepting what the old constraint allowed; handle the extra range in the receiver (clamp it, or refuse it in the handler with a clear error)',
  },
  'constraint-loosened': {
    summary: 'a constraint got looser (or was dropped)',
    fix: 'keep sending within the old constraint; carry wider values in a new optional member gated by `x-since`',
  },
  'constraint-changed': {
    summary: 'a constraint changed in a way that is neither stricter nor looser',
    fix: 'keep the old constraint; carry the new form in a new optional member',
  },
  'field-required': {
    summary: 'a member became required (or a new member is required)',
    fix: 'make the member optional and give its absence a meaning in its description',
  },
  'field-optional': {
    summary: 'a required member became optional (or was removed)',
    fix: 'keep the member required; send a neutral value when it does not apply',
  },
  'field-removed': {
    summary: 'a member is gone from an object that rejects unknown members',
    fix: 'keep the member (mark it `x-deprecated`)',
  },
  'field-added': {
    summary: 'a new member',
    fix: 'nothing to do for open objects; for an object with `additionalProperties: false`, gate the member with `x-since`',
  },
  'object-closed': {
    summary:
      'an object now rejects members it does not define (the IDL `meta.description` promises they are ignored)',
    fix: 'keep the object open: unknown members are ignored (forward compatibility)',
  },
  'object-opened': {
    summary: 'an object now lets unknown members through',
    fix: 'keep it closed; add the members you need explicitly (with `x-since`)',
  },
  'union-variant-removed': {
    summary: 'a union lost a variant',
    fix: 'keep the variant (say in its description that it is deprecated)',
  },
  'union-variant-added': {
    summary: 'a union gained a variant',
    fix: 'for an open union, make the new variant accept what the unknown variant accepted (its new members optional); a closed union cannot gain variants',
  },
  'union-closed': {
    summary: 'an open union became closed',
    fix: 'keep the union open (`x-open` and its unknown variant)',
  },
  'union-opened': {
    summary: 'a closed union became open',
    fix: 'keep the union closed; add a new member for the open form',
  },
  'union-discriminator-changed': {
    summary: "a union's discriminator changed",
    fix: 'keep the discriminator; add a new member with the new union',
  },
  'schema-changed': {
    summary: 'a schema keyword the comparator cannot order changed',
    fix: 'keep the keyword as it was, or add an allow-list entry after checking both sides by hand',
  },
  'rules-bug': {
    summary: 'the semantic cross-check found a message that crosses with no structural finding',
    fix: 'a bug in the comparator: report it with the sample; until fixed, treat the change as breaking',
  },
} as const satisfies Record<string, Rule>;

export type RuleId = keyof typeof RULES;

export const RULE_IDS = Object.keys(RULES) as RuleId[];
