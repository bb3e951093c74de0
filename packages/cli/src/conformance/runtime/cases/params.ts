// One case per request method with params: every refusal instance must be answered `-32602`
// naming its pointers before anything runs, every acceptance instance must be answered with a
// result. Derived from the IDL and the golden vectors (params-instances.ts).
import { ErrorCode, METHODS, capabilityGuarding } from '@dsh-sdk/protocol';
import type { RuntimeCaseContext } from '../case-context.js';
import { describeAnswer, errorOf, violationPointers } from '../case-context.js';
import type { RuntimeCase } from '../case.js';
import { acceptancesOf, refusalsOf } from '../params-instances.js';
import type { Refusal } from '../params-instances.js';
import { isObject } from '../server-line.js';
import type { JsonObject } from '../server-line.js';
import { concerns } from '../turns.js';
import type { Answer, RuntimeWire } from '../wire.js';

/** The requirement a refusal of `method` at `pointers` tests. */
function refusalRequirement(method: string, pointers: readonly string[]): string {
  if (pointers.some((p) => p === '/protocolVersion' || p.startsWith('/protocolVersion/')))
    return 'DSH-VERSION-004';
  if (method === 'session/interrupt') return 'DSH-INTERRUPT-007';
  if (method === 'session/close') return 'DSH-CLOSE-006';
  return 'DSH-PARAMS-001';
}

/** Whether one of `named` is `pointer` (exact) or, short of that, a non-root ancestor of it. */
function naming(named: readonly string[], pointer: string): 'exact' | 'ancestor' | 'none' {
  if (pointer === '' && named.length > 0) return 'exact';
  if (named.includes(pointer)) return 'exact';
  return named.some((p) => p !== '' && pointer.startsWith(`${p}/`)) ? 'ancestor' : 'none';
}

/** Gives each prompt its own session, so a handler that ran shows up as that session's events. */
function ownSession(params: unknown, index: number, pointers: readonly string[]): unknown {
  if (
    !isObject(params) ||
    typeof params['sessionId'] !== 'string' ||
    pointers.includes('/sessionId')
  )
    return params;
  return { ...params, sessionId: `conformance-refused-${index}` };
}

/** A request with its params written exactly as given. */
async function sendRaw(wire: RuntimeWire, method: string, rawParams: string): Promise<Answer> {
  const id = wire.nextId();
  wire.expectAnswer(id, method);
  wire.writeRaw(
    `{"jsonrpc":"2.0","id":${id},"method":${JSON.stringify(method)},"params":${rawParams}}\n`,
  );
  return wire.answerTo(id, `${method} (id ${id})`);
}

async function sendRefusals(
  ctx: RuntimeCaseContext,
  wire: RuntimeWire,
  method: string,
  refusals: readonly Refusal[],
): Promise<string[]> {
  const sessions: string[] = [];
  for (const [index, refusal] of refusals.entries()) {
    const requirement = refusalRequirement(method, refusal.pointers);
    const isRaw = refusal.raw !== undefined;
    const params =
      method === 'session/prompt' && !isRaw
        ? ownSession(refusal.params, index, refusal.pointers)
        : refusal.params;
    if (params !== refusal.params && isObject(params)) sessions.push(String(params['sessionId']));
    const answer = isRaw
      ? await sendRaw(wire, method, refusal.raw!)
      : await wire.request(method, params);
    if (errorOf(answer)?.['code'] !== ErrorCode.InvalidParams) {
      ctx.fail(
        requirement,
        `${method} ${refusal.label}: answered ${describeAnswer(answer)}, not -32602 (params ${JSON.stringify(params)?.slice(0, 200)})`,
      );
      continue;
    }
    const named = violationPointers(answer);
    for (const pointer of refusal.pointers) {
      const how = naming(named, pointer);
      if (how === 'none')
        ctx.fail(
          requirement,
          `${method} ${refusal.label}: -32602 does not name ${pointer || 'the params'} (it names ${JSON.stringify(named)})`,
        );
      else ctx.pass(requirement);
      if (how === 'ancestor')
        ctx.fail(
          'DSH-ERR-003',
          `${method} ${refusal.label}: names ${JSON.stringify(named)}, an ancestor of ${pointer}`,
        );
      else if (how === 'exact') ctx.pass('DSH-ERR-003');
    }
  }
  return sessions;
}

async function sendAcceptances(
  ctx: RuntimeCaseContext,
  wire: RuntimeWire,
  method: string,
): Promise<void> {
  for (const acceptance of acceptancesOf(method)) {
    const answer = await wire.request(method, acceptance.params);
    ctx.check(
      'DSH-PARAMS-002',
      answer['result'] !== undefined,
      `${method} ${acceptance.label}: valid params were answered ${describeAnswer(answer)}`,
    );
  }
}

/** The last `initialize`: an unknown member and an integral `4096.0`, written as such. */
async function finalInitialize(ctx: RuntimeCaseContext, wire: RuntimeWire): Promise<void> {
  const params = JSON.stringify({
    ...ctx.initializeParams(ctx.runtimeVersion >= 2 ? ctx.runtimeVersion : undefined),
    'x-conformance-unknown': { nested: [1, 'two'] },
  });
  const id = wire.nextId();
  wire.expectAnswer(id, 'initialize');
  // `4096.0` is an integer (WIRE.md §8): written by hand, as JSON.stringify never would.
  const maxTokens = 'maxTokens' in ctx.env.route ? '' : ',"maxTokens":4096.0';
  wire.writeRaw(
    `{"jsonrpc":"2.0","id":${id},"method":"initialize","params":${params.slice(0, -1)}${maxTokens}}}\n`,
  );
  const answer = await wire.answerTo(id, 'the valid initialize');
  ctx.check(
    'DSH-INIT-004',
    answer['result'] !== undefined,
    `a valid initialize after refused ones was answered ${describeAnswer(answer)}`,
  );
  ctx.check(
    'DSH-PARAMS-002',
    answer['result'] !== undefined,
    `initialize with an unknown member and "maxTokens":4096.0 was answered ${describeAnswer(answer)}`,
  );
}

function paramsCase(method: string, kebabName: string): RuntimeCase {
  const guard = capabilityGuarding(method);
  const own =
    method === 'session/interrupt'
      ? 'DSH-INTERRUPT-007'
      : method === 'session/close'
        ? 'DSH-CLOSE-006'
        : 'DSH-PARAMS-001';
  return {
    id: `params.${kebabName}`,
    title: `${method}: the params instances derived from the IDL and the golden vectors, refused and accepted`,
    requirements: [
      ...new Set([
        own,
        'DSH-PARAMS-001',
        'DSH-PARAMS-002',
        'DSH-ERR-003',
        ...(method === 'initialize' ? ['DSH-VERSION-004', 'DSH-INIT-004'] : []),
      ]),
    ],
    async run(ctx) {
      if (guard && !ctx.hasCapability(guard.name)) {
        ctx.notTested(own, `the runtime did not report ${guard.name}`);
        return;
      }
      const wire = method === 'initialize' ? await ctx.start() : await ctx.startInitialized();
      const refusals = refusalsOf(method, ctx.env.route, ctx.runtimeVersion);
      const sessions = await sendRefusals(ctx, wire, method, refusals);
      if (method === 'initialize') await finalInitialize(ctx, wire);
      else await sendAcceptances(ctx, wire, method);
      const ping = await wire.request('conformance/ping', {});
      if (errorOf(ping) === undefined)
        ctx.fail('DSH-ERR-001', `an unknown method was answered ${describeAnswer(ping)}`);
      const ran = wire.lines.filter((line) => sessions.some((s) => concerns(line, s)));
      ctx.check(
        'DSH-PARAMS-001',
        ran.length === 0,
        `refused prompts ran anyway: ${ran.length} notification(s) for their sessions, e.g. ${JSON.stringify((ran[0]?.message as JsonObject | undefined)?.['params'])?.slice(0, 200)}`,
      );
      wire.closeStdin();
    },
  };
}

export const PARAMS_CASES: readonly RuntimeCase[] = METHODS.filter(
  (m) => m.kind === 'request' && m.direction === 'clientToServer' && m.paramsType !== null,
).map((m) => paramsCase(m.wireName, m.kebabName));
