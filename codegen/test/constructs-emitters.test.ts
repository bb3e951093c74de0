// The new constructs through the TypeScript emitters and the docs emitter: each fixture rendered as
// `pnpm generate` renders it (formatted), its exact lines checked, and its generated validators run.
import { describe, expect, it } from 'vitest';
import { fixtureValidators, renderFixture } from './helpers/fixture-protocol.js';
import { budgetMs } from './helpers/time-budget.js';

const TIMEOUT = budgetMs(60_000);

/** The lines of one file of a rendered fixture. */
async function lines(fixture: string, file: string): Promise<string[]> {
  return ((await renderFixture(fixture)).get(file) ?? '').split('\n');
}

/** `lines` contains `block` as consecutive lines. */
function expectBlock(all: string[], block: string[]): void {
  const start = all.indexOf(block[0] ?? '');
  expect(start, `no line ${block[0]}`).toBeGreaterThanOrEqual(0);
  expect(all.slice(start, start + block.length)).toEqual(block);
}

/** Runs a fixture's validator; returns its verdict, the value as it left it, and the violations. */
async function check(fixture: string, validator: string, value: unknown) {
  const validators = await fixtureValidators(await renderFixture(fixture));
  const validate = validators[validator];
  if (!validate) throw new Error(`no ${validator}`);
  const copy = structuredClone(value);
  const isValid = validate(copy);
  // An if/then/else dispatch also reports its own `if` failure; the real violations are the others.
  const errors = (validate.errors ?? []).filter((e) => e.keyword !== 'if');
  return {
    isValid,
    value: copy,
    errors: errors.map((e) => `${e.instancePath} ${e.message ?? ''}`),
  };
}

describe('a $ref wrapped in allOf', () => {
  it(
    'prints the type by name with the wrapper’s description',
    async () => {
      expectBlock(await lines('ref-in-allof', 'types.gen.ts'), [
        'export interface Note {',
        '  /**',
        '   * Who wrote it.',
        '   */',
        '  author: Person;',
      ]);
      expect(await lines('ref-in-allof', 'protocol.md')).toContain(
        '| `author`    | [`Person`](#person)       | yes      | Who wrote it. |',
      );
    },
    TIMEOUT,
  );

  it(
    'validates the referenced type',
    async () => {
      expect(await check('ref-in-allof', 'validateNote', { author: {} })).toMatchObject({
        isValid: false,
        errors: ["/author must have required property 'name'"],
      });
    },
    TIMEOUT,
  );
});

describe('members that admit null', () => {
  it(
    'types them `| null`, and the reference says so',
    async () => {
      const types = await lines('nullable', 'types.gen.ts');
      for (const line of [
        '  title?: string | null;',
        '  author?: Person | null;',
        '  tags?: string[] | null;',
      ])
        expect(types).toContain(line);
      expect((await lines('nullable', 'protocol.md')).join('\n')).toContain(
        '[`Person`](#person) or `null`',
      );
    },
    TIMEOUT,
  );

  it(
    'accepts null and nothing else the schema forbids',
    async () => {
      expect(
        (await check('nullable', 'validateNote', { title: null, author: null, tags: null }))
          .isValid,
      ).toBe(true);
      expect(await check('nullable', 'validateNote', { title: 1 })).toMatchObject({
        isValid: false,
        errors: ['/title must be string,null'],
      });
    },
    TIMEOUT,
  );
});

describe('a tagged union whose variants extend their content, with a default variant', () => {
  it(
    'types each variant as its content and its tag',
    async () => {
      const types = await lines('tagged-variants', 'types.gen.ts');
      expect(types).toContain('export type Block = TextBlock | ImageBlock | PlainBlock;');
      expectBlock(types, [
        'export type TextBlock = TextContent & {',
        '  /**',
        '   * Always `text`.',
        '   */',
        "  type: 'text';",
        '};',
      ]);
    },
    TIMEOUT,
  );

  it(
    'documents the default variant and the bases',
    async () => {
      const doc = await lines('tagged-variants', 'protocol.md');
      expectBlock(doc, [
        'Union on `type`:',
        '',
        '- `text`: [`TextBlock`](#textblock)',
        '- `image`: [`ImageBlock`](#imageblock)',
        '- absent: [`PlainBlock`](#plainblock)',
      ]);
      expect(doc).toContain('Has every member of [`TextContent`](#textcontent), and:');
    },
    TIMEOUT,
  );

  it(
    'dispatches: a tag selects its variant, a value without one is the default',
    async () => {
      expect(
        (await check('tagged-variants', 'validateMessage', { block: { type: 'text', text: 'hi' } }))
          .isValid,
      ).toBe(true);
      expect(
        (await check('tagged-variants', 'validateMessage', { block: { body: 'hi' } })).isValid,
      ).toBe(true);
      // Only the selected variant's violations: not the default's, nor an anyOf summary.
      const broken = await check('tagged-variants', 'validateMessage', { block: { type: 'text' } });
      expect(broken.errors).toEqual(["/block must have required property 'text'"]);
    },
    TIMEOUT,
  );
});

describe('an untagged union', () => {
  it(
    'types a plain union and documents what selects each variant',
    async () => {
      expect(await lines('untagged-union', 'types.gen.ts')).toContain(
        'export type Resource = TextResource | BlobResource;',
      );
      expectBlock(await lines('untagged-union', 'protocol.md'), [
        'Untagged union: a value is the first of these whose required members are all present:',
        '',
        '- [`TextResource`](#textresource) (with `uri`, `text`)',
        '- [`BlobResource`](#blobresource) (with `blob`)',
      ]);
    },
    TIMEOUT,
  );

  it(
    'checks the variant its required members select, and names what is missing when none is',
    async () => {
      const blob = await check('untagged-union', 'validateResource', { uri: 'a', blob: 'AA' });
      expect(blob.isValid).toBe(true);
      const selected = await check('untagged-union', 'validateResource', { uri: 'a', blob: 1 });
      expect(selected.errors).toEqual(['/blob must be string']);
      const neither = await check('untagged-union', 'validateResource', { uri: 'a' });
      expect(neither.errors).toEqual([
        " must have required property 'text'",
        " must have required property 'blob'",
        ' must match a schema in anyOf',
      ]);
    },
    TIMEOUT,
  );
});

describe('a _meta member', () => {
  it(
    'is an open object or null',
    async () => {
      expectBlock(await lines('meta-member', 'types.gen.ts'), [
        '  _meta?: {',
        '    [k: string]: unknown;',
        '  } | null;',
      ]);
      expect(
        (await check('meta-member', 'validateNote', { text: 'a', _meta: { any: [1] } })).isValid,
      ).toBe(true);
      expect(
        (await check('meta-member', 'validateNote', { text: 'a', _meta: 'x' })).errors,
      ).toEqual(['/_meta must be object,null']);
    },
    TIMEOUT,
  );
});

describe('methods both ways, optional ones and prefix families', () => {
  it(
    'maps each end’s requests and notifications, a family as a template index',
    async () => {
      const methods = await lines('extension-methods', 'methods.gen.ts');
      expectBlock(methods, [
        'export interface HarnessSdkRequestMap {',
        '  /** Runs a prompt. */',
        "  'session/prompt': { params: Note; result: Ok };",
        '  /** Any request whose method starts with `_`. */',
        '  [method: `_${string}`]: { params: ExtParams; result: ExtResult };',
        '}',
      ]);
      expect(methods).toContain('export interface HarnessSdkServerRequestMap {');
      expect(methods).toContain(
        'export type ClientNotificationMethod = keyof HarnessSdkClientNotificationMap;',
      );
    },
    TIMEOUT,
  );

  it(
    'gives the client notify methods, a family method taking the wire name, and handleRequests',
    async () => {
      const peers = await lines('extension-methods', 'peers.gen.ts');
      expectBlock(peers, [
        '  notifyCancel(params: CancelParams): Promise<void> {',
        '    return this.transport.notify(Method.cancel, params);',
        '  }',
      ]);
      expect(peers).toContain(
        '  notifyExtNotification(method: `_${string}`, params: ExtParams): Promise<void> {',
      );
      expect(peers).toContain(
        '  handleRequests(handlers: HarnessSdkClientRequestHandlers): () => void {',
      );
      expect(peers).toContain(
        '  readFile?(params: ReadParams, context: RequestContext): ReadResult | Promise<ReadResult>;',
      );
    },
    TIMEOUT,
  );

  it(
    'gives the server peer the requests it sends and the notifications it receives',
    async () => {
      const peers = await lines('extension-methods', 'peers.gen.ts');
      expect(peers).toContain(
        '  async readFile(params: ReadParams, options?: RequestOptions): Promise<ReadResult> {',
      );
      expect(peers).toContain('  onCancel(handler: Subscriber<CancelParams>): () => void {');
      expect(peers).toContain('    options: PeerOptions = {},');
    },
    TIMEOUT,
  );

  it(
    'documents a family by its prefix and an optional method as such',
    async () => {
      const doc = await lines('extension-methods', 'protocol.md');
      expect(doc).toContain('### `_…` requests');
      expect(doc).toContain('- every method whose name starts with `_`');
      expect(doc).toContain('- optional: the end that receives it may leave it unimplemented');
    },
    TIMEOUT,
  );
});

describe('lenient decoding', () => {
  it(
    'repairs what the keywords allow and reports nothing',
    async () => {
      const result = await check('lenient', 'validateUpdate', {
        kind: 'bogus',
        level: 99,
        items: [{ name: 'a' }, { nope: 1 }, { name: 'b' }],
        args: null,
      });
      expect(result).toEqual({
        isValid: true,
        value: { level: 5, items: [{ name: 'a' }, { name: 'b' }], args: [] },
        errors: [],
      });
    },
    TIMEOUT,
  );

  it(
    'leaves a valid value as it is, and still reports what no keyword covers',
    async () => {
      const valid = { kind: 'read', level: 2, items: [{ name: 'a' }], args: ['x'] };
      expect((await check('lenient', 'validateUpdate', valid)).value).toEqual(valid);
      const extra = await check('lenient', 'validateUpdate', { items: 'many' });
      expect(extra.errors).toEqual(['/items must be array']);
    },
    TIMEOUT,
  );
});

describe('format and default', () => {
  it(
    'are annotations: documented, not asserted',
    async () => {
      const doc = (await lines('annotations', 'protocol.md')).join('\n');
      expect(doc).toContain('The most bytes. Format: `uint64`.');
      expect(doc).toContain('How. Default: `"fast"`.');
      expect(doc).toContain('- `fast` — Skips checks.');
      expect(
        (await check('annotations', 'validateLimits', { bytes: 1, site: 'not a uri' })).isValid,
      ).toBe(true);
      expectBlock(await lines('annotations', 'types.gen.ts'), [
        '   * How.',
        '   * @default "fast"',
        '   */',
        '  mode?: Mode;',
      ]);
    },
    TIMEOUT,
  );

  it(
    'leaves out the diagnostics and message texts a protocol without them does not have',
    async () => {
      const constants = (await renderFixture('annotations')).get('constants.gen.ts') ?? '';
      expect(constants).not.toContain('DiagnosticReason');
      expect(constants).not.toContain('WireMessage');
      expect((await renderFixture('annotations')).get('protocol.md')).not.toContain(
        '## Transport diagnostics',
      );
    },
    TIMEOUT,
  );
});
