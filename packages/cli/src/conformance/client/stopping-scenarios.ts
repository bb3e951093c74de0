// Scenarios about stopping: a run stopped on its first delta (version 1: nothing may be sent;
// version 2: session/interrupt, then session/close), and a runtime that ignores shutdown, stdin
// and SIGTERM, so the client must climb its whole ladder.
import type { JsonObject } from '../runtime/server-line.js';
import { hasError } from './driver-output.js';
import type { ClientScenario } from './scenarios.js';
import type { Play } from './turn-script.js';
import {
  acceptPrompt,
  assistantMessage,
  chunk,
  closeTurn,
  handshake,
  openTurn,
  reply,
  serveShutdown,
  serveTurn,
  sleep,
} from './turn-script.js';

const CHUNKS = 40;
const CHUNK_PAUSE_MS = 100;

/** Streams a slow turn; on version 2, stops it when the client interrupts it. */
async function slowTurn(p: Play, version: 1 | 2): Promise<void> {
  const { prompt, log, messageId } = await acceptPrompt(p);
  p.fake.send(...openTurn(log, messageId, prompt));
  const from = p.fake.lines.length;
  const interrupt = () =>
    p.fake.lines.find((l) => l.index >= from && l.message?.['method'] === 'session/interrupt');
  let text = '';
  for (let i = 0; i < CHUNKS; i++) {
    const asked = interrupt();
    if (asked && version >= 2) {
      p.fake.send(
        ...closeTurn(log, { kind: 'aborted', reason: { kind: 'user' } }),
        log.status('idle'),
      );
      reply(p, asked.message!, { found: true, wasRunning: true });
      return;
    }
    text += `word${i} `;
    p.fake.send(chunk(log, `word${i} `));
    await sleep(CHUNK_PAUSE_MS);
  }
  p.fake.send(assistantMessage(log, messageId, text), ...closeTurn(log), log.status('idle'));
}

export function streamingScenario(version: 1 | 2): ClientScenario {
  return {
    name: version === 1 ? 'version-1' : 'interrupt-and-close',
    title:
      version === 1
        ? 'a version 1 runtime: stopping the run and closing the session send nothing, and fail locally'
        : 'version 2: stopping the run on its first delta sends session/interrupt, closing the session sends session/close',
    requirements: [version === 1 ? 'DSH-CLIENT-008' : 'DSH-CLIENT-009'],
    plan: { stop: 'first-delta', closeAfter: true },
    async play(p) {
      await handshake(p, version);
      const shutdown = serveShutdown(p);
      await slowTurn(p, version);
      if (version >= 2) {
        const close = await p.fake.request('session/close', p.bound());
        reply(p, close, { found: true });
      }
      await shutdown;
    },
    judge(p, out) {
      if (version === 1) {
        p.verdicts.check(
          'DSH-CLIENT-008',
          hasError(out, 'close', 'capability-missing'),
          `closing the session on a version 1 runtime did not fail locally with capability-missing: ${JSON.stringify(out.errors).slice(0, 300)}`,
        );
        return;
      }
      const sent = (method: string) =>
        p.fake.lines.find((l) => l.message?.['method'] === method)?.message?.['params'] as
          JsonObject | undefined;
      p.verdicts.check(
        'DSH-CLIENT-009',
        sent('session/interrupt')?.['sessionId'] === p.plan.sessionId,
        `no session/interrupt for ${p.plan.sessionId} (sent: ${JSON.stringify(sent('session/interrupt'))})`,
      );
      p.verdicts.check(
        'DSH-CLIENT-009',
        sent('session/close')?.['sessionId'] === p.plan.sessionId,
        `no session/close for ${p.plan.sessionId} (sent: ${JSON.stringify(sent('session/close'))})`,
      );
      p.verdicts.check(
        'DSH-CLIENT-009',
        out.finishReason === 'aborted',
        `the stopped run's finish reason is ${JSON.stringify(out.finishReason)}, not "aborted"`,
      );
      p.verdicts.check(
        'DSH-CLIENT-009',
        out.errors.length === 0,
        `the driver reported errors: ${JSON.stringify(out.errors).slice(0, 300)}`,
      );
    },
  };
}

/** Steps closer together than this did not wait. */
const MIN_STEP_MS = 100;

export function ladderScenario(): ClientScenario {
  return {
    name: 'ignores-shutdown',
    title:
      'the runtime never answers shutdown, ignores the end of stdin and SIGTERM: the client climbs to SIGKILL',
    requirements: ['DSH-CLIENT-007'],
    scale: 6,
    async play(p) {
      await handshake(p);
      await serveTurn(p, ['Hello.'], 'Hello.');
      p.fake.ignoreSignals(['SIGTERM', 'SIGINT', 'SIGHUP']);
      await p.fake.request('shutdown', p.bound(2));
      p.notes['shutdown'] = p.fake.now();
      p.notes['killed'] = (await p.fake.ended).at;
    },
    judge(p) {
      const { fake, notes } = p;
      const sigterm = fake.signals.find((s) => s.name === 'SIGTERM')?.at;
      const steps: [string, number | undefined][] = [
        ['shutdown', notes['shutdown']],
        ['closing stdin', fake.stdinClosedAt],
        ['SIGTERM', sigterm],
        ['SIGKILL', notes['killed']],
      ];
      for (let i = 1; i < steps.length; i++) {
        const [name, at] = steps[i]!;
        const [before, previous] = steps[i - 1]!;
        if (at === undefined || previous === undefined) {
          p.verdicts.fail(
            'DSH-CLIENT-007',
            `no ${at === undefined ? name : before} (steps seen: ${steps
              .filter(([, t]) => t !== undefined)
              .map(([n, t]) => `${n} at ${Math.round(t!)} ms`)
              .join(', ')})`,
          );
          return;
        }
        p.verdicts.check(
          'DSH-CLIENT-007',
          at - previous >= (name === 'closing stdin' ? 0 : MIN_STEP_MS),
          `${name} came ${Math.round(at - previous)} ms after ${before}: the step did not wait`,
        );
      }
      const ended = fake.exitedAt === undefined;
      p.verdicts.check('DSH-CLIENT-007', ended, 'the runtime was not killed');
    },
  };
}
