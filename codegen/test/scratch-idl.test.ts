// Adding a method or a notification to the IDL needs no hand edit outside the code that implements
// its behaviour: on a scratch copy of the sources, an IDL with one new notification and one new
// request is regenerated, then both languages are type-checked. The notification needs nothing;
// the only errors are the reference runtimes' missing handler for the request.
import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { budgetMs } from './helpers/time-budget.js';

const run = promisify(execFile);
const REPO = fileURLToPath(new URL('../..', import.meta.url));
const COPIED = [
  'package.json',
  'protocol.targets.json',
  '.prettierrc.json',
  'tsconfig.base.json',
  'protocol/released',
  'packages/protocol/src',
  'packages/client/src',
  'packages/runtime/src',
  'python/pyproject.toml',
  'python/src',
];

/** The real IDL plus `session.note` (server → client) and `session/ping` (client → server). */
function extendedIdl(): string {
  const idl = JSON.parse(readFileSync(join(REPO, 'protocol.idl.json'), 'utf8')) as {
    methods: object[];
    types: Record<string, object>;
  };
  idl.methods.push(
    {
      name: 'sessionPing',
      method: 'session/ping',
      direction: 'clientToServer',
      kind: 'request',
      params: 'SessionPingParams',
      result: 'SessionPingResult',
      errors: ['invalidParams'],
      description: 'A request added by the scratch test.',
    },
    {
      name: 'sessionNote',
      method: 'session.note',
      direction: 'serverToClient',
      kind: 'notification',
      params: 'SessionNoteNotification',
      description: 'A notification added by the scratch test.',
    },
  );
  const sessionObject = (description: string) => ({
    type: 'object',
    description,
    required: ['sessionId'],
    properties: { sessionId: { $ref: '#/definitions/SessionId', description: 'The session.' } },
    examples: [{ sessionId: 's-1' }],
  });
  idl.types['SessionPingParams'] = sessionObject('Params of the scratch request.');
  idl.types['SessionPingResult'] = sessionObject('Result of the scratch request.');
  idl.types['SessionNoteNotification'] = sessionObject('Params of the scratch notification.');
  return `${JSON.stringify(idl, null, 2)}\n`;
}

/** Runs a command; resolves with its output whether it succeeds or fails. */
async function outputOf(command: string, args: readonly string[], cwd: string): Promise<string> {
  try {
    const { stdout, stderr } = await run(command, args, { cwd, maxBuffer: 16 * 1024 * 1024 });
    return stdout + stderr;
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    return stdout + stderr;
  }
}

let scratch: string;

beforeAll(async () => {
  scratch = mkdtempSync(join(tmpdir(), 'dsh-scratch-idl-'));
  for (const path of COPIED) cpSync(join(REPO, path), join(scratch, path), { recursive: true });
  writeFileSync(join(scratch, 'protocol.idl.json'), extendedIdl());
  const idlGen = join(REPO, 'codegen/bin/idl-gen.mjs');
  const idl = join(scratch, 'protocol.idl.json');
  await run(process.execPath, [idlGen, 'generate', '--idl', idl, '--root', scratch], { cwd: REPO });
  // One program over the three packages, each importing the others by name, as in the workspace.
  const tsconfig = {
    extends: './tsconfig.base.json',
    compilerOptions: {
      noEmit: true,
      baseUrl: '.',
      typeRoots: [join(REPO, 'node_modules/@types')],
      paths: {
        '@dsh-sdk/protocol': ['packages/protocol/src/index.ts'],
        '@dsh-sdk/runtime': ['packages/runtime/src/index.ts'],
      },
    },
    include: ['packages/*/src'],
  };
  writeFileSync(join(scratch, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2));
}, budgetMs(120_000));

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('a scratch IDL with a new notification and a new request', () => {
  test(
    'TypeScript: the only errors are the runtime missing the new handler',
    async () => {
      const tsc = join(REPO, 'node_modules/.bin/tsc');
      const errors = (await outputOf(tsc, ['-p', 'tsconfig.json'], scratch))
        .split('\n')
        .filter((line) => /error TS\d+/.test(line));
      expect(errors.length).toBeGreaterThan(0);
      for (const error of errors) {
        expect(error).toMatch(/^packages\/runtime\/src\//);
        expect(error).toMatch(/sessionPing|HarnessSdkRequestHandlers/);
      }
    },
    budgetMs(120_000),
  );

  test(
    'Python: mypy --strict finds only the runtime missing the new handler',
    async () => {
      const mypy = join(REPO, 'python/.venv/bin/mypy');
      const args = ['--strict', '--cache-dir', '.mypy_cache', 'src/dsh_sdk'];
      const errors = (await outputOf(mypy, args, join(scratch, 'python')))
        .split('\n')
        .filter((line) => line.includes(': error:'));
      expect(errors.length).toBeGreaterThan(0);
      for (const error of errors) {
        expect(error).toMatch(/^src\/dsh_sdk\/runtime\//);
        expect(error).toMatch(/session_ping|HarnessSdkRequestHandlers/);
      }
    },
    budgetMs(180_000),
  );

  test(
    'TypeScript: the client hub delivers it and the runtime notifier can send it',
    async () => {
      writeFileSync(join(scratch, 'check-note.ts'), TS_CHECK);
      const tsx = join(REPO, 'codegen/node_modules/tsx/dist/cli.mjs');
      const output = await outputOf(process.execPath, [tsx, 'check-note.ts'], scratch);
      expect(JSON.parse(output)).toEqual({
        seen: ['session.note'],
        diagnostics: [],
        canSend: true,
      });
    },
    budgetMs(60_000),
  );

  test(
    'Python: the client hub delivers it and the runtime notifier can send it',
    async () => {
      writeFileSync(join(scratch, 'check_note.py'), PY_CHECK);
      const python = join(REPO, 'python/.venv/bin/python');
      const output = await outputOf(python, ['check_note.py'], scratch);
      expect(JSON.parse(output)).toEqual({
        seen: ['session.note'],
        diagnostics: [],
        canSend: true,
      });
    },
    budgetMs(60_000),
  );
});

const NOTE = JSON.stringify({
  jsonrpc: '2.0',
  method: 'session.note',
  params: { sessionId: 's-1' },
});

/** Feeds `session.note` to the scratch client's hub over in-memory streams. */
const TS_CHECK = `import { PassThrough } from 'node:stream';
import { HarnessSdkClientPeer, JsonRpcLineTransport } from '@dsh-sdk/protocol';
import { NotificationHub } from './packages/client/src/notifications.js';
import { NotifierGate } from './packages/runtime/src/notifier.js';

const input = new PassThrough();
const diagnostics: string[] = [];
const transport = new JsonRpcLineTransport({
  input,
  output: new PassThrough(),
  onDiagnostic: (d) => diagnostics.push(d.reason),
});
const hub = new NotificationHub(new HarnessSdkClientPeer(transport), transport);
const seen: string[] = [];
hub.subscribe((notification) => seen.push(notification.method));
transport.start();
input.write(${JSON.stringify(NOTE)} + '\\n');
const canSend = typeof new NotifierGate().notifySessionNote === 'function';
setImmediate(() => console.log(JSON.stringify({ seen, diagnostics, canSend })));
`;

/** The same, for the scratch Python package (first on sys.path). */
const PY_CHECK = `import asyncio, json, sys
sys.path.insert(0, "python/src")
from dsh_sdk._gen.peers import HarnessSdkClientPeer
from dsh_sdk.client.notifications import NotificationHub
from dsh_sdk.runtime.notifier import NotifierGate
from dsh_sdk.transport import JsonRpcLineTransport


class Output:
    def write(self, data): pass
    async def drain(self): pass


async def main():
    reader = asyncio.StreamReader()
    diagnostics = []
    transport = JsonRpcLineTransport(reader, Output(), on_diagnostic=lambda d: diagnostics.append(d.reason))
    hub = NotificationHub(HarnessSdkClientPeer(transport), transport)
    seen = []
    hub.subscribe(lambda notification: seen.append(notification.method))
    transport.start()
    reader.feed_data(${JSON.stringify(NOTE)}.encode() + b"\\n")
    for _ in range(20):
        await asyncio.sleep(0)
    can_send = callable(getattr(NotifierGate(), "notify_session_note", None))
    print(json.dumps({"seen": seen, "diagnostics": diagnostics, "canSend": can_send}))


asyncio.run(main())
`;
