import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { docsEmitter } from '../src/emit/docs.js';
import type { Emitter } from '../src/emit/emitter.js';
import { pyBindingsEmitter } from '../src/emit/py-bindings.js';
import { tsMethodsEmitter } from '../src/emit/ts-methods.js';
import { loadIdlFile } from '../src/idl/load.js';
import { IdlError } from '../src/idl/source.js';
import { fixtureContext } from './helpers/fixture-protocol.js';

const fixture = (name: string) => new URL(`./fixtures/${name}.idl.json`, import.meta.url).pathname;

function loadError(name: string): IdlError {
  try {
    loadIdlFile(fixture(name), `${name}.idl.json`);
  } catch (error) {
    if (error instanceof IdlError) return error;
    throw error;
  }
  throw new Error(`${name} loaded without problems`);
}

/** 1-based line of the `occurrence`-th `marker` in the fixture. */
function lineOf(name: string, marker: string, occurrence = 1): number {
  const text = readFileSync(fixture(name), 'utf8');
  let offset = -1;
  for (let i = 0; i < occurrence; i++) offset = text.indexOf(marker, offset + 1);
  return text.slice(0, offset).split('\n').length;
}

describe('the IDL capabilities section', () => {
  const context = fixtureContext('capabilities');
  const { model, bundle } = context;
  const fileOf = async (emitter: Emitter, path: string) =>
    (await emitter.emit(context)).find((f) => f.path.endsWith(path))?.content ?? '';

  it('reads each flag with its version and the methods it guards', () => {
    expect(model.capabilities).toEqual([
      {
        name: 'stop',
        type: 'boolean',
        since: 2,
        guards: ['stop'],
        description: 'The server serves `stop`.',
      },
    ]);
  });

  it('writes one property per flag on the marked type, so the flags are written once', () => {
    const holder = model.types.find((t) => t.name === 'Features');
    expect(holder?.fields.map((f) => [f.name, f.schema['type'], f.since, f.description])).toEqual([
      ['stop', 'boolean', 2, 'The server serves `stop`.'],
    ]);
    expect(bundle.definitions['Features']?.['properties']).toEqual({
      stop: { type: 'boolean', 'x-since': 2, description: 'The server serves `stop`.' },
    });
  });

  it('prints the capability table in TypeScript, Python and the reference', async () => {
    const ts = (await fileOf(tsMethodsEmitter, 'methods.gen.ts')).split('\n');
    expect(ts).toContain("export type CapabilityName = 'stop';");
    expect(ts).toContain("  { name: 'stop', type: 'boolean', since: 2, guards: ['stop'] },");
    const py = (await fileOf(pyBindingsEmitter, 'methods.py')).split('\n');
    expect(py).toContain(
      '    CapabilityInfo(name="stop", type="boolean", since=2, guards=("stop",)),',
    );
    const docs = (await fileOf(docsEmitter, 'protocol.md')).split('\n');
    expect(docs).toContain('## Capabilities');
    expect(docs).toContain('| `stop` | boolean | 2 | `stop` | The server serves `stop`. |');
  });

  it.each([
    ['/capabilities/1/name', /capability "stop" is defined twice/, '"name": "stop"', 3],
    ['/capabilities/1/since', /since 3 is above meta.protocolVersion \(2\)/, '"since": 3', 1],
    [
      '/capabilities/1/guards/0',
      /"clock.tick" is not a client → server request/,
      '"clock.tick"',
      2,
    ],
    ['/capabilities/1/guards/1', /"stop" is already guarded by "stop"/, '"stop"\n', 2],
    ['/types/Features', /without hand-written properties/, '"Features": {', 1],
  ])('points at %s', (pointer, message, marker, occurrence) => {
    const error = loadError('bad-capabilities');
    const problem = error.problems.find((p) => p.pointer === pointer);
    expect(problem?.message, error.message).toMatch(message);
    expect(problem?.hint).toMatch(/\w/);
    expect(problem?.line).toBe(lineOf('bad-capabilities', marker, occurrence));
  });
});
