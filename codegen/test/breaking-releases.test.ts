// Today's IDL and a scratch version 2 (the additions docs/protocol.md lists under "Versions") against release 1.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { compareIdl } from '../src/breaking/compare-idl.js';
import { idlDocumentFromText, loadIdlDocument } from '../src/breaking/document.js';
import { readVectorSamples } from '../src/breaking/semantic/vectors.js';

const repo = new URL('../..', import.meta.url).pathname;
const release1 = loadIdlDocument(
  `${repo}protocol/released/1.idl.json`,
  'protocol/released/1.idl.json',
);
const todayText = readFileSync(`${repo}protocol.idl.json`, 'utf8');
const vectors = readVectorSamples(`${repo}test-vectors/messages`);
const options = { vectors, allowList: { file: 'none', entries: [] } };

type Schema = Record<string, unknown>;
interface Raw {
  meta: Schema;
  methods: Schema[];
  types: Record<string, Schema>;
}

/** Version 2 as the IDL has it today: negotiation fields and two methods, all `since` 2. */
function version2(): Raw {
  const raw = JSON.parse(todayText) as Raw;
  expect(raw.meta.protocolVersion).toBe(2);
  return raw;
}

const asDocument = (raw: Raw, check = true) =>
  idlDocumentFromText(JSON.stringify(raw, null, 2), 'v2.idl.json', { check });

describe('today against release 1', () => {
  it('breaks nothing, and no sample crosses', () => {
    const today = idlDocumentFromText(todayText, 'protocol.idl.json');
    const comparison = compareIdl(release1, today, options);
    expect(comparison.findings.filter((f) => f.severity === 'breaking')).toEqual([]);
    expect(comparison.semantic.checked).toBeGreaterThan(500);
    expect(comparison.semantic.crossed).toBe(0);
  });

  it('finds nothing at all between release 1 and itself', () => {
    expect(compareIdl(release1, release1, options).findings).toEqual([]);
  });
});

describe('a version 2 with the additions of protocol version 2', () => {
  it('loads with the current loader and breaks nothing of version 1', () => {
    const comparison = compareIdl(release1, asDocument(version2()), options);
    expect(comparison.findings.filter((f) => f.severity === 'breaking')).toEqual([]);
    expect(comparison.semantic.crossed).toBe(0);
    const gated = comparison.findings
      .filter((f) => f.rule === 'since-gated')
      .map((f) => f.new.pointer);
    expect(gated).toEqual(
      expect.arrayContaining([
        '/methods/2',
        '/methods/3',
        '/types/InitializeParams/properties/protocolVersion',
        '/types/InitializeResult/properties/protocolVersion',
        '/types/InitializeResult/properties/capabilities',
      ]),
    );
  });

  it('refuses a required member gated by since, though peers of version 1 never see it', () => {
    const raw = version2();
    (raw.types['InitializeResult']!['required'] as string[]).push('protocolVersion');
    const comparison = compareIdl(release1, asDocument(raw, false), options);
    // Peers of version 2 would have to send it to everyone: the checker refuses such an IDL.
    expect(comparison.findings.filter((f) => f.severity === 'breaking')).toEqual([]);
    expect(() => asDocument(raw)).toThrow(/new in version 2 but required/);
  });

  it('breaks version 1 when a new member of a closed object is not gated', () => {
    const raw = version2();
    raw.types['InitializeResult']!['additionalProperties'] = false;
    raw.types['InitializeResult']!['examples'] = [
      { serverInfo: { name: 'deepseek-harness-sdk-runtime', version: '1' } },
    ];
    const released = JSON.parse(readFileSync(`${repo}protocol/released/1.idl.json`, 'utf8')) as Raw;
    released.types['InitializeResult']!['additionalProperties'] = false;
    const closedRelease = idlDocumentFromText(JSON.stringify(released), '1.idl.json', {
      check: false,
    });
    const gated = compareIdl(closedRelease, asDocument(raw, false), options);
    expect(gated.findings.filter((f) => f.severity === 'breaking')).toEqual([]);
    const props = raw.types['InitializeResult']!['properties'] as Record<
      string,
      Record<string, unknown>
    >;
    delete props['capabilities']!['x-since'];
    const ungated = compareIdl(closedRelease, asDocument(raw, false), options);
    expect(
      ungated.findings.filter((f) => f.severity === 'breaking').map((f) => [f.rule, f.new.pointer]),
    ).toEqual([['field-added', '/types/InitializeResult/properties/capabilities']]);
  });
});
