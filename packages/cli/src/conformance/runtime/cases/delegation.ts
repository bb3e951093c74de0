// Child agents (the `--delegate-prompt`): announced before their events, finished before their
// parent's turn ends, their status consistent with their stop reason, stopped first on interrupt.
import type { RuntimeCaseContext } from '../case-context.js';
import type { RuntimeCase } from '../case.js';
import type { JsonObject, ServerLine } from '../server-line.js';
import { concerns, eventOf, paramsOf, runPrompt, textPrompt } from '../turns.js';
import type { RuntimeWire } from '../wire.js';
import { TOO_FAST, stopWhileStreaming } from './stop-attempts.js';

const PARENT = 'conformance-parent';
const NO_CHILD =
  'the delegate prompt started no child agent: give one that does (--delegate-prompt), or --no-delegate';

function childOf(
  wire: RuntimeWire,
  from: number,
): { started: ServerLine; child: string } | undefined {
  const started = wire.lines.find(
    (l) => l.index >= from && paramsOf(l, 'subagent.started')?.['parentSessionId'] === PARENT,
  );
  const child = started && paramsOf(started, 'subagent.started')?.['childSessionId'];
  return started && typeof child === 'string' ? { started, child } : undefined;
}

function finishedOf(wire: RuntimeWire, child: string): ServerLine | undefined {
  return wire.lines.find((l) => paramsOf(l, 'subagent.finished')?.['childSessionId'] === child);
}

function checkLastMessage(
  ctx: RuntimeCaseContext,
  wire: RuntimeWire,
  child: string,
  finished: JsonObject,
): void {
  const messages = wire.lines
    .map((l) => eventOf(l, child, 'assistant/message'))
    .map(
      (e) =>
        ((e?.['data'] as JsonObject | undefined)?.['message'] as JsonObject | undefined)?.[
          'content'
        ],
    )
    .filter((c): c is unknown[] => Array.isArray(c) && c.length > 0);
  const last = messages.pop();
  if (last === undefined) return;
  ctx.check(
    'DSH-SUBAGENT-004',
    JSON.stringify(finished['lastAssistantMessage']) === JSON.stringify(last),
    `lastAssistantMessage ${JSON.stringify(finished['lastAssistantMessage'])?.slice(0, 120)} is not the child's last assistant message ${JSON.stringify(last).slice(0, 120)}`,
  );
}

export const DELEGATION_CASES: readonly RuntimeCase[] = [
  {
    id: 'subagent.delegate',
    title:
      'the delegate prompt: subagent.started before the child, subagent.finished before the parent ends, status and stop reason agree',
    requirements: ['DSH-SUBAGENT-001', 'DSH-SUBAGENT-002', 'DSH-SUBAGENT-003', 'DSH-SUBAGENT-004'],
    async run(ctx) {
      const prompt = ctx.env.delegatePrompt!;
      const wire = await ctx.startInitialized();
      const from = wire.lines.length;
      const run = await runPrompt(wire, PARENT, prompt);
      const found = childOf(wire, from);
      if (!found)
        return ['DSH-SUBAGENT-001', 'DSH-SUBAGENT-002', 'DSH-SUBAGENT-003'].forEach((r) =>
          ctx.notTested(r, NO_CHILD),
        );
      const { started, child } = found;
      const firstOfChild = wire.lines.find(
        (l) => concerns(l, child) && l.message?.['method'] !== 'subagent.finished',
      );
      ctx.check(
        'DSH-SUBAGENT-001',
        child !== PARENT && (firstOfChild === undefined || started.index < firstOfChild.index),
        `subagent.started for ${child} came after the child's own events`,
      );
      const finished = finishedOf(wire, child);
      ctx.check(
        'DSH-SUBAGENT-002',
        finished !== undefined && finished.index < run.turnEnd.index,
        `subagent.finished for ${child} ${finished ? "came after the parent's turn/end" : 'never came'}`,
      );
      const params = finished && paramsOf(finished, 'subagent.finished');
      if (!params) return;
      const { status, stopReason } = params as { status: string; stopReason: string };
      const agrees =
        stopReason === 'completed'
          ? status === 'ok'
          : status === 'error' || (stopReason === 'max-tokens' && status === 'ok');
      ctx.check(
        'DSH-SUBAGENT-003',
        agrees,
        `subagent.finished has status ${status} with stopReason ${stopReason}`,
      );
      checkLastMessage(ctx, wire, child, params);
      wire.closeStdin();
    },
  },
  {
    id: 'stop.interrupt-child',
    title:
      "interrupt a turn whose child agent streams: the child's subagent.finished aborted/error before the parent's turn/end",
    requirements: ['DSH-INTERRUPT-006'],
    versions: 'v2',
    async run(ctx) {
      const wire = await ctx.startInitialized();
      const from = wire.lines.length;
      wire.sendRequest('session/prompt', textPrompt(PARENT, ctx.env.delegatePrompt!));
      const started = await wire.waitFor(
        (l) =>
          l.index >= from &&
          (paramsOf(l, 'subagent.started')?.['parentSessionId'] === PARENT ||
            eventOf(l, PARENT, 'turn/end') !== undefined),
        'subagent.started or the turn/end',
      );
      const child = paramsOf(started, 'subagent.started')?.['childSessionId'];
      if (typeof child !== 'string') return ctx.notTested('DSH-INTERRUPT-006', NO_CHILD);
      const stopped = await stopWhileStreaming(
        wire,
        child,
        'session/interrupt',
        started.index,
        PARENT,
      );
      if (
        stopped === 'too-fast' ||
        (stopped['result'] as { wasRunning?: unknown } | undefined)?.wasRunning !== true
      )
        return ctx.notTested('DSH-INTERRUPT-006', TOO_FAST);
      const end = await wire.waitFor(
        (l) => l.index > started.index && eventOf(l, PARENT, 'turn/end') !== undefined,
        "the parent's turn/end",
      );
      const finished = finishedOf(wire, child);
      const params = finished && paramsOf(finished, 'subagent.finished');
      if (params?.['stopReason'] === 'completed')
        return ctx.notTested('DSH-INTERRUPT-006', TOO_FAST);
      ctx.check(
        'DSH-INTERRUPT-006',
        finished !== undefined &&
          finished.index < end.index &&
          params?.['stopReason'] === 'aborted' &&
          params['status'] === 'error',
        `the child's subagent.finished ${finished ? `is ${JSON.stringify(params)?.slice(0, 160)}, at ${finished.index} (parent's turn/end at ${end.index})` : 'never came'}`,
      );
      wire.closeStdin();
    },
  },
];
