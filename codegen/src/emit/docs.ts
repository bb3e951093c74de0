// IDL → docs/protocol.md: the reference a client author reads.
import { dirname, posix } from 'node:path';
import type { Field, Method, Model, SchemaNode, TypeDef, Union } from '../idl/model.js';
import type { ReleasedVersion } from '../release/released-files.js';
import { refName } from '../idl/model.js';
import { GeneratedFile } from '../printer/generated-file.js';
import type { DocsTarget, ProtocolTargets } from '../protocols/targets.js';
import { arrow } from './binding-names.js';
import type { Emitter } from './emitter.js';
import { META_CONSTANTS, metaValue } from './meta-constants.js';
import { emitSequences } from './docs-sequences.js';
import { deprecationText, versionSentences } from './version-notes.js';
import type { Versioned } from './version-notes.js';

export const docsEmitter: Emitter = {
  name: 'docs',
  target: 'docs',
  emit({ model, releases, target }) {
    const docs = docsTarget(target);
    const f = new GeneratedFile(docs.reference, 'docs', 'md', target);
    f.print`# ${model.meta.title} ${model.meta.version}`;
    f.blank();
    f.raw(model.meta.description);
    f.blank();
    emitLimits(f, model);
    emitReleases(f, model, releases ?? [], target);
    emitVersionTable(f, model);
    emitMethodTable(f, model, target);
    emitSequences(f, model, docs.participants);
    emitMethods(f, model, target);
    emitTypes(f, model, 'types', 'Payload types');
    emitTypes(f, model, 'vocabulary', 'Shared vocabulary');
    emitErrors(f, model);
    emitDiagnostics(f, model);
    return [f.finish()];
  },
};

function docsTarget(target: ProtocolTargets): DocsTarget {
  if (!target.docs) throw new Error(`protocol ${target.name} has no docs target`);
  return target.docs;
}

const anchor = (name: string) => `[\`${name}\`](#${name.toLowerCase()})`;
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function emitLimits(f: GeneratedFile, model: Model): void {
  f.print`## Limits`;
  f.blank();
  f.print`| limit | value | constant | meaning |`;
  f.print`|---|---|---|---|`;
  for (const constant of META_CONSTANTS) {
    const value = metaValue(model.meta, constant);
    f.print`| \`${constant.key}\` | ${value} | \`${constant.name}\` | ${cell(constant.doc)} |`;
  }
  f.blank();
}

function emitMethodTable(f: GeneratedFile, model: Model, target: ProtocolTargets): void {
  f.print`## Methods`;
  f.blank();
  f.print`| direction | kind | method | params | result | since |`;
  f.print`|---|---|---|---|---|---|`;
  for (const m of model.methods) {
    const direction = arrow(m.direction, target);
    const params = m.params ? anchor(m.params) : 'none (absent, `{}` or `null`)';
    const result = m.result ? anchor(m.result) : '—';
    f.print`| ${direction} | ${m.kind} | \`${m.wireName}\` | ${params} | ${result} | ${m.since} |`;
  }
  f.blank();
}

function emitMethods(f: GeneratedFile, model: Model, target: ProtocolTargets): void {
  for (const m of model.methods) {
    f.print`### \`${m.wireName}\``;
    f.blank();
    f.raw(m.description);
    f.blank();
    f.raw(methodFacts(m, model, target));
    f.blank();
  }
}

function methodFacts(m: Method, model: Model, target: ProtocolTargets): string {
  const facts = [`- ${m.kind}, ${arrow(m.direction, target)}`];
  facts.push(`- params: ${m.params ? anchor(m.params) : 'none'}`);
  if (m.result) facts.push(`- result: ${anchor(m.result)}`);
  const codes = m.errors
    .map((name) => model.errors.find((e) => e.name === name))
    .filter((e) => e !== undefined);
  if (codes.length > 0)
    facts.push(`- errors: ${codes.map((e) => `\`${e.code}\` ${e.name}`).join(', ')}`);
  if (m.since > 1) facts.push(`- since protocol version ${m.since}`);
  if (m.deprecated) facts.push(`- deprecated: ${deprecationText(m.deprecated)}`);
  return facts.join('\n');
}

function emitTypes(
  f: GeneratedFile,
  model: Model,
  section: TypeDef['section'],
  heading: string,
): void {
  f.print`## ${heading}`;
  f.blank();
  for (const type of model.types.filter((t) => t.section === section)) {
    f.print`### ${type.name}`;
    f.blank();
    f.raw(type.description);
    f.blank();
    emitTypeBody(f, type);
    f.print`Example: \`${JSON.stringify(type.examples[0])}\``;
    f.blank();
  }
}

function emitTypeBody(f: GeneratedFile, type: TypeDef): void {
  if (type.bases.length > 0) {
    f.raw(
      `Has every member of ${type.bases.map(anchor).join(' and ')}${type.fields.length > 0 ? ', and:' : '.'}`,
    );
    f.blank();
  }
  if (type.kind === 'object' && type.fields.length > 0) {
    f.print`| field | type | required | description |`;
    f.print`|---|---|---|---|`;
    for (const field of type.fields) {
      const description = [field.description, ...versionSentences(field)].join(' ').trim();
      f.print`| \`${field.name}\` | ${fieldType(field)} | ${field.required ? 'yes' : 'no'} | ${cell(description)} |`;
    }
    f.blank();
  } else if (type.union) {
    emitUnionBody(f, type.union);
  } else if (type.kind === 'object' && type.bases.length > 0) {
    // Its members are its bases': said above.
  } else if (type.values.length > 0) {
    f.print`${type.kind === 'openEnum' ? 'Open string enum (other values pass through)' : 'One of'}:`;
    f.blank();
    for (const v of type.values) {
      const words = [v.description ?? '', ...versionSentences(v)].join(' ').trim();
      f.print`- \`${v.value}\`${words ? ` — ${words}` : ''}`;
    }
    f.blank();
  } else {
    f.print`Schema: \`${constraints(type.schema)}\``;
    f.blank();
  }
}

function emitUnionBody(f: GeneratedFile, union: Union): void {
  if (union.discriminator === null) {
    f.raw('Untagged union: a value is the first of these whose required members are all present:');
    f.blank();
    for (const v of union.variants) {
      const members = v.select.map((name) => `\`${name}\``).join(', ');
      f.print`- ${anchor(v.typeName)}${members ? ` (with ${members})` : ''}`;
    }
    f.blank();
    return;
  }
  f.print`${union.isOpen ? 'Open union' : 'Union'} on \`${union.discriminator}\`:`;
  f.blank();
  for (const v of union.variants) {
    const when = v.tag ? `\`${v.tag}\`` : v.isDefault ? 'absent' : 'any other value';
    f.print`- ${when}: ${anchor(v.typeName)}`;
  }
  f.blank();
}

function fieldType(field: Field): string {
  const target = field.isArray ? field.schema['items'] : field.schema;
  const name = refName(target) ?? refName((target as SchemaNode | undefined)?.['allOf'] as unknown);
  const base = field.typeRef
    ? anchor(field.typeRef)
    : name
      ? anchor(name)
      : `\`${constraints(target as SchemaNode)}\``;
  const arrayNote = field.isArray
    ? ` array${typeof field.schema['minItems'] === 'number' ? ` (≥ ${String(field.schema['minItems'])})` : ''}`
    : '';
  return `${base}${arrayNote}`;
}

/** The validation keywords of a schema, compactly. */
function constraints(schema: SchemaNode | undefined): string {
  if (!schema) return 'any';
  const { description: _d, examples: _e, title: _t, ...rest } = schema;
  return cell(JSON.stringify(rest));
}

function emitErrors(f: GeneratedFile, model: Model): void {
  f.print`## Error codes`;
  f.blank();
  f.print`| code | name | message | data | when |`;
  f.print`|---|---|---|---|---|`;
  for (const e of model.errors) {
    f.print`| \`${e.code}\` | ${e.name} | ${e.message} | ${e.dataType ? anchor(e.dataType) : '—'} | ${cell(e.description)} |`;
  }
  f.blank();
  emitTypes(f, model, 'errorData', 'Error data');
}

function emitDiagnostics(f: GeneratedFile, model: Model): void {
  f.print`## Transport diagnostics`;
  f.blank();
  f.raw(
    'What a transport ignores is reported to its observer with one of these reasons; it is never thrown and never answered.',
  );
  f.blank();
  f.print`| reason | meaning |`;
  f.print`|---|---|`;
  for (const d of model.diagnostics) f.print`| \`${d.reason}\` | ${cell(d.description)} |`;
  emitMessages(f, model);
}

function emitMessages(f: GeneratedFile, model: Model): void {
  f.blank();
  f.print`### Message texts`;
  f.blank();
  f.raw(
    "The `message` a transport or runtime writes with an error or a diagnostic, the same in every language (`WireMessage` / `formatMessage` in TypeScript, `WireMessage` / `format_message` in Python). `{name}` is filled in when the message is sent. A handler's own error keeps its own message.",
  );
  f.blank();
  f.print`| name | text | sent with |`;
  f.print`|---|---|---|`;
  for (const m of model.messages)
    f.print`| ${m.name} | ${cell('`' + m.template + '`')} | ${m.owner} |`;
}

function emitReleases(
  f: GeneratedFile,
  model: Model,
  releases: readonly ReleasedVersion[],
  target: ProtocolTargets,
): void {
  const current = model.meta.protocolVersion;
  const isReleased = releases.some((r) => r.protocolVersion === current);
  f.print`## Versions`;
  f.blank();
  f.raw(
    `This reference describes protocol version ${current}${isReleased ? '' : ' (not released yet)'}. Released versions are frozen under \`${target.releases.dir}/\`; \`pnpm breaking\` checks that the IDL breaks none of them.`,
  );
  f.blank();
  f.print`| protocol version | IDL version | frozen file |`;
  f.print`|---|---|---|`;
  // Links are relative to the reference's own folder.
  const up = posix.relative(dirname(f.path), '.') || '.';
  for (const r of releases)
    f.print`| ${r.protocolVersion} | ${r.idlVersion} | [\`${r.path}\`](${up}/${r.path}) |`;
  f.blank();
}

/** What each protocol version adds, and what is deprecated: read off every `since` of the IDL. */
function emitVersionTable(f: GeneratedFile, model: Model): void {
  f.print`### What each version adds`;
  f.blank();
  f.print`| version | methods | members | known values |`;
  f.print`|---|---|---|---|`;
  for (let version = 1; version <= model.meta.protocolVersion; version++) {
    const methods = model.methods
      .filter((m) => m.since === version)
      .map((m) => `\`${m.wireName}\``);
    const members = model.types.flatMap((t) =>
      t.fields
        .filter((x) => x.since === version && version > 1)
        .map((x) => `${t.name}.\`${x.name}\``),
    );
    const values = model.types.flatMap((t) =>
      t.values
        .filter((v) => v.since === version && version > 1)
        .map((v) => `${t.name} \`${v.value}\``),
    );
    const list = (items: string[]) => (items.length > 0 ? items.join(', ') : '—');
    const first =
      version === 1 ? 'the original contract: everything not listed below' : list(methods);
    f.print`| ${version} | ${first} | ${version === 1 ? '—' : list(members)} | ${version === 1 ? '—' : list(values)} |`;
  }
  f.blank();
  const deprecated: string[] = [];
  const note = (what: string, item: Versioned) => {
    if (item.deprecated) deprecated.push(`- ${what}: ${deprecationText(item.deprecated)}`);
  };
  for (const m of model.methods) note(`\`${m.wireName}\``, m);
  for (const t of model.types) {
    for (const x of t.fields) note(`${t.name}.\`${x.name}\``, x);
    for (const v of t.values) note(`${t.name} \`${v.value}\``, v);
  }
  f.raw(
    deprecated.length > 0
      ? ['Deprecated:', '', ...deprecated].join('\n')
      : 'Nothing is deprecated.',
  );
  f.blank();
}
