// The repository's protocols: found by convention, their targets files checked with located errors.
import { spawnSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IdlError } from '../src/idl/source.js';
import { listProtocols, ProtocolLayoutError } from '../src/protocols/list.js';
import { loadProtocols, readTargets } from '../src/protocols/load-protocol.js';
import { fixturePath, REPO } from './helpers/fixture-protocol.js';
import { budgetMs } from './helpers/time-budget.js';

const cli = new URL('../bin/idl-gen.mjs', import.meta.url).pathname;
let root = '';

function targets(name: string, genDir: string): object {
  return {
    name,
    schemaId: `https://example.test/${name}.schema.json`,
    bindings: { prefix: 'Mini', sides: { client: 'client', server: 'server' } },
    typescript: {
      genDir,
      runtime: {
        peerSupport: '@dsh-sdk/protocol',
        pendingRequests: '@dsh-sdk/protocol',
        inboundHandlers: '@dsh-sdk/protocol',
      },
    },
    releases: { dir: `releases/${name}`, allowList: `releases/${name}-allow.json` },
  };
}

/** Writes a protocol: its IDL (the minimal fixture) and its targets file, in `dir`. */
function addProtocol(dir: string, content: object): void {
  mkdirSync(join(root, dir), { recursive: true });
  cpSync(fixturePath('minimal'), join(root, dir, 'protocol.idl.json'));
  writeFileSync(join(root, dir, 'protocol.targets.json'), `${JSON.stringify(content, null, 2)}\n`);
}

beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'idl-protocols-'));
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

describe('listProtocols', () => {
  it('finds the root protocol first, then protocols/<name> by name, skipping folders without an IDL', () => {
    addProtocol('', targets('main', 'gen/main'));
    addProtocol('protocols/zeta', targets('zeta', 'gen/zeta'));
    addProtocol('protocols/alpha', targets('alpha', 'gen/alpha'));
    writeFileSync(join(root, 'protocols/alpha/protocol.import.json'), '{}\n');
    mkdirSync(join(root, 'protocols/notes'));
    expect(listProtocols(root)).toEqual([
      {
        name: 'main',
        dir: '',
        idlPath: 'protocol.idl.json',
        targetsPath: 'protocol.targets.json',
        importPath: null,
      },
      {
        name: 'alpha',
        dir: 'protocols/alpha',
        idlPath: 'protocols/alpha/protocol.idl.json',
        targetsPath: 'protocols/alpha/protocol.targets.json',
        importPath: 'protocols/alpha/protocol.import.json',
      },
      {
        name: 'zeta',
        dir: 'protocols/zeta',
        idlPath: 'protocols/zeta/protocol.idl.json',
        targetsPath: 'protocols/zeta/protocol.targets.json',
        importPath: null,
      },
    ]);
  });

  it("lists this repository's protocols, the root one named dsh", () => {
    const [first] = listProtocols(REPO);
    expect(first).toMatchObject({ name: 'dsh', idlPath: 'protocol.idl.json' });
  });

  it('refuses an IDL without a targets file beside it, saying what to add', () => {
    mkdirSync(join(root, 'protocols/lonely'), { recursive: true });
    cpSync(fixturePath('minimal'), join(root, 'protocols/lonely/protocol.idl.json'));
    expect(() => listProtocols(root)).toThrow(ProtocolLayoutError);
    expect(() => listProtocols(root)).toThrow(
      /protocols\/lonely\/protocol\.idl\.json has no protocol\.targets\.json beside it/,
    );
  });
});

describe('protocol.targets.json', () => {
  it("reads the repository's root targets", () => {
    const [location] = listProtocols(REPO);
    if (!location) throw new Error('no root protocol');
    const read = readTargets(REPO, location);
    expect(read.typescript?.genDir).toBe('packages/protocol/src/gen');
    expect(read.python?.genPackage).toBe('dsh_sdk._gen');
    expect(read.idlPath).toBe('protocol.idl.json');
  });

  it('points at a name that is not its folder, with line:column and the fix', () => {
    addProtocol('protocols/beta', targets('gamma', 'gen/beta'));
    const [location] = listProtocols(root);
    if (!location) throw new Error('not listed');
    const error = (() => {
      try {
        readTargets(root, location);
      } catch (e) {
        return e;
      }
      return null;
    })();
    expect(error).toBeInstanceOf(IdlError);
    expect((error as IdlError).message).toBe(
      'protocols/beta/protocol.targets.json:2:3 /name: name "gamma" is not the protocol\'s folder name "beta"\n' +
        '  fix: write "name": "beta", or rename the folder protocols/beta',
    );
  });

  it('names an unknown member and a missing one by JSON pointer', () => {
    const content = { ...targets('beta', 'gen/beta'), releases: undefined, outDir: 'x' };
    addProtocol('protocols/beta', content);
    const [location] = listProtocols(root);
    if (!location) throw new Error('not listed');
    expect(() => readTargets(root, location)).toThrow(
      /protocol\.targets\.json:1:1 \/releases: missing required member "releases"[\s\S]*protocol\.targets\.json:19:3 \/outDir: unknown member "outDir"/,
    );
  });

  it('refuses two protocols that generate into the same folder', () => {
    addProtocol('', targets('main', 'gen/shared'));
    addProtocol('protocols/beta', targets('beta', 'gen/shared/beta'));
    expect(() => loadProtocols(root, undefined)).toThrow(
      'protocols main and beta both generate into gen/shared/beta: give each its own folders in its protocol.targets.json',
    );
  });
});

describe('the command line', () => {
  it(
    'names the protocols when --protocol names none of them',
    () => {
      const result = spawnSync(process.execPath, [cli, 'summary', '--protocol', 'nope'], {
        encoding: 'utf8',
      });
      expect(result.status).toBe(2);
      expect(result.stderr).toContain("unknown protocol 'nope' (protocols: dsh");
    },
    budgetMs(30_000),
  );

  it(
    'summarizes one protocol by name',
    () => {
      const result = spawnSync(process.execPath, [cli, 'summary', '--protocol', 'dsh'], {
        encoding: 'utf8',
      });
      expect(result.status).toBe(0);
      expect(result.stdout).toContain('(protocol.idl.json)');
      expect(result.stdout).toMatch(/client → server {2}request {6}initialize/);
      expect(readFileSync(join(REPO, 'protocol.targets.json'), 'utf8')).toContain('"name": "dsh"');
    },
    budgetMs(30_000),
  );
});
