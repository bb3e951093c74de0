// The golden vectors as cases: every runtime conversation of test-vectors/exchanges/ (with this
// run's route and delegate prompt, values relaxed as relaxed-match.ts says), and the bytes of
// test-vectors/framing/read/, which must not be answered but where a request was delivered.
import { METHODS } from '@dsh-sdk/protocol';
import { vectorBytes, vectorExpectation, vectorPaths, vectorText } from '../../idl-data.js';
import type { RuntimeCaseContext } from '../case-context.js';
import type { RuntimeCase } from '../case.js';
import { withRoute } from '../params-instances.js';
import { mismatch, sentStrings } from '../relaxed-match.js';
import type { MatchScope } from '../relaxed-match.js';
import { isObject } from '../server-line.js';
import type { JsonObject, ServerLine } from '../server-line.js';
import type { RuntimeWire } from '../wire.js';

interface Envelope {
  readonly from: 'client' | 'server';
  readonly message: JsonObject;
  readonly ifOpen?: boolean;
}

const DELEGATE = '/delegate ';
const REQUIREMENT = 'DSH-VECTOR-001';

/** The highest `since` a conversation uses: of its methods, and of the members of its params and results. */
function sinceOf(envelopes: readonly Envelope[]): number {
  let since = 1;
  for (const { message } of envelopes) {
    const info = METHODS.find((m) => m.wireName === message['method']);
    if (info)
      since = Math.max(
        since,
        info.since,
        ...Object.entries(info.paramsMembersSince)
          .filter(([k]) => isObject(message['params']) && k in message['params'])
          .map(([, v]) => v),
      );
    const result = message['result'];
    if (isObject(result) && ('protocolVersion' in result || 'capabilities' in result))
      since = Math.max(since, 2);
  }
  return since;
}

/** The client message as the kit sends it: `$var`s bound to fresh ids, the route and delegate prompt of the run. */
function toSend(
  ctx: RuntimeCaseContext,
  wire: RuntimeWire,
  message: JsonObject,
  scope: MatchScope,
  broken: string[],
): JsonObject {
  const resolveVars = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(resolveVars);
    if (!isObject(node)) return node;
    if (typeof node['$var'] === 'string') {
      if (!scope.vars.has(node['$var'])) scope.vars.set(node['$var'], wire.nextId());
      return scope.vars.get(node['$var']);
    }
    return Object.fromEntries(Object.entries(node).map(([k, v]) => [k, resolveVars(v)]));
  };
  const out = resolveVars(message) as Record<string, unknown>;
  if (out['method'] === 'initialize')
    out['params'] = withRoute(out['params'], ctx.env.route, broken);
  out['params'] = withDelegatePrompt(out['params'], ctx.env.delegatePrompt ?? '');
  return out;
}

/** The reference runtimes' `/delegate …` texts replaced by the run's delegate prompt. */
function withDelegatePrompt(node: unknown, prompt: string): unknown {
  if (Array.isArray(node)) return node.map((item) => withDelegatePrompt(item, prompt));
  if (!isObject(node)) return node;
  if (
    node['type'] === 'text' &&
    typeof node['text'] === 'string' &&
    node['text'].startsWith(DELEGATE)
  )
    return { ...node, text: prompt };
  return Object.fromEntries(
    Object.entries(node).map(([k, v]) => [k, withDelegatePrompt(v, prompt)]),
  );
}

/** Waits until every server message of the group arrived (notifications in order), or says what is missing. */
async function matchGroup(
  ctx: RuntimeCaseContext,
  wire: RuntimeWire,
  group: readonly Envelope[],
  from: number,
  scope: MatchScope,
  strict: boolean,
): Promise<string | undefined> {
  const pending = [...group];
  const used = new Set<number>();
  let lastNotification = from - 1;
  const deadline = Date.now() + ctx.bound();
  while (pending.length > 0) {
    const next = pending[0]!;
    const isResponse = next.message['method'] === undefined;
    const found = wire.lines.find(
      (l) =>
        l.index >= from &&
        !used.has(l.index) &&
        (isResponse || l.index > lastNotification) &&
        l.message &&
        (l.kind === 'response') === isResponse &&
        mismatch(
          next.message,
          l.message,
          { ...scope, literals: new Map(scope.literals) },
          '',
          false,
          isResponse && isInitializeAnswer(next),
        ) === undefined,
    );
    if (found) {
      mismatch(next.message, found.message, scope, '', false, false);
      used.add(found.index);
      if (!isResponse) lastNotification = found.index;
      pending.shift();
      continue;
    }
    const ended = wire.exit !== undefined;
    if (ended && next.ifOpen) {
      pending.shift();
      continue;
    }
    if (ended || Date.now() > deadline) return describeMissing(next, wire, from, scope, isResponse);
    await wire.moreLines(Math.max(50, deadline - Date.now()));
  }
  if (!strict) return undefined;
  const extra = wire.lines.find(
    (l) => l.index >= from && !used.has(l.index) && l.kind === 'notification',
  );
  return extra
    ? `an unexpected notification: ${JSON.stringify(extra.message).slice(0, 200)}`
    : undefined;
}

const isInitializeAnswer = (envelope: Envelope): boolean =>
  isObject(envelope.message['result']) && 'serverInfo' in envelope.message['result'];

function describeMissing(
  next: Envelope,
  wire: RuntimeWire,
  from: number,
  scope: MatchScope,
  isResponse: boolean,
): string {
  const candidates = wire.lines.filter(
    (l: ServerLine) => l.index >= from && (l.kind === 'response') === isResponse,
  );
  const closest = candidates
    .map((l) => mismatch(next.message, l.message, { ...scope, literals: new Map(scope.literals) }))
    .find((m) => m !== undefined);
  return `expected ${JSON.stringify(next.message).slice(0, 240)}${closest ? `; closest difference: ${closest.slice(0, 240)}` : '; nothing like it came'}`;
}

function exchangeCase(path: string): RuntimeCase | undefined {
  const expect = vectorExpectation(path);
  if (expect['runtime'] !== true || expect['chunkDelayMs'] !== undefined) return undefined;
  const envelopes = vectorText(path)
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as Envelope);
  const name = path.slice('exchanges/'.length, -'.ndjson'.length);
  const version = expect['serverProtocolVersion'];
  const needsDelegate = vectorText(path).includes(`"text":"${DELEGATE}`);
  return {
    id: `vector.exchange.${name}`,
    title: String(expect['description']),
    requirements: [REQUIREMENT],
    ...(version === 1
      ? { versions: 'v1' as const }
      : sinceOf(envelopes) >= 2
        ? { versions: 'v2' as const }
        : {}),
    async run(ctx) {
      if (needsDelegate && ctx.env.delegatePrompt === null) return;
      const wire = await ctx.start();
      const scope: MatchScope = {
        vars: new Map(),
        sent: sentStrings(envelopes.filter((e) => e.from === 'client').map((e) => e.message)),
        literals: new Map(),
      };
      for (let i = 0; i < envelopes.length;) {
        const clients: Envelope[] = [];
        while (envelopes[i]?.from === 'client') clients.push(envelopes[i++]!);
        const group: Envelope[] = [];
        while (envelopes[i]?.from === 'server') group.push(envelopes[i++]!);
        const broken = group
          .flatMap(
            (e) =>
              ((e.message['error'] as JsonObject | undefined)?.['data'] as
                JsonObject[] | undefined) ?? [],
          )
          .map((v) => String(v['pointer']));
        const from = wire.lines.length;
        for (const client of clients) {
          const message = toSend(ctx, wire, client.message, scope, broken);
          if (message['id'] !== undefined)
            wire.expectAnswer(message['id'], String(message['method']), message['params']);
          wire.send(message);
        }
        scope.literals.clear();
        const problem = await matchGroup(
          ctx,
          wire,
          group,
          from,
          scope,
          expect['ignoreNotifications'] !== true,
        );
        if (problem) return ctx.fail(REQUIREMENT, `${name}: ${problem}`);
      }
      ctx.pass(REQUIREMENT);
      if (!wire.exit) wire.closeStdin();
    },
  };
}

/** A framing vector's bytes, followed by a ping; delivered requests must be answered, refusals refused, nothing else. */
async function sendFramingVector(
  ctx: RuntimeCaseContext,
  wire: RuntimeWire,
  path: string,
): Promise<void> {
  const expect = vectorExpectation(path);
  const bytes = vectorBytes(path);
  const delivered = ((expect['messages'] ?? []) as JsonObject[]).filter(
    (m) => m['id'] !== undefined && m['method'] !== undefined,
  );
  const refusals = (expect['refusals'] ?? []) as JsonObject[];
  for (const m of delivered) wire.expectAnswer(m['id'], String(m['method']));
  for (const r of refusals) wire.expectAnswer(r['id'], 'refused');
  const answered = new Set([...delivered, ...refusals].map((m) => JSON.stringify(m['id'])));
  for (const text of bytes.toString('latin1').split('\n')) {
    try {
      const value = JSON.parse(Buffer.from(text, 'latin1').toString('utf8')) as unknown;
      if (
        isObject(value) &&
        value['id'] !== undefined &&
        !answered.has(JSON.stringify(value['id']))
      )
        wire.monitor.forbidAnswer(value['id'], 'DSH-HOSTILE-001', `a malformed line of ${path}`);
    } catch {
      // Not JSON: it has no id to answer.
    }
  }
  const cuts = [0, ...((expect['splitAt'] ?? []) as number[]), bytes.length];
  for (let i = 0; i + 1 < cuts.length; i++) wire.writeRaw(bytes.subarray(cuts[i], cuts[i + 1]));
  await Promise.all(
    [...delivered, ...refusals].map((m) =>
      wire.answerTo(m['id'] as string, `${path}: the request with id ${JSON.stringify(m['id'])}`),
    ),
  );
  for (const r of refusals) {
    const answer = wire.lines.find(
      (l) => l.kind === 'response' && JSON.stringify(l.message?.['id']) === JSON.stringify(r['id']),
    );
    const code = (answer?.message?.['error'] as JsonObject | undefined)?.['code'];
    ctx.check(
      'DSH-HOSTILE-008',
      code === r['code'],
      `${path}: id ${JSON.stringify(r['id'])} was answered code ${code}, not ${r['code']}`,
    );
  }
  await wire.request('conformance/ping', {}, `ping-after-${path}`);
  wire.monitor.clearForbidden();
}

/** Framing vectors a runtime can take in turn: terminated, at the default limit, with no `shutdown`. */
function framingPaths(): string[] {
  return vectorPaths('framing/read/').filter((path) => {
    if (!path.endsWith('.ndjson')) return false;
    const expect = vectorExpectation(path);
    const bytes = vectorBytes(path);
    const messages = (expect['messages'] ?? []) as JsonObject[];
    return (
      expect['maxFrameBytes'] === undefined &&
      bytes.at(-1) === 10 &&
      !messages.some((m) => m['method'] === 'shutdown')
    );
  });
}

export function vectorCases(): RuntimeCase[] {
  const exchanges = vectorPaths('exchanges/')
    .filter((p) => p.endsWith('.ndjson'))
    .map(exchangeCase);
  const framing: RuntimeCase = {
    id: 'vector.framing-read',
    title:
      'the golden framing vectors, one after the other: delivered requests answered, refusals refused, nothing else answered',
    requirements: ['DSH-HOSTILE-001', 'DSH-HOSTILE-008'],
    scale: 3,
    async run(ctx) {
      const wire = await ctx.start();
      for (const path of framingPaths()) {
        await sendFramingVector(ctx, wire, path);
        ctx.pass('DSH-HOSTILE-001');
      }
      wire.closeStdin();
    },
  };
  return [framing, ...exchanges.filter((c): c is RuntimeCase => c !== undefined)];
}
