import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadIdlFile } from '../src/idl/load.js';
import { IdlError } from '../src/idl/source.js';

const fixture = (name: string) => new URL(`./fixtures/${name}.idl.json`, import.meta.url).pathname;

/** Where `marker` starts in the fixture text (its `occurrence`-th appearance), as 1-based line:column. */
function positionOf(
  name: string,
  marker: string,
  occurrence = 1,
): { line: number; column: number } {
  const text = readFileSync(fixture(name), 'utf8');
  let offset = -1;
  for (let i = 0; i < occurrence; i++) offset = text.indexOf(marker, offset + 1);
  if (offset < 0) throw new Error(`marker ${marker} not in ${name}`);
  const before = text.slice(0, offset);
  return { line: before.split('\n').length, column: offset - before.lastIndexOf('\n') };
}

function loadError(name: string): IdlError {
  try {
    loadIdlFile(fixture(name), `${name}.idl.json`);
  } catch (error) {
    if (error instanceof IdlError) return error;
    throw error;
  }
  throw new Error(`${name} loaded without problems`);
}

describe('loading the IDL', () => {
  it('accepts the minimal fixture and the real protocol.idl.json', () => {
    expect(loadIdlFile(fixture('minimal')).methods.map((m) => m.wireName)).toEqual([
      'ping',
      'clock.tick',
    ]);
    const real = loadIdlFile(new URL('../../protocol.idl.json', import.meta.url).pathname);
    expect(real.methods).toHaveLength(9);
    expect(real.sequences.map((q) => q.name)).toContain('interruptTurn');
  });

  it.each([
    [
      'missing-description',
      '/methods/0/summary',
      '"summary"',
      1,
      /unknown member "summary"/,
      /remove it or fix its spelling/,
    ],
    [
      'bad-type-name',
      '/types/ping_result',
      '"ping_result"',
      1,
      /bad name "ping_result"/,
      /PascalCase/,
    ],
    [
      'unresolved-ref',
      '/types/PingParams/properties/shape/$ref',
      '"$ref": "#/definitions/Shap"',
      1,
      /unknown type "Shap"/,
      /define "Shap"/,
    ],
    [
      'unknown-params-type',
      '/methods/1/params',
      '"params": "Tock"',
      1,
      /unknown type "Tock"/,
      /define "Tock" under \/types/,
    ],
    [
      'duplicate-method-name',
      '/methods/1/name',
      '"name": "ping"',
      2,
      /already used by \/methods\/0/,
      /unique `name`/,
    ],
    [
      'duplicate-wire-method',
      '/methods/1/method',
      '"method": "ping"',
      2,
      /wire method "ping" is already used/,
      /unique `method`/,
    ],
    [
      'unused-type',
      '/errorData/Orphan',
      '"Orphan"',
      1,
      /not used by any method or error/,
      /or delete it/,
    ],
    [
      'union-without-discriminator',
      '/vocabulary/Shape/anyOf',
      '"anyOf"',
      1,
      /has no x-discriminator/,
      /"x-discriminator"/,
    ],
    [
      'union-variant-not-ref',
      '/vocabulary/Shape/anyOf/0',
      '{ "type": "object", "properties"',
      1,
      /not a \$ref/,
      /named type/,
    ],
    [
      'open-union-without-unknown',
      '/vocabulary/Shape/x-open',
      '"x-open"',
      1,
      /exactly one variant/,
      /Unknown… variant/,
    ],
    [
      'anonymous-object',
      '/types/Tick/properties/at',
      '"at": {',
      1,
      /anonymous object type/,
      /named type/,
    ],
    [
      'property-without-description',
      '/types/PingResult/properties/pongs',
      '"pongs": {',
      1,
      /no description/,
      /add a "description"/,
    ],
    [
      'example-mismatch',
      '/types/PingResult/examples/0',
      '{ "pongs": "one" }',
      1,
      /does not match PingResult: \/pongs must be integer/,
      /agree/,
    ],
    [
      'duplicate-error-code',
      '/errors/1/code',
      '"code": -32602',
      2,
      /already used by "invalidParams"/,
      /unique code/,
    ],
    [
      'unknown-method-error',
      '/methods/0/errors/0',
      '"invalidParam"',
      1,
      /unknown error "invalidParam"/,
      /invalidParams/,
    ],
    ['title-in-type', '/types/Tick/title', '"title"', 2, /not allowed here/, /title is its name/],
    [
      'since-above-protocol-version',
      '/methods/1/since',
      '"since": 2',
      1,
      /since 2 is above meta\.protocolVersion \(1\)/,
      /raise \/meta\/protocolVersion to 2/,
    ],
    [
      'required-member-since',
      '/types/PingParams/properties/count/x-since',
      '"x-since": 2',
      1,
      /new in version 2 but required/,
      /remove "count" from "required"/,
    ],
    [
      'known-value-since-above',
      '/vocabulary/Color/x-known-values/blue/since',
      '"since": 3',
      1,
      /since 3 is above meta\.protocolVersion \(2\)/,
      /raise \/meta\/protocolVersion to 3/,
    ],
    [
      'deprecated-without-reason',
      '/methods/0/deprecated/reason',
      '"deprecated"',
      1,
      /missing required member "reason"/,
      /add "reason"/,
    ],
    [
      'deprecated-member-without-reason',
      '/types/PingResult/properties/pongs/x-deprecated/reason',
      '"x-deprecated"',
      1,
      /missing required member "reason"/,
      /add "reason"/,
    ],
    [
      'lacks-required-on-string',
      '/vocabulary/Color/x-not-object-lacks-required',
      '"x-not-object-lacks-required"',
      1,
      /not an object with required members/,
      /object type with "required"/,
    ],
    [
      'notification-with-result',
      '/methods/1/result',
      '"result": "PingResult"',
      2,
      /not allowed here/,
      /notifications have no/,
    ],
  ])(
    'reports %s at %s with line, column and a fix',
    (name, pointer, marker, occurrence, message, hint) => {
      const error = loadError(name);
      const problem = error.problems.find((p) => p.pointer === pointer && message.test(p.message));
      expect(problem, error.message).toBeDefined();
      expect(problem?.hint).toMatch(hint);
      const { line, column } = positionOf(name, marker, occurrence);
      expect({ line: problem?.line, column: problem?.column }).toEqual({ line, column });
      expect(error.message).toContain(`${name}.idl.json:${line}:${column} ${pointer}: `);
      expect(error.message).toContain('fix: ');
    },
  );

  it.each([
    ['/sequences/0/steps/0/request', '"request": "pong"', /unknown method "pong"/, /wire name/],
    [
      '/sequences/0/steps/1/notification',
      '"notification": "clock.tick", "members"',
      /new in version 2, but the sequence shows version 1/,
      /"since" to 2/,
    ],
    ['/sequences/0/steps/1/members/0', '"when"', /Tick has no member "when"/, /use one of: at/],
    [
      '/sequences/0/steps/2/values/count',
      '"count": "many"',
      /"many" is not a value of "count": it is an integer/,
      /a value the member accepts/,
    ],
    [
      '/sequences/0/steps/3/note',
      '"note": "then clock.tick comes"',
      /the text names "clock.tick"/,
      /as steps/,
    ],
    [
      '/sequences/0/steps/4/result',
      '"result": "clock.tick"',
      /is a notification, not a request/,
      /"notification"/,
    ],
  ])('checks sequences: %s', (pointer, marker, message, hint) => {
    const error = loadError('bad-sequences');
    const problem = error.problems.find((p) => p.pointer === pointer && message.test(p.message));
    expect(problem, error.message).toBeDefined();
    expect(problem?.hint).toMatch(hint);
    const { line, column } = positionOf('bad-sequences', marker);
    expect({ line: problem?.line, column: problem?.column }).toEqual({ line, column });
  });

  it('reads sequences into the model', () => {
    const [sequence] = loadIdlFile(fixture('sequenced')).sequences;
    expect(sequence?.since).toBe(2);
    expect(sequence?.steps.map((s) => s.kind)).toEqual(['request', 'result', 'opt', 'note']);
    expect(sequence?.steps[0]).toEqual({
      kind: 'request',
      method: 'ping',
      members: [],
      values: [['count', 2]],
      note: null,
    });
  });

  it('reads protocol versions, since and deprecated into the model', () => {
    const model = loadIdlFile(fixture('versioned'));
    expect(model.meta.protocolVersion).toBe(2);
    expect(loadIdlFile(fixture('minimal')).meta.protocolVersion).toBe(1);
    const [ping, tick] = model.methods;
    expect([ping?.since, ping?.deprecated]).toEqual([1, null]);
    expect([tick?.since, tick?.deprecated]).toEqual([
      2,
      { reason: 'Clocks drift.', replacement: null },
    ]);
    const shape = model.types.find((t) => t.name === 'PingParams')?.fields[1];
    expect([shape?.since, shape?.deprecated?.reason]).toEqual([2, 'Shapes are out.']);
    expect(model.types.find((t) => t.name === 'Color')?.values).toEqual([
      { value: 'red', description: 'Red.', since: 1, deprecated: null },
      {
        value: 'blue',
        description: 'Blue.',
        since: 2,
        deprecated: { reason: 'Looks like red on old screens.', replacement: 'red' },
      },
    ]);
  });

  it('reads the message texts of errors and diagnostics, with their placeholders', () => {
    const real = loadIdlFile(new URL('../../protocol.idl.json', import.meta.url).pathname);
    const byName = new Map(real.messages.map((m) => [m.name, m]));
    expect(byName.get('frameTooLarge')).toMatchObject({
      template: 'the line is longer than the frame limit of {limit} bytes',
      placeholders: ['limit'],
      owner: 'diagnostic frame-too-large',
    });
    expect(byName.get('methodNotFound')?.owner).toBe('error -32601 (methodNotFound)');
    // The released version 1 predates message texts: it still loads, with none.
    const released = new URL('../../protocol/released/1.idl.json', import.meta.url).pathname;
    expect(loadIdlFile(released).messages).toEqual([]);
  });

  it('refuses a message name used twice, pointing at the second', () => {
    const path = new URL('../../protocol.idl.json', import.meta.url).pathname;
    const text = readFileSync(path, 'utf8').replace(
      '"noHandler": "no handler',
      '"methodNotFound": "no handler',
    );
    const copy = join(mkdtempSync(join(tmpdir(), 'idl-')), 'twice.idl.json');
    writeFileSync(copy, text);
    expect(() => loadIdlFile(copy, 'twice.idl.json')).toThrow(
      /twice\.idl\.json:\d+:\d+ \/diagnostics\/12\/messages\/methodNotFound: message name "methodNotFound" is already used at \/errors\/2\/messages\/methodNotFound/,
    );
  });

  it('reports invalid JSON with the line of the syntax error', () => {
    const error = loadError('not-json');
    expect(error.problems[0]?.line).toBe(positionOf('not-json', ',,').line);
    expect(error.message).toMatch(/not-json\.idl\.json:\d+:\d+ \/: not valid JSON/);
  });
});
