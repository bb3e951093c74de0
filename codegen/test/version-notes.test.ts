// `since` and `deprecated` carried by the emitters (JSDoc tags, docstrings, a DeprecationWarning a
// caller really gets), and the docs' diagrams drawn from the IDL's `sequences`.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { docsEmitter } from '../src/emit/docs.js';
import { pyBindingsEmitter } from '../src/emit/py-bindings.js';
import { pyConvertersEmitter } from '../src/emit/py-converters.js';
import { pyModelsEmitter } from '../src/emit/py-models.js';
import { pyPeersEmitter } from '../src/emit/py-peers.js';
import { pyValidatorsEmitter } from '../src/emit/py-validators.js';
import { tsMethodsEmitter } from '../src/emit/ts-methods.js';
import { tsPeersEmitter } from '../src/emit/ts-peers.js';
import { tsTypesEmitter } from '../src/emit/ts-types.js';
import type { Emitter } from '../src/emit/emitter.js';
import { loadIdlFile } from '../src/idl/load.js';
import { buildSchemaBundle } from '../src/schema/bundle.js';
import { budgetMs } from './helpers/time-budget.js';
import { rootTargets } from './helpers/fixture-protocol.js';

const model = loadIdlFile(new URL('./fixtures/sequenced.idl.json', import.meta.url).pathname);
const target = rootTargets();
const bundle = buildSchemaBundle(model, target.schemaId);
const pythonDir = new URL('../../python/', import.meta.url).pathname;

async function text(emitter: Emitter, path?: string): Promise<string> {
  const files = await emitter.emit({ model, bundle, target });
  const file = path ? files.find((f) => f.path.endsWith(path)) : files[0];
  return file?.content ?? '';
}

describe('TypeScript carries since and deprecated as JSDoc tags', () => {
  it('on methods, in the constants, the maps and the peers', async () => {
    const methods = await text(tsMethodsEmitter);
    expect(methods).toContain(
      '   * Time passed.\n   * @since 2\n   * @deprecated Clocks drift.\n   */\n  tick:',
    );
    expect(methods).toContain("since: 2, deprecated: 'Clocks drift.'");
    const peers = await text(tsPeersEmitter);
    expect(peers).toMatch(
      /Subscribes to `clock.tick`[^/]*@since 2\n {3}\* @deprecated Clocks drift\./,
    );
  });

  it('on members and known values of the payload types', async () => {
    const types = await text(tsTypesEmitter);
    expect(types).toMatch(
      /@since 2\n {3}\* @deprecated Shapes are out\.\n {3}\*\/\n {2}shape\?: Shape;/,
    );
    expect(types).toContain(
      '`blue`: since 2 deprecated Looks like red on old screens. Use red instead.',
    );
  });
});

describe('Python carries them in docstrings, and a deprecated method warns its caller', () => {
  it('writes the version sentences', async () => {
    const peers = await text(pyPeersEmitter);
    expect(peers).toContain('Since protocol version 2. Deprecated: Clocks drift.');
    expect(peers).toContain('        warnings.warn(');
    expect(peers).toContain('import warnings');
    const methods = await text(pyBindingsEmitter, '/methods.py');
    expect(methods).toContain('        since=2,\n        deprecated="Clocks drift.",');
  });

  const root = mkdtempSync(join(tmpdir(), 'dsh-deprecated-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it(
    'raises a DeprecationWarning pointing at the code that subscribes',
    async () => {
      // The package, with the fixture's generated bindings in place of the protocol's.
      cpSync(join(pythonDir, 'src/dsh_sdk'), join(root, 'dsh_sdk'), { recursive: true });
      // The package root re-exports the protocol's own names; the fixture has others.
      writeFileSync(join(root, 'dsh_sdk/__init__.py'), '');
      // Every generated module from the fixture: the decoders look up the model classes on import.
      for (const emitter of [
        pyModelsEmitter,
        pyBindingsEmitter,
        pyValidatorsEmitter,
        pyConvertersEmitter,
        pyPeersEmitter,
      ]) {
        for (const file of await emitter.emit({ model, bundle, target })) {
          // The hand-written modules read the protocol's own texts and codes: keep its constants.
          if (file.path.endsWith('/_gen/constants.py')) continue;
          const target = join(root, file.path.replace(/^python\/src\//, ''));
          mkdirSync(dirname(target), { recursive: true });
          writeFileSync(target, file.content);
        }
      }
      const script = join(root, 'caller.py');
      writeFileSync(
        script,
        [
          'import json, warnings',
          'from dsh_sdk._gen.peers import HarnessSdkClientPeer',
          'class Transport:',
          '    def on_notification(self, method, handler):',
          '        return lambda: None',
          'peer = HarnessSdkClientPeer(Transport())',
          'with warnings.catch_warnings(record=True) as caught:',
          '    warnings.simplefilter("always")',
          '    peer.on_tick(lambda params: None)',
          'print(json.dumps([[w.category.__name__, str(w.message), w.filename] for w in caught]))',
        ].join('\n'),
      );
      const output = execFileSync(join(pythonDir, '.venv/bin/python'), [script], {
        encoding: 'utf8',
        env: { ...process.env, PYTHONPATH: root },
      });
      expect(JSON.parse(output)).toEqual([
        ['DeprecationWarning', 'clock.tick is deprecated: Clocks drift.', script],
      ]);
    },
    budgetMs(60_000),
  );
});

describe('the docs', () => {
  it('draw each sequence from its data, and list what each version adds', async () => {
    const docs = await text(docsEmitter);
    expect(docs).toContain(
      [
        '## Ping and tick',
        '',
        'Protocol version 2 and later.',
        '',
        'A ping, its pongs, and a tick.',
        '',
        '```mermaid',
        'sequenceDiagram',
        '  participant C as SDK client',
        '  participant R as Runtime',
        '  C->>R: ping {count: 2}',
        '  R-->>C: result {pongs} (as many as asked)',
        '  opt later',
        '    R--)C: clock.tick {at}',
        '  end',
        '  Note over C: done',
        '```',
      ].join('\n'),
    );
    expect(docs).toContain('| 2 | `clock.tick` | PingParams.`shape` | Color `blue` |');
    expect(docs).toContain('- `clock.tick`: Clocks drift.');
  });
});
