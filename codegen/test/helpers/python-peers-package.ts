// A scratch copy of the dsh_sdk Python package whose generated bindings (`_gen/`) speak the
// protocol's methods plus a fixture's: the fixture's peers then run on the repository's own
// runtime (transport, codec, peer support), as the protocol's do.
import { cpSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { loadIdlText } from '../../src/idl/load.js';
import { renderProtocol } from '../../src/render.js';
import { fixturePath, REPO, rootTargets } from './fixture-protocol.js';

type RawIdl = { methods: object[]; types: Record<string, unknown> };

/**
 * The root IDL with the fixture's methods and types added. The root protocol brings what the
 * runtime imports from `_gen` (error codes, messages, the violation type), and its methods become
 * optional, so that a server of the fixture implements only the fixture's. The fixture's names must
 * not clash with the root's.
 */
function overlayIdl(fixture: string): string {
  const root = JSON.parse(readFileSync(join(REPO, 'protocol.idl.json'), 'utf8')) as RawIdl;
  const extra = JSON.parse(readFileSync(fixturePath(fixture), 'utf8')) as RawIdl;
  const clash = Object.keys(extra.types).filter((name) => name in root.types);
  if (clash.length > 0) throw new Error(`${fixture} redefines ${clash.join(', ')}`);
  const merged = {
    ...root,
    methods: [...root.methods.map((m) => ({ ...m, optional: true })), ...extra.methods],
    types: { ...root.types, ...extra.types },
  };
  return JSON.stringify(merged, null, 2);
}

/** Writes the package into a new temporary folder; returns its `src` folder (for PYTHONPATH). */
export async function makePythonPeersPackage(fixture: string): Promise<string> {
  const scratch = realpathSync(mkdtempSync(join(tmpdir(), `py-peers-${fixture}-`)));
  const src = join(scratch, 'src');
  cpSync(join(REPO, 'python/src/dsh_sdk'), join(src, 'dsh_sdk'), {
    recursive: true,
    filter: (path) => !path.includes('__pycache__'),
  });
  const targets = { ...rootTargets(), typescript: null };
  const model = loadIdlText(overlayIdl(fixture), `${fixture} over protocol.idl.json`);
  const location = {
    name: fixture,
    dir: '',
    idlPath: 'protocol.idl.json',
    targetsPath: 'protocol.targets.json',
    importPath: null,
  };
  const outputs = await renderProtocol({ location, targets, model }, REPO);
  for (const output of outputs.filter((o) => o.path.startsWith('python/src/'))) {
    const path = join(src, output.path.slice('python/src/'.length));
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, output.content);
  }
  return src;
}
