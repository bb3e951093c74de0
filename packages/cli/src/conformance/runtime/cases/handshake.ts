// The handshake: stdout before the first request, initialize and its refusals, shutdown and the
// end of stdin.
import { ErrorCode, SERVER_NAME } from '@dsh-sdk/protocol';
import type { RuntimeCaseContext } from '../case-context.js';
import { describeAnswer, errorOf, violationPointers } from '../case-context.js';
import type { RuntimeCase } from '../case.js';
import type { JsonObject } from '../server-line.js';
import { SHORT_PROMPT, concerns, sleep, textPrompt } from '../turns.js';
import type { Answer, RuntimeWire } from '../wire.js';

const isError = (answer: Answer, code: number): boolean => errorOf(answer)?.['code'] === code;

/** `shutdown` (with `params` as given) answered `{}`, then an exit 0 with stdin still open. */
export async function checkShutdown(
  ctx: RuntimeCaseContext,
  wire: RuntimeWire,
  params?: unknown,
): Promise<void> {
  const shown = params === undefined ? 'absent' : JSON.stringify(params);
  const answer = await wire.request('shutdown', params);
  const result = answer['result'];
  ctx.check(
    'DSH-SHUTDOWN-001',
    typeof result === 'object' && result !== null && Object.keys(result).length === 0,
    `shutdown with params ${shown} was answered ${describeAnswer(answer)}, not {}`,
  );
  const answerLine = wire.lines.find((l) => l.message === answer);
  const exit = await wire.waitExit(ctx.bound());
  if (!exit)
    ctx.fail(
      'DSH-SHUTDOWN-002',
      `still running ${ctx.bound() / 1000} s after answering shutdown (stdin open)`,
    );
  else
    ctx.check(
      'DSH-SHUTDOWN-002',
      exit.code === 0,
      `exited with code ${exit.code} (signal ${exit.signal}) after shutdown, not 0`,
    );
  await wire.outputEnded;
  const later = wire.after(answerLine);
  ctx.check(
    'DSH-SHUTDOWN-005',
    later.length === 0,
    `${later.length} line(s) followed the answer to shutdown`,
  );
}

/** The end of stdin makes the runtime exit 0. */
export async function checkEndOfInput(
  ctx: RuntimeCaseContext,
  wire: RuntimeWire,
  when: string,
): Promise<void> {
  wire.closeStdin();
  const exit = await wire.waitExit(ctx.bound());
  if (!exit)
    ctx.fail('DSH-SHUTDOWN-004', `still running ${ctx.bound() / 1000} s after stdin ended ${when}`);
  else
    ctx.check(
      'DSH-SHUTDOWN-004',
      exit.code === 0,
      `exited with code ${exit.code} (signal ${exit.signal}) after stdin ended ${when}, not 0`,
    );
}

export const HANDSHAKE_CASES: readonly RuntimeCase[] = [
  {
    id: 'init.handshake',
    title:
      'nothing before the first request; initialize without a version; the version 2 methods served anyway; shutdown with absent params',
    requirements: [
      'DSH-STDOUT-001',
      'DSH-INIT-001',
      'DSH-VERSION-001',
      'DSH-VERSION-006',
      'DSH-SHUTDOWN-001',
      'DSH-SHUTDOWN-002',
      'DSH-SHUTDOWN-005',
    ],
    async run(ctx) {
      const wire = await ctx.start();
      await sleep(Math.min(500, ctx.bound() / 10));
      ctx.check(
        'DSH-STDOUT-001',
        wire.earlyOutput === 0,
        `wrote ${wire.earlyOutput} bytes to stdout before any request`,
      );
      const result = await ctx.initialize(wire);
      const info = result['serverInfo'] as JsonObject | undefined;
      ctx.check(
        'DSH-INIT-001',
        info?.['name'] === SERVER_NAME && typeof info['version'] === 'string',
        `serverInfo is ${JSON.stringify(info)}, not {name: "${SERVER_NAME}", version: <string>}`,
      );
      ctx.check(
        'DSH-VERSION-001',
        Object.keys(result).join() === 'serverInfo',
        `initialize without protocolVersion was answered ${JSON.stringify(result)}, not exactly {serverInfo}`,
      );
      if (ctx.applies('DSH-VERSION-006')) {
        const interrupt = await wire.request('session/interrupt', {
          sessionId: 'conformance-unknown',
        });
        ctx.check(
          'DSH-VERSION-006',
          JSON.stringify(interrupt['result']) === '{"found":false,"wasRunning":false}',
          `session/interrupt after a version 1 handshake was answered ${describeAnswer(interrupt)}`,
        );
        if (ctx.hasCapability('sessionClose')) {
          const close = await wire.request('session/close', { sessionId: 'conformance-unknown' });
          ctx.check(
            'DSH-VERSION-006',
            JSON.stringify(close['result']) === '{"found":false}',
            `session/close after a version 1 handshake was answered ${describeAnswer(close)}`,
          );
        }
      }
      await checkShutdown(ctx, wire);
    },
  },
  {
    id: 'init.before-initialize',
    title:
      'requests before the handshake: -32002 for the session methods, -32601 for an unknown one; nothing starts; the end of stdin after the handshake',
    requirements: [
      'DSH-INIT-002',
      'DSH-INTERRUPT-008',
      'DSH-CLOSE-006',
      'DSH-ERR-001',
      'DSH-SHUTDOWN-004',
    ],
    async run(ctx) {
      const wire = await ctx.start();
      const prompt = await wire.request(
        'session/prompt',
        textPrompt('conformance-early', SHORT_PROMPT),
      );
      ctx.check(
        'DSH-INIT-002',
        isError(prompt, ErrorCode.NotInitialized),
        `session/prompt before initialize was answered ${describeAnswer(prompt)}, not -32002`,
      );
      for (const [method, requirement] of [
        ['session/interrupt', 'DSH-INTERRUPT-008'],
        ['session/close', 'DSH-CLOSE-006'],
      ] as const) {
        if (!ctx.applies(requirement)) continue;
        const answer = await wire.request(method, { sessionId: 'conformance-early' });
        ctx.check(
          requirement,
          isError(answer, ErrorCode.NotInitialized),
          `${method} before initialize was answered ${describeAnswer(answer)}, not -32002`,
        );
      }
      const early = await wire.request('conformance/no-such-method', {});
      ctx.check(
        'DSH-ERR-001',
        isError(early, ErrorCode.MethodNotFound),
        `an unknown method before initialize was answered ${describeAnswer(early)}, not -32601`,
      );
      await ctx.initialize(wire);
      const late = await wire.request(
        'conformance/no-such-method',
        { x: 1 },
        'conformance-string-id',
      );
      ctx.check(
        'DSH-ERR-001',
        isError(late, ErrorCode.MethodNotFound),
        `an unknown method after initialize was answered ${describeAnswer(late)}, not -32601`,
      );
      const started = wire.lines.filter((line) => concerns(line, 'conformance-early'));
      ctx.check(
        'DSH-INIT-002',
        started.length === 0,
        `the refused prompt started its session anyway: ${started.length} notification(s) for it`,
      );
      await checkEndOfInput(ctx, wire, 'after the handshake');
    },
  },
  {
    id: 'init.second-initialize',
    title:
      'a second initialize is refused -32600; shutdown with {} params, and a request right behind it',
    requirements: ['DSH-INIT-003', 'DSH-SHUTDOWN-001', 'DSH-SHUTDOWN-002', 'DSH-SHUTDOWN-003'],
    async run(ctx) {
      const wire = await ctx.startInitialized();
      const again = await wire.request('initialize', ctx.initializeParams());
      ctx.check(
        'DSH-INIT-003',
        isError(again, ErrorCode.InvalidRequest),
        `a second initialize was answered ${describeAnswer(again)}, not -32600`,
      );
      const shutdownId = wire.nextId();
      const lateId = wire.nextId();
      wire.expectAnswer(shutdownId, 'shutdown');
      wire.expectAnswer(lateId, 'session/prompt');
      wire.writeRaw(
        `${JSON.stringify({ jsonrpc: '2.0', id: shutdownId, method: 'shutdown', params: {} })}\n` +
          `${JSON.stringify({ jsonrpc: '2.0', id: lateId, method: 'session/prompt', params: textPrompt('conformance-late', SHORT_PROMPT) })}\n`,
      );
      const answer = await wire.answerTo(shutdownId, 'shutdown');
      ctx.check(
        'DSH-SHUTDOWN-001',
        JSON.stringify(answer['result']) === '{}',
        `shutdown with {} was answered ${describeAnswer(answer)}`,
      );
      const exit = await wire.waitExit(ctx.bound());
      ctx.check(
        'DSH-SHUTDOWN-002',
        exit?.code === 0,
        exit ? `exited with code ${exit.code} after shutdown` : 'did not exit after shutdown',
      );
      await wire.outputEnded;
      const late = wire.lines.find((l) => l.kind === 'response' && l.message?.['id'] === lateId);
      if (!late) wire.monitor.forget(lateId);
      const refused =
        late === undefined || isError(late.message as Answer, ErrorCode.InvalidRequest);
      ctx.check(
        'DSH-SHUTDOWN-003',
        refused,
        `a request after shutdown was answered ${late ? describeAnswer(late.message as Answer) : ''}, not -32600`,
      );
      const ran = wire.lines.filter((line) => concerns(line, 'conformance-late'));
      ctx.check(
        'DSH-SHUTDOWN-003',
        ran.length === 0,
        `a prompt sent after shutdown ran: ${ran.length} notification(s) for it`,
      );
    },
  },
  {
    id: 'init.route-refused',
    title:
      'an unknown provider, model and effort each fail the handshake at their member; a valid initialize then succeeds; shutdown with null params',
    requirements: [
      'DSH-INIT-005',
      'DSH-INIT-002',
      'DSH-INIT-004',
      'DSH-SHUTDOWN-001',
      'DSH-SHUTDOWN-002',
    ],
    async run(ctx) {
      const wire = await ctx.start();
      const bad: [string, JsonObject][] = [
        ['/provider', { provider: 'conformance-no-such-provider' }],
        ['/model', { model: 'conformance-no-such-model' }],
        ['/reasoningEffort', { reasoningEffort: 'conformance-no-such-effort' }],
      ];
      for (const [pointer, change] of bad) {
        const answer = await wire.request('initialize', { ...ctx.initializeParams(), ...change });
        const named =
          isError(answer, ErrorCode.InvalidParams) && violationPointers(answer).includes(pointer);
        ctx.check(
          'DSH-INIT-005',
          named,
          `initialize with ${JSON.stringify(change)} was answered ${describeAnswer(answer)}, not -32602 naming ${pointer}`,
        );
        const prompt = await wire.request(
          'session/prompt',
          textPrompt('conformance-no-route', SHORT_PROMPT),
        );
        ctx.check(
          'DSH-INIT-002',
          isError(prompt, ErrorCode.NotInitialized),
          `after a refused initialize, session/prompt was answered ${describeAnswer(prompt)}, not -32002`,
        );
      }
      const retry = await wire.request('initialize', ctx.initializeParams());
      ctx.check(
        'DSH-INIT-004',
        retry['result'] !== undefined,
        `a valid initialize after refused ones was answered ${describeAnswer(retry)}`,
      );
      await checkShutdown(ctx, wire, null);
    },
  },
  {
    id: 'shutdown.end-of-input',
    title: 'stdin ending before the handshake makes the runtime exit 0',
    requirements: ['DSH-SHUTDOWN-004'],
    async run(ctx) {
      const wire = await ctx.start();
      await checkEndOfInput(ctx, wire, 'before the handshake');
    },
  },
];
