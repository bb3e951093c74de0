// The Python peers of a protocol whose ends both send requests and notifications, with an optional
// method, a union result and `_`-prefixed extension methods (fixtures/peers-both-ways.idl.json):
// what they print, and the two ends run for real, each in its own process over pipes.
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pyPeersEmitter } from '../src/emit/py-peers.js';
import { fixtureContext } from './helpers/fixture-protocol.js';
import { makePythonPeersPackage } from './helpers/python-peers-package.js';
import { block, expectRuffClean } from './helpers/py-output.js';
import { pythonDir, skipWithout, venvPython, venvRuff } from './helpers/python-tools.js';
import { budgetMs } from './helpers/time-budget.js';

const SCRIPTS = fileURLToPath(new URL('./fixtures/peers-both-ways/', import.meta.url));

async function peersLines(): Promise<string[]> {
  const [file] = await pyPeersEmitter.emit(fixtureContext('peers-both-ways'));
  return (file?.content ?? '').split('\n');
}

describe('py-peers on the both-ways fixture', () => {
  it('gives the client end notify coroutines, extension methods and handle_requests', async () => {
    const lines = await peersLines();
    expect(
      block(lines, '    async def notify_cancel(self, params: CancelParams) -> None:'),
    ).toEqual([
      '    async def notify_cancel(self, params: CancelParams) -> None:',
      '        """Sends `session/cancel`. Cancels what the server is doing."""',
      '        await self._transport.notify(Method.CANCEL, encode(params))',
    ]);
    // A family's payloads are any JSON value: sent as they are, after the method's prefix is checked.
    expect(
      block(
        lines,
        '    async def notify_ext_notification(self, method: str, params: ExtParams) -> None:',
      ),
    ).toEqual([
      '    async def notify_ext_notification(self, method: str, params: ExtParams) -> None:',
      '        """Sends `_`…. Any notification whose method starts with `_`."""',
      '        require_family("_", method)',
      '        await self._transport.notify(method, params)',
    ]);
    expect(lines).toContain(
      '    def handle_requests(self, handlers: HarnessSdkClientRequestHandlers) -> Callable[[], None]:',
    );
    expect(
      block(lines, '        routes: dict[str, RequestHandler] = {Method.READ_FILE: on_read_file}'),
    ).toEqual([
      '        routes: dict[str, RequestHandler] = {Method.READ_FILE: on_read_file}',
      '        if implements(handlers, HarnessSdkClientRequestHandlers, "confirm"):',
      '            routes[Method.CONFIRM] = on_confirm',
      '        return register_request_handlers(transport, routes)',
    ]);
  });

  it('gives an optional handler a body answering -32601, and a required one none', async () => {
    const lines = await peersLines();
    expect(lines).toContain('class HarnessSdkClientRequestHandlers(Protocol):');
    expect(
      block(
        lines,
        '    async def confirm(self, params: ConfirmParams, context: RequestContext) -> Answer:',
      ),
    ).toEqual([
      '    async def confirm(self, params: ConfirmParams, context: RequestContext) -> Answer:',
      '        """Asks the client\'s user a question.',
    ]);
    expect(lines).toContain('        raise method_not_found(Method.CONFIRM)');
    expect(
      block(
        lines,
        '    async def read_file(self, params: ReadParams, context: RequestContext) -> ReadResult:',
      ),
    ).toEqual([
      '    async def read_file(self, params: ReadParams, context: RequestContext) -> ReadResult:',
      '        """Reads a file of the client\'s."""',
      '        ...',
    ]);
  });

  it('gives the server peer request coroutines and subscriptions, and decodes a union result', async () => {
    const lines = await peersLines();
    expect(lines).toContain('        self._cancel = NotificationFanout(');
    expect(
      block(
        lines,
        '    async def confirm(self, params: ConfirmParams, *, timeout: float | None = None) -> Answer:',
      ),
    ).toEqual([
      '    async def confirm(self, params: ConfirmParams, *, timeout: float | None = None) -> Answer:',
      '        """Sends `confirm`. Asks the client\'s user a question."""',
      '        result = await self._transport.request(Method.CONFIRM, encode(params), timeout=timeout)',
      '        if self._validate:',
      '            require_valid_result(validate_answer, Method.CONFIRM, result)',
      '        decoded: Answer = decode_result(Answer, Method.CONFIRM, result)',
      '        return decoded',
    ]);
    expect(lines.slice(-6)).toEqual([
      '    return HarnessSdkServerPeer(',
      '        transport,',
      '        register_request_handlers(transport, routes),',
      '        validate=validate,',
      '    )',
      '',
    ]);
  });

  it.skipIf(skipWithout(venvRuff))('is formatted and lint-clean as ruff checks _gen/', async () => {
    expectRuffClean((await peersLines()).join('\n'), 'peers.py');
  });
});

describe.skipIf(skipWithout(venvPython))('the both-ways peers, run over pipes', () => {
  let src = '';
  beforeAll(async () => {
    src = await makePythonPeersPackage('peers-both-ways');
  }, budgetMs(60_000));
  afterAll(() => {
    if (src) rmSync(dirname(src), { recursive: true, force: true });
  });

  it(
    'type-check under mypy --strict, with the scripts that use them',
    () => {
      const scripts = ['client.py', 'server.py'].map((name) => join(SCRIPTS, name));
      const mypy = join(pythonDir, '.venv/bin/mypy');
      const args = ['--strict', '--python-version', '3.10', '--follow-imports=silent'];
      const output = execFileSync(
        mypy,
        [...args, '--cache-dir', join(dirname(src), 'mypy'), 'dsh_sdk/_gen/peers.py', ...scripts],
        { cwd: src, env: { ...process.env, MYPYPATH: src }, encoding: 'utf8' },
      );
      expect(output).toContain('Success: no issues found in 3 source files');
    },
    budgetMs(120_000),
  );

  it(
    'answer a request each way, check params, survive failing handlers and a dead peer',
    () => {
      const wait = budgetMs(5_000) / 1000;
      const output = execFileSync(venvPython, [join(SCRIPTS, 'client.py'), String(wait)], {
        env: { ...process.env, PYTHONPATH: src },
        encoding: 'utf8',
        timeout: budgetMs(60_000),
      });
      const report = JSON.parse(output) as Record<string, unknown>;
      const notFound = (method: string) => ({
        code: -32601,
        message: `Method not found: ${method}`,
        data: null,
      });
      const invalid = (pointer: string, message: string) => ({
        code: -32602,
        message: 'Invalid params',
        data: [{ pointer, message }],
      });
      expect(report).toMatchObject({
        // client → server requests, and a server → client notification sent while answering
        echo: 'hi',
        echoUpdate: 'echoing hi',
        status: true,
        serverLeavesOut: notFound('shutdown'),
        // server → client requests, answered by the client's handlers (a union result decoded)
        serverReads: 'the text of /a.txt',
        serverConfirms: 'Declined: no to Go on?',
        confirmLeftOut: notFound('confirm'),
        // invalid params, each way: -32602 with the violations, before any handler runs
        invalidParams: invalid('/text', 'must NOT have fewer than 1 characters'),
        wrongParams: invalid('/text', 'must be string'),
        serverSendsInvalid: invalid('/path', 'must be string'),
        // a handler that raises, each way: an error answer
        failingHandler: { code: -32603, message: 'the echo handler failed on purpose' },
        clientHandlerRaises: { code: -32603, message: '/missing' },
        // client → server notifications, typed and as an extension
        cancelUpdate: 'cancelled: user',
        extNotification: '{"n": 1}',
        extMethod: 6,
        extUnknownToClient: notFound('_demo/sum'),
        diagnostics: [],
      });
      expect(report['extNotOfFamily']).toEqual({
        refused: "'demo/sum' is not a method of the family '_'…: it must start with it",
      });
      // The server killed with two requests pending: both fail at once, not at a timeout.
      const dead = report['deadPeer'] as { failures: string[]; seconds: number };
      expect(dead.failures).toEqual([
        'TransportClosedError: input-ended',
        'TransportClosedError: input-ended',
      ]);
      expect(dead.seconds).toBeLessThan(budgetMs(1_000) / 1000);
    },
    budgetMs(60_000),
  );
});
