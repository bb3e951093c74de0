// One pair of IDLs per rule: the fixture and the fixture with one edit, compared as `idl-gen
// breaking` does (structure, then the semantic cross-check). Where the same edit gets opposite
// verdicts in requests and in notifications, both are shown.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { RawIdl } from '../src/idl/build-model.js';
import type { Comparison } from '../src/breaking/compare-idl.js';
import { compareIdl } from '../src/breaking/compare-idl.js';
import type { IdlDocument } from '../src/breaking/document.js';
import { idlDocumentFromText } from '../src/breaking/document.js';
import { RULE_IDS, type RuleId } from '../src/breaking/rules.js';

type Raw = RawIdl & Record<string, unknown>;
type Edit = (raw: Raw) => void;
type Schema = Record<string, unknown> & {
  properties: Record<string, Record<string, unknown>>;
  required: string[];
  anyOf: unknown[];
};

const baseText = readFileSync(new URL('./fixtures/compat-base.idl.json', import.meta.url), 'utf8');
const base = idlDocumentFromText(baseText, 'old.idl.json');

const type = (raw: Raw, name: string) => (raw.types[name] ?? raw.vocabulary[name]) as Schema;
const method = (raw: Raw, wire: string) =>
  raw.methods.find((m) => m.method === wire) as Raw['methods'][number];

function edited(edit: Edit, path: string): IdlDocument {
  const raw = JSON.parse(baseText) as Raw;
  edit(raw);
  return idlDocumentFromText(JSON.stringify(raw, null, 2), path, { check: false });
}

function compare(edit: Edit, editOld?: Edit): Comparison {
  const old = editOld ? edited(editOld, 'old.idl.json') : base;
  return compareIdl(old, edited(edit, 'new.idl.json'), {
    vectors: new Map(),
    allowList: { file: 'none', entries: [] },
    // The fast cross-check: two faker samples per position beside the examples and their
    // neighbours (the CLI's default is 24). Each case is one edit; `pnpm breaking` and
    // breaking-cli.test.ts run the full cross-check.
    samples: 2,
  });
}

/** [rule, the peers it breaks, the finding's pointer in the new file] */
type Expected = [RuleId, string[], string];

interface Case {
  readonly name: string;
  readonly edit: Edit;
  readonly editOld?: Edit;
  /** Every breaking finding, exactly. */
  readonly breaking: Expected[];
  /** Some of the compatible findings. */
  readonly compatible?: RuleId[];
}

const CLIENTS = ['old clients'];
const RUNTIMES = ['old runtimes'];
const BOTH = ['old clients', 'old runtimes'];

const CASES: Case[] = [
  {
    name: 'a method removed',
    edit: (r) => (r.methods = r.methods.filter((m) => m.method !== 'ping')),
    breaking: [['method-removed', CLIENTS, '/methods']],
  },
  {
    name: "a method's wire name changed",
    edit: (r) => (method(r, 'ping').method = 'ping2'),
    breaking: [['method-renamed', CLIENTS, '/methods/1/method']],
  },
  {
    name: "a method's direction changed",
    edit: (r) => (method(r, 'log').direction = 'serverToClient'),
    breaking: [['method-direction-changed', BOTH, '/methods/4']],
  },
  {
    name: 'a request turned into a notification',
    edit: (r) => {
      const m = method(r, 'ping') as Record<string, unknown>;
      m['kind'] = 'notification';
      delete m['result'];
    },
    breaking: [['method-kind-changed', BOTH, '/methods/1']],
  },
  {
    name: 'a new method without since',
    edit: (r) => r.methods.push({ ...method(r, 'ping'), name: 'pong', method: 'pong' }),
    breaking: [],
    compatible: ['method-added'],
  },
  {
    name: 'a new method gated by since',
    edit: (r) => {
      r.meta.protocolVersion = 2;
      r.methods.push({ ...method(r, 'ping'), name: 'pong', method: 'pong', since: 2 });
    },
    breaking: [],
    compatible: ['since-gated'],
  },
  {
    name: 'a released method marked since a later version',
    edit: (r) => {
      r.meta.protocolVersion = 2;
      method(r, 'ping').since = 2;
    },
    breaking: [['since-raised', CLIENTS, '/methods/1/since']],
  },
  {
    name: 'a method deprecated',
    edit: (r) => (method(r, 'ping').deprecated = { reason: 'Use order.' }),
    breaking: [],
    compatible: ['deprecated'],
  },
  {
    name: 'a member deprecated',
    edit: (r) =>
      (type(r, 'OrderParams').properties['note']!['x-deprecated'] = { reason: 'Unread.' }),
    breaking: [],
    compatible: ['deprecated'],
  },
  {
    name: 'a known value deprecated',
    edit: (r) => {
      const blue = { description: 'Blue.', deprecated: { reason: 'Out of stock.' } };
      type(r, 'Color')['x-known-values'] = { red: 'Red.', blue };
    },
    breaking: [],
    compatible: ['deprecated'],
  },
  {
    name: 'a request without params now takes params',
    edit: (r) => (method(r, 'ping').params = 'LogEntry'),
    breaking: [['params-presence-changed', CLIENTS, '/methods/1/params']],
  },
  {
    name: 'a request whose params may now be absent (fine in a request)',
    edit: (r) => (method(r, 'order').params = null),
    breaking: [],
    compatible: ['params-presence-changed'],
  },
  {
    name: 'a notification whose params may now be absent (breaks its receivers)',
    edit: (r) => (method(r, 'log').params = null),
    breaking: [['params-presence-changed', RUNTIMES, '/methods/4/params']],
  },
  {
    name: 'an error code dropped from a method',
    edit: (r) => (method(r, 'order').errors = ['invalidParams']),
    breaking: [['error-dropped', CLIENTS, '/methods/0/errors']],
  },
  {
    name: "an error's code changed",
    edit: (r) => ((r.errors[1] as { code: number }).code = -32005),
    breaking: [['error-code-changed', CLIENTS, '/methods/0/errors/1']],
  },
  {
    name: 'an error code added to a method',
    edit: (r) => (method(r, 'ping').errors = ['busy']),
    breaking: [],
    compatible: ['error-added'],
  },
  {
    name: 'the default frame limit lowered',
    edit: (r) => ((r.meta as { defaultMaxFrameBytes: number }).defaultMaxFrameBytes = 512),
    breaking: [['frame-limit-lowered', BOTH, '/meta/defaultMaxFrameBytes']],
  },
  {
    name: 'the protocol version lowered',
    editOld: (r) => (r.meta.protocolVersion = 2),
    edit: () => {},
    breaking: [['protocol-version-lowered', BOTH, '/meta/protocolVersion']],
  },
  {
    name: 'a result member changed type',
    edit: (r) => (type(r, 'OrderResult').properties['eta'] = { type: 'string', description: 'x' }),
    breaking: [['type-changed', CLIENTS, '/types/OrderResult/properties/eta/type']],
  },
  {
    name: 'a params member narrowed from string|null to string',
    edit: (r) => (type(r, 'OrderParams').properties['note']!['type'] = 'string'),
    breaking: [['type-narrowed', CLIENTS, '/types/OrderParams/properties/note/type']],
  },
  {
    name: 'a params member widened from integer to number (fine in params)',
    edit: (r) => (type(r, 'OrderParams').properties['quantity']!['type'] = 'number'),
    breaking: [],
    compatible: ['type-widened'],
  },
  {
    name: 'a result member widened from integer to number (breaks its receivers)',
    edit: (r) => (type(r, 'OrderResult').properties['eta']!['type'] = 'number'),
    breaking: [['type-widened', CLIENTS, '/types/OrderResult/properties/eta/type']],
  },
  {
    name: 'a value removed from a closed enum in params',
    edit: (r) => (type(r, 'Size')['enum'] = ['small']),
    breaking: [['enum-value-removed', CLIENTS, '/vocabulary/Size/enum']],
  },
  {
    name: 'a value removed from a closed enum that only runtimes send (fine)',
    edit: (r) => (type(r, 'OrderState')['enum'] = ['open']),
    breaking: [],
    compatible: ['enum-value-removed'],
  },
  {
    name: 'a value added to a closed enum that runtimes send',
    edit: (r) => (type(r, 'OrderState')['enum'] = ['open', 'closed', 'lost']),
    breaking: [['enum-value-added', CLIENTS, '/vocabulary/OrderState/enum']],
  },
  {
    name: 'a value added to a closed enum in params (fine)',
    edit: (r) => (type(r, 'Size')['enum'] = ['small', 'large', 'huge']),
    breaking: [],
    compatible: ['enum-value-added'],
  },
  {
    name: 'an open enum closed in params',
    edit: (r) => {
      const color = type(r, 'Color');
      delete color['x-known-values'];
      color['enum'] = ['red', 'blue'];
    },
    breaking: [['enum-closed', CLIENTS, '/vocabulary/Color/enum']],
  },
  {
    name: 'a closed enum opened where runtimes send it',
    edit: (r) => {
      const state = type(r, 'OrderState');
      delete state['enum'];
      state['x-known-values'] = { open: 'Open.', closed: 'Closed.' };
    },
    breaking: [['enum-opened', CLIENTS, '/vocabulary/OrderState/x-known-values']],
  },
  {
    name: 'a known value added to an open enum',
    edit: (r) =>
      (type(r, 'Color')['x-known-values'] = { red: 'Red.', blue: 'Blue.', green: 'Green.' }),
    breaking: [],
    compatible: ['known-value-added'],
  },
  {
    name: 'a protocol constant changed',
    edit: (r) => (type(r, 'ServerName')['const'] = 'shop2'),
    breaking: [['constant-changed', CLIENTS, '/vocabulary/ServerName/const']],
  },
  {
    name: 'a params constraint tightened',
    edit: (r) => (type(r, 'OrderParams').properties['quantity']!['maximum'] = 50),
    breaking: [['constraint-tightened', CLIENTS, '/types/OrderParams/properties/quantity/maximum']],
  },
  {
    name: 'a notification constraint tightened (fine)',
    edit: (r) => (type(r, 'OrderUpdate').properties['progress']!['maximum'] = 99),
    breaking: [],
    compatible: ['constraint-tightened'],
  },
  {
    name: 'a notification constraint loosened',
    edit: (r) => delete type(r, 'OrderUpdate').properties['progress']!['maximum'],
    breaking: [['constraint-loosened', CLIENTS, '/types/OrderUpdate/properties/progress']],
  },
  {
    name: 'a params constraint loosened (fine)',
    edit: (r) => (type(r, 'OrderParams').properties['item']!['minLength'] = 0),
    breaking: [],
    compatible: ['constraint-loosened'],
  },
  {
    name: 'a pattern changed',
    edit: (r) => (type(r, 'OrderResult').properties['orderId']!['pattern'] = '^order-'),
    breaking: [['constraint-changed', CLIENTS, '/types/OrderResult/properties/orderId/pattern']],
  },
  {
    name: 'a params member made required',
    edit: (r) => type(r, 'OrderParams').required.push('note'),
    breaking: [['field-required', CLIENTS, '/types/OrderParams/properties/note']],
  },
  {
    name: 'a notification member made required (fine)',
    edit: (r) => type(r, 'OrderUpdate').required.push('detail'),
    breaking: [],
    compatible: ['field-required'],
  },
  {
    name: 'a notification member made optional',
    edit: (r) => (type(r, 'OrderUpdate').required = ['orderId', 'state']),
    breaking: [['field-optional', CLIENTS, '/types/OrderUpdate/properties/item']],
  },
  {
    name: 'a params member made optional (fine)',
    edit: (r) => (type(r, 'OrderParams').required = ['item']),
    breaking: [],
    compatible: ['field-optional'],
  },
  {
    name: 'a member removed from a closed params object',
    edit: (r) => delete type(r, 'Gift').properties['message'],
    breaking: [['field-removed', CLIENTS, '/vocabulary/Gift']],
  },
  {
    name: 'a member added to a closed notification object',
    edit: (r) =>
      (type(r, 'Detail').properties['hint'] = { type: 'string', description: 'A hint.' }),
    breaking: [['field-added', CLIENTS, '/vocabulary/Detail/properties/hint']],
  },
  {
    name: 'a member added to an open result object (fine)',
    edit: (r) =>
      (type(r, 'OrderResult').properties['total'] = { type: 'number', description: 'Price.' }),
    breaking: [],
    compatible: ['field-added'],
  },
  {
    name: 'a params object closed',
    edit: (r) => (type(r, 'OrderParams')['additionalProperties'] = false),
    breaking: [['object-closed', CLIENTS, '/types/OrderParams/additionalProperties']],
  },
  {
    name: 'a notification object opened',
    edit: (r) => (type(r, 'Detail')['additionalProperties'] = true),
    breaking: [['object-opened', CLIENTS, '/vocabulary/Detail/additionalProperties']],
  },
  {
    name: 'a variant removed from a closed union the runtime sends in a request and in a notification',
    edit: (r) => (type(r, 'Item').anyOf = [{ $ref: '#/definitions/Book' }]),
    breaking: [['union-variant-removed', RUNTIMES, '/vocabulary/Item']],
  },
  {
    name: 'a variant removed from an open union in params (fine: it passes as unknown)',
    edit: (r) => type(r, 'Payment').anyOf.splice(1, 1),
    breaking: [],
    compatible: ['union-variant-removed'],
  },
  {
    name: 'a variant added to a closed union runtimes send',
    edit: (r) => {
      r.vocabulary['Pencil'] = {
        ...type(r, 'Pen'),
        properties: { type: { type: 'string', const: 'pencil', description: 'Always pencil.' } },
      };
      type(r, 'Item').anyOf.push({ $ref: '#/definitions/Pencil' });
    },
    breaking: [['union-variant-added', CLIENTS, '/vocabulary/Pencil']],
  },
  {
    name: 'a variant that requires more than the unknown variant added to an open union in params',
    edit: (r) => {
      r.vocabulary['Voucher'] = {
        ...type(r, 'Card'),
        properties: {
          kind: { type: 'string', const: 'voucher', description: 'Always voucher.' },
          code: { type: 'string', description: 'The code.' },
        },
        required: ['kind', 'code'],
      };
      type(r, 'Payment').anyOf.splice(2, 0, { $ref: '#/definitions/Voucher' });
    },
    breaking: [['union-variant-added', CLIENTS, '/vocabulary/Voucher']],
  },
  {
    name: 'an open union closed in params',
    edit: (r) => {
      const payment = type(r, 'Payment');
      delete payment['x-open'];
      payment.anyOf.pop();
    },
    breaking: [['union-closed', CLIENTS, '/vocabulary/Payment']],
  },
  {
    name: 'a closed union opened where runtimes send it',
    edit: (r) => {
      r.vocabulary['UnknownItem'] = {
        ...type(r, 'Pen'),
        'x-unknown-variant': true,
        required: ['type'],
        properties: { type: { type: 'string', description: 'Other.' } },
      };
      type(r, 'Item')['x-open'] = true;
      type(r, 'Item').anyOf.push({ $ref: '#/definitions/UnknownItem' });
    },
    breaking: [['union-opened', CLIENTS, '/vocabulary/Item']],
  },
  {
    name: "a union's discriminator changed",
    edit: (r) => (type(r, 'Item')['x-discriminator'] = 'kind'),
    breaking: [['union-discriminator-changed', BOTH, '/vocabulary/Item']],
  },
  {
    name: 'a keyword the comparator cannot order',
    edit: (r) => (type(r, 'OrderParams').properties['note']!['not'] = { const: 'x' }),
    breaking: [['schema-changed', CLIENTS, '/types/OrderParams/properties/note/not']],
  },
];

describe('breaking-change rules, one edit each', () => {
  it.each(CASES)('$name', ({ edit, editOld, breaking, compatible }) => {
    const comparison = compare(edit, editOld);
    const found = comparison.findings.filter((f) => f.severity === 'breaking');
    const describeAll = JSON.stringify(
      comparison.findings.map((f) => [f.rule, f.severity, f.new.pointer, f.message]),
      null,
      1,
    );
    expect(found.map((f) => f.rule).sort(), describeAll).toEqual(
      breaking.map(([rule]) => rule).sort(),
    );
    for (const [rule, breaks, pointer] of breaking) {
      const finding = found.find((f) => f.rule === rule);
      expect(finding?.new.pointer, describeAll).toBe(pointer);
      expect([...(finding?.breaks ?? [])].sort()).toEqual([...breaks].sort());
      expect(finding?.fix).toBeTruthy();
    }
    const compatibleRules = comparison.findings
      .filter((f) => f.severity === 'compatible')
      .map((f) => f.rule);
    for (const rule of compatible ?? []) expect(compatibleRules, describeAll).toContain(rule);
  });

  it('covers every rule but the rules bug with a case', () => {
    const covered = new Set(
      CASES.flatMap((c) => [...c.breaking.map(([rule]) => rule), ...(c.compatible ?? [])]),
    );
    const missing = RULE_IDS.filter((rule) => rule !== 'rules-bug' && !covered.has(rule));
    expect(missing).toEqual([]);
  });
});

describe('edits that change nothing on the wire', () => {
  const reorder = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(reorder)
      : typeof value === 'object' && value !== null
        ? Object.fromEntries(
            Object.entries(value)
              .reverse()
              .map(([k, v]) => [k, reorder(v)]),
          )
        : value;
  it.each<[string, Edit]>([
    [
      'descriptions reworded',
      (r) => (type(r, 'OrderParams').properties['item']!['description'] = 'What to buy.'),
    ],
    [
      'examples replaced',
      (r) => (type(r, 'OrderParams')['examples'] = [{ item: 'pen', quantity: 9 }]),
    ],
    [
      'a type renamed, its structure the same',
      (r) => {
        r.vocabulary['Dimension'] = type(r, 'Size');
        delete r.vocabulary['Size'];
        type(r, 'OrderParams').properties['size'] = { $ref: '#/definitions/Dimension' };
      },
    ],
    [
      'a reference inlined',
      (r) => (type(r, 'OrderParams').properties['size'] = { ...type(r, 'Size') }),
    ],
    [
      'an error renamed, its code the same',
      (r) => {
        (r.errors[1] as { name: string }).name = 'overloaded';
        method(r, 'order').errors = ['invalidParams', 'overloaded'];
      },
    ],
    ["a method's generated name changed", (r) => (method(r, 'ping').name = 'ping2')],
  ])('%s', (_name, edit) => {
    expect(compare(edit).findings.map((f) => [f.rule, f.new.pointer])).toEqual([]);
  });

  it('reports nothing for the same IDL reformatted with its keys in another order', () => {
    const raw = reorder(JSON.parse(baseText));
    const next = idlDocumentFromText(JSON.stringify(raw, null, 4), 'new.idl.json', {
      check: false,
    });
    const comparison = compareIdl(base, next, {
      vectors: new Map(),
      allowList: { file: 'none', entries: [] },
      samples: 8,
    });
    expect(comparison.findings).toEqual([]);
    expect(comparison.semantic.checked).toBeGreaterThan(100);
  });
});

describe('where a finding points', () => {
  it('gives the pointer and line:column of the change in both files', () => {
    const old = base;
    const raw = JSON.parse(baseText) as Raw;
    type(raw, 'OrderParams').required.push('note');
    const newText = `\n\n${JSON.stringify(raw, null, 2)}`;
    const next = idlDocumentFromText(newText, 'new.idl.json', { check: false });
    const [finding] = compareIdl(old, next, {
      vectors: new Map(),
      allowList: { file: 'none', entries: [] },
      samples: 4,
    }).findings;
    const lineOf = (text: string, marker: string) =>
      text.slice(0, text.indexOf(marker)).split('\n').length;
    expect(finding?.old).toMatchObject({
      file: 'old.idl.json',
      pointer: '/types/OrderParams/properties/note',
      line: lineOf(baseText, '"note": {'),
    });
    expect(finding?.new).toMatchObject({
      file: 'new.idl.json',
      pointer: '/types/OrderParams/properties/note',
      line: lineOf(newText, '"note": {'),
    });
    expect(finding?.message).toMatch(
      /member `note` is now required: old clients may still send what the old version allows in order params, which new runtimes reject\./,
    );
    expect(finding?.fix).toMatch(/make the member optional/);
  });
});

describe('a request family and a notification family on one prefix', () => {
  it('compares each with its own kind, so the same IDL breaks nothing', () => {
    const text = readFileSync(
      new URL('./fixtures/extension-methods.idl.json', import.meta.url),
      'utf8',
    );
    const same = compareIdl(
      idlDocumentFromText(text, 'old.idl.json'),
      idlDocumentFromText(text, 'new.idl.json'),
      { vectors: new Map(), allowList: { file: 'none', entries: [] }, samples: 2 },
    );
    expect(same.findings.map((f) => f.rule)).toEqual([]);
  });
});
