// IDL → docs/protocol.md: the reference a client author reads.
import { dirname, posix } from 'node:path';
import type { Method, Model } from '../idl/model.js';
import type { ReleasedVersion } from '../release/released-files.js';
import { GeneratedFile } from '../printer/generated-file.js';
import type { DocsTarget, ProtocolTargets } from '../protocols/targets.js';
import { arrow } from './binding-names.js';
import type { Emitter } from './emitter.js';
import { META_CONSTANTS, metaValue } from './meta-constants.js';
import { emitCapabilities } from './docs-capabilities.js';
import { emitDiagnostics, emitErrors } from './docs-errors.js';
import { emitSequences } from './docs-sequences.js';
import { anchor, cell, emitTypes } from './docs-types.js';
import { deprecationText } from './version-notes.js';
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
    emitCapabilities(f, model);
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
    f.print`| ${direction} | ${m.kind} | ${wireName(m)} | ${params} | ${result} | ${m.since} |`;
  }
  f.blank();
}

function emitMethods(f: GeneratedFile, model: Model, target: ProtocolTargets): void {
  for (const m of model.methods) {
    f.print`### ${wireName(m)}${m.isPrefix ? ` ${m.kind}s` : ''}`;
    f.blank();
    f.raw(m.description);
    f.blank();
    f.raw(methodFacts(m, model, target));
    f.blank();
  }
}

/** `` `session/prompt` ``; a family of methods as its prefix and an ellipsis: `` `_…` ``. */
const wireName = (m: Method) => `\`${m.wireName}${m.isPrefix ? '…' : ''}\``;

function methodFacts(m: Method, model: Model, target: ProtocolTargets): string {
  const facts = [`- ${m.kind}, ${arrow(m.direction, target)}`];
  facts.push(`- params: ${m.params ? anchor(m.params) : 'none'}`);
  if (m.result) facts.push(`- result: ${anchor(m.result)}`);
  const codes = m.errors
    .map((name) => model.errors.find((e) => e.name === name))
    .filter((e) => e !== undefined);
  if (codes.length > 0)
    facts.push(`- errors: ${codes.map((e) => `\`${e.code}\` ${e.name}`).join(', ')}`);
  if (m.isPrefix) facts.push(`- every method whose name starts with \`${m.wireName}\``);
  if (m.isOptional) facts.push('- optional: the end that receives it may leave it unimplemented');
  if (m.since > 1) facts.push(`- since protocol version ${m.since}`);
  if (m.deprecated) facts.push(`- deprecated: ${deprecationText(m.deprecated)}`);
  return facts.join('\n');
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
