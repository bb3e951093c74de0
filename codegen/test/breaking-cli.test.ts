// `idl-gen release` and `idl-gen breaking` run as CI runs them, on a scratch repository.
import { spawnSync } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256 } from '../src/release/released-files.js';

const cli = new URL('../bin/idl-gen.mjs', import.meta.url).pathname;
const fixture = new URL('./fixtures/compat-base.idl.json', import.meta.url).pathname;
let root = '';
let idl = '';
let baseText = '';
let firstRelease: ReturnType<typeof run>;

// Each run spawns the CLI, which samples thousands of messages: about 2 s alone, several times that
// on a loaded machine. A guard against a hang, not a speed check.
const CLI_TIMEOUT = 120_000;

function run(...args: string[]) {
  const result = spawnSync(process.execPath, [cli, ...args], { cwd: root, encoding: 'utf8' });
  return { code: result.status, out: result.stdout, err: result.stderr };
}

interface Raw {
  meta: { protocolVersion: number };
  types: Record<
    string,
    { required: string[]; properties: Record<string, Record<string, unknown>> }
  >;
}

/** Writes the scratch IDL with one edit applied to its JSON; returns the text. */
function writeIdl(edit: (raw: Raw) => void = () => {}): string {
  const raw = JSON.parse(baseText) as Raw;
  edit(raw);
  const text = `${JSON.stringify(raw, null, 2)}\n`;
  writeFileSync(idl, text);
  return text;
}

/** A break that keeps the IDL valid (its examples order 1 or 2): fewer items per order. */
const tighten = (r: Raw) => {
  const quantity = r.types['OrderParams']?.properties['quantity'];
  if (quantity) quantity['maximum'] = 2;
};

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'idl-breaking-'));
  idl = join(root, 'protocol.idl.json');
  const raw = JSON.parse(readFileSync(fixture, 'utf8')) as Record<string, unknown>;
  baseText = `${JSON.stringify({ $schema: './codegen/idl.schema.json', ...raw }, null, 2)}\n`;
  writeFileSync(idl, baseText);
  // A protocol without generated targets: releases and the breaking check need nothing more.
  const targets = {
    name: 'scratch',
    schemaId: 'https://dsh-sdk.dev/scratch.schema.json',
    bindings: { prefix: 'Scratch', sides: { client: 'client', server: 'server' } },
    releases: { dir: 'protocol/released', allowList: 'protocol/breaking-allow.json' },
  };
  writeFileSync(join(root, 'protocol.targets.json'), `${JSON.stringify(targets, null, 2)}\n`);
  firstRelease = run('release', '--root', root);
}, CLI_TIMEOUT);

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('idl-gen release', () => {
  it(
    'freezes the IDL as its protocol version, once',
    () => {
      expect(firstRelease.code, firstRelease.err).toBe(0);
      expect(firstRelease.out).toMatch(
        /froze protocol version 1 as protocol\/released\/1\.idl\.json/,
      );
      const released = readFileSync(join(root, 'protocol/released/1.idl.json'), 'utf8');
      expect(released).toBe(
        baseText.replace('"./codegen/idl.schema.json"', '"../../codegen/idl.schema.json"'),
      );
      expect(readFileSync(join(root, 'protocol/released/SHA256SUMS'), 'utf8')).toBe(
        `${sha256(released)}  1.idl.json\n`,
      );
      const again = run('release', '--root', root);
      expect(again.code).toBe(1);
      expect(again.err).toMatch(
        /protocol version 1 is not above the latest release \(1\): raise \/meta\/protocolVersion to 2/,
      );
    },
    CLI_TIMEOUT,
  );

  it(
    'refuses a version that breaks an earlier release, and writes nothing',
    () => {
      writeIdl((r) => {
        r.meta.protocolVersion = 2;
        tighten(r);
      });
      const result = run('release', '--root', root);
      writeIdl();
      expect(result.code).toBe(1);
      expect(result.err).toMatch(/BREAKING constraint-tightened \(breaks old clients\)/);
      expect(result.err).toMatch(/release: refused/);
      expect(existsSync(join(root, 'protocol/released/2.idl.json'))).toBe(false);
    },
    CLI_TIMEOUT,
  );
});

describe('idl-gen breaking against the released versions', () => {
  it(
    'passes when nothing breaks, printing the allow-list',
    () => {
      const result = run('breaking', '--root', root);
      expect(result.code, result.out + result.err).toBe(0);
      expect(result.out).toMatch(/released: protocol\/released\/1\.idl\.json/);
      expect(result.out).toMatch(/allow-list: protocol\/breaking-allow\.json, no entries/);
      expect(result.out).toMatch(/semantic cross-check: \d+ samples/);
      expect(result.out).toMatch(/breaking: ok, nothing breaks peers of protocol version 1/);
    },
    CLI_TIMEOUT,
  );

  it(
    'names the rule, the side, both places, why and the fix; exits 1',
    () => {
      const edited = `\n\n${writeIdl(tighten)}`; // shifted, so the two files' lines differ
      writeFileSync(idl, edited);
      const text = run('breaking', '--root', root);
      const json = run('breaking', '--root', root, '--json');
      writeIdl();
      expect(text.code).toBe(1);
      const released = readFileSync(join(root, 'protocol/released/1.idl.json'), 'utf8');
      const where = (source: string) => {
        const before = source.slice(0, source.indexOf('"maximum"'));
        return {
          line: before.split('\n').length,
          column: before.length - before.lastIndexOf('\n'),
        };
      };
      expect(where(edited).line).not.toBe(where(released).line);
      const at = '/types/OrderParams/properties/quantity/maximum';
      expect(text.out).toContain('BREAKING constraint-tightened (breaks old clients)');
      const [n, o] = [where(edited), where(released)];
      expect(text.out).toContain(`new: protocol.idl.json:${n.line}:${n.column} ${at}`);
      expect(text.out).toContain(`old: protocol/released/1.idl.json:${o.line}:${o.column} ${at}`);
      expect(text.out).toMatch(
        /why: upper bound maximum 100 → maximum 2: old clients may still send what the old version allows in order params, which new runtimes reject\./,
      );
      expect(text.out).toMatch(/fix: keep accepting what the old constraint allowed/);
      expect(text.out).toMatch(/breaking: FAILED, 1 breaking change\(s\)/);
      expect(json.code).toBe(1);
      const report = JSON.parse(json.out) as {
        ok: boolean;
        comparisons: { findings: Record<string, unknown>[] }[];
      };
      expect(report.ok).toBe(false);
      expect(report.comparisons[0]?.findings[0]).toMatchObject({
        rule: 'constraint-tightened',
        severity: 'breaking',
        breaks: ['old clients'],
        new: { file: 'protocol.idl.json', pointer: at, ...n },
        old: { file: 'protocol/released/1.idl.json', pointer: at, ...o },
        via: ['order params'],
        allowedBy: null,
      });
    },
    CLI_TIMEOUT,
  );

  it(
    'lets a deliberate break through the allow-list, and fails on an entry that allows nothing',
    () => {
      const entry = {
        against: 1,
        rule: 'constraint-tightened',
        pointer: '/types/OrderParams/properties/quantity/maximum',
        reason: 'No client ever ordered more than two.',
      };
      writeFileSync(join(root, 'protocol/breaking-allow.json'), JSON.stringify({ allow: [entry] }));
      writeIdl(tighten);
      const allowed = run('breaking', '--root', root);
      writeIdl();
      const stale = run('breaking', '--root', root);
      rmSync(join(root, 'protocol/breaking-allow.json'));
      expect(allowed.code, allowed.out).toBe(0);
      expect(allowed.out).toContain(
        `against 1: constraint-tightened at ${entry.pointer} — ${entry.reason}`,
      );
      expect(allowed.out).toContain('ALLOWED  constraint-tightened');
      expect(allowed.out).toContain(`allowed: ${entry.reason}`);
      expect(stale.code).toBe(1);
      expect(stale.out).toContain(
        `allow-list entry allows nothing (against 1, constraint-tightened at ${entry.pointer})`,
      );
    },
    CLI_TIMEOUT,
  );

  it(
    'rejects an allow-list entry without a reason, at its line',
    () => {
      writeFileSync(
        join(root, 'protocol/breaking-allow.json'),
        '{\n  "allow": [\n    { "against": 1, "rule": "constraint-tightened", "pointer": "/x" }\n  ]\n}\n',
      );
      const result = run('breaking', '--root', root);
      rmSync(join(root, 'protocol/breaking-allow.json'));
      expect(result.code).toBe(1);
      expect(result.err).toMatch(
        /protocol\/breaking-allow\.json:3:5 \/allow\/0: an entry needs a "reason"\n {2}fix: /,
      );
    },
    CLI_TIMEOUT,
  );

  it(
    'fails when a released file changed',
    () => {
      const path = join(root, 'protocol/released/1.idl.json');
      const original = readFileSync(path, 'utf8');
      appendFileSync(path, '\n');
      const result = run('breaking', '--root', root);
      writeFileSync(path, original);
      expect(result.code).toBe(1);
      expect(result.out).toMatch(/protocol\/released\/1\.idl\.json: changed after it was released/);
      expect(result.out).toMatch(/fix: restore it/);
    },
    CLI_TIMEOUT,
  );

  it(
    'fails when a released file no longer loads with the current loader',
    () => {
      const path = join(root, 'protocol/released/1.idl.json');
      const sums = join(root, 'protocol/released/SHA256SUMS');
      const [original, originalSums] = [readFileSync(path, 'utf8'), readFileSync(sums, 'utf8')];
      const drifted = original.replace('"meta": {', '"meta": {\n    "retired": true,');
      writeFileSync(path, drifted);
      writeFileSync(sums, `${sha256(drifted)}  1.idl.json\n`);
      const result = run('breaking', '--root', root);
      writeFileSync(path, original);
      writeFileSync(sums, originalSums);
      expect(result.code).toBe(1);
      expect(result.out).toMatch(
        /protocol\/released\/1\.idl\.json: no longer loads with the current loader/,
      );
      expect(result.out).toMatch(/unknown member "retired"/);
      expect(result.out).toMatch(/fix: the IDL format may only evolve additively/);
    },
    CLI_TIMEOUT,
  );
});

describe('idl-gen breaking --against OLD --idl NEW', () => {
  it(
    'compares any two files, in either order',
    () => {
      const copy = join(root, 'tighter.idl.json');
      cpSync(idl, copy);
      const tighter = writeIdl((r) => {
        const quantity = r.types['OrderParams']?.properties['quantity'];
        if (quantity) quantity['maximum'] = 10;
      });
      writeIdl();
      writeFileSync(copy, tighter);
      const breaks = run('breaking', '--against', 'protocol.idl.json', '--idl', 'tighter.idl.json');
      const fine = run('breaking', '--against', 'tighter.idl.json', '--idl', 'protocol.idl.json');
      expect(breaks.code).toBe(1);
      expect(breaks.out).toMatch(
        /BREAKING constraint-tightened \(breaks old clients\)\n {4}new: tighter\.idl\.json:\d+:\d+ \/types\/OrderParams\/properties\/quantity\/maximum/,
      );
      expect(fine.code, fine.out).toBe(0);
      expect(fine.out).toMatch(/compatible {2}constraint-loosened/);
    },
    CLI_TIMEOUT,
  );
});

describe('the command line', () => {
  it.each(['generate', 'summary', 'release', 'breaking'])(
    '%s --help prints its usage',
    (command) => {
      const result = run(command, '--help');
      expect(result.code).toBe(0);
      expect(result.out).toMatch(new RegExp(`^Usage: idl-gen ${command}`));
    },
    30_000,
  );

  it(
    'names an unknown option, an unknown command and a missing one',
    () => {
      const option = run('breaking', '--agains', 'x');
      expect(option.code).toBe(2);
      expect(option.err).toBe(
        "idl-gen breaking: unknown option '--agains'\nRun `idl-gen breaking --help` for usage.\n",
      );
      const command = run('breakin');
      expect(command.code).toBe(2);
      expect(command.err).toMatch(
        /unknown command 'breakin' \(commands: generate, summary, release, breaking, import, quick\)/,
      );
      expect(run().err).toMatch(/missing command/);
    },
    CLI_TIMEOUT,
  );
});
