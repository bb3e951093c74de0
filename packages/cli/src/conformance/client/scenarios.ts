// The scenarios a client's driver is run through: what real clients meet. Each plays the
// runtime's side (turn-script.ts) and judges the driver's result line; the client monitor judges
// its traffic in all of them.
import type { DriverOutput } from './driver-output.js';
import type { JsonObject } from '../runtime/server-line.js';
import type { Play, Plan, SessionLog } from './turn-script.js';
import {
  acceptPrompt,
  assistantMessage,
  chunk,
  closeTurn,
  handshake,
  openTurn,
  serveShutdown,
  serveTurn,
  sleep,
} from './turn-script.js';
import { ladderScenario, streamingScenario } from './stopping-scenarios.js';

export interface ClientScenario {
  readonly name: string;
  readonly title: string;
  readonly requirements: readonly string[];
  readonly plan?: Partial<Plan>;
  /** Liveness bounds the driver may take (default 3). */
  readonly scale?: number;
  play(p: Play): Promise<void>;
  judge(p: Play, out: DriverOutput): void;
}

const REPLY = 'Hello from the conformance kit, playing a runtime.';
const MARKER = 'conformance-marker: the runtime fell over';

/** The driver's run completed with `text` and no error: the check of most scenarios. */
function completedWith(requirement: string, text: string) {
  return (p: Play, out: DriverOutput): void => {
    p.verdicts.check(
      requirement,
      out.errors.length === 0,
      `the driver reported errors: ${JSON.stringify(out.errors).slice(0, 300)}`,
    );
    p.verdicts.check(
      requirement,
      out.finalText === text,
      `the final text is ${JSON.stringify(out.finalText)?.slice(0, 120)} (${out.finalText?.length ?? 0} chars), not the ${text.length} chars the runtime sent`,
    );
  };
}

/** A plain turn between a handshake and a shutdown, with `before`/`between` frames. */
async function plainRun(
  p: Play,
  extra: { atHandshake?: (p: Play) => void; between?: (log: SessionLog) => JsonObject[] } = {},
): Promise<void> {
  await handshake(p);
  extra.atHandshake?.(p);
  await serveTurn(p, ['Hello ', 'from the kit.'], REPLY, extra.between);
  await serveShutdown(p);
}

function diesScenario(name: string, title: string, code: number, midTurn: boolean): ClientScenario {
  return {
    name,
    title,
    requirements: ['DSH-CLIENT-010'],
    async play(p) {
      await handshake(p);
      if (midTurn) {
        const { prompt, log, messageId } = await acceptPrompt(p);
        p.fake.send(...openTurn(log, messageId, prompt), chunk(log, 'Hel'), chunk(log, 'lo'));
        await sleep(100);
      } else await sleep(100);
      p.fake.stderr(`${MARKER} (exit ${code})\n`);
      p.monitor.side.isGone = true;
      p.fake.exit(code);
    },
    judge(p, out) {
      const died = out.errors.find((e) => e.class === 'runtime-exited');
      p.verdicts.check(
        'DSH-CLIENT-010',
        died !== undefined,
        `the driver reported no runtime-exited error: ${JSON.stringify(out.errors).slice(0, 300)}`,
      );
      if (!died) return;
      p.verdicts.check(
        'DSH-CLIENT-010',
        new RegExp(`\\b${code}\\b`).test(died.message),
        `the error does not name the exit code ${code}: ${died.message.slice(0, 300)}`,
      );
      p.verdicts.check(
        'DSH-CLIENT-010',
        died.message.includes(MARKER),
        `the error does not hold the end of the runtime's stderr ("${MARKER}"): ${died.message.slice(0, 300)}`,
      );
    },
  };
}

const GARBAGE = [
  'not json at all',
  '{"jsonrpc":"2.0","id":',
  '[1,2,3]',
  '',
  '\r',
  '42',
  '{"jsonrpc":"2.0","id":987654,"result":{}}',
  '{"jsonrpc":"2.0","id":"nobody","error":{"code":-1,"message":"x"}}',
  '{"jsonrpc":"2.0","method":5}',
];
const UNKNOWN_EVENT = 'x-conformance/plugin-event';
const ELSEWHERE = 'conformance-elsewhere';
const BIG = `${'a'.repeat(8 * 1024 * 1024 - 3)}END`;
const UTF8_CHUNKS = ['naïve ', 'café ', '日本語 ', '🌊 ', 'ünïcödé'];
const BURST_CHUNKS = 100_000;

export const CLIENT_SCENARIOS: readonly ClientScenario[] = [
  {
    name: 'handshake',
    title:
      "a plain run: the final text is the last assistant/message's, the finish reason the last turn/end's, and the run waits for idle",
    requirements: ['DSH-CLIENT-019', 'DSH-CLIENT-020'],
    async play(p) {
      await handshake(p);
      const { prompt, log, messageId } = await acceptPrompt(p);
      p.fake.send(
        ...openTurn(log, messageId, prompt),
        chunk(log, 'Let me '),
        chunk(log, 'think.'),
        assistantMessage(log, messageId, 'Let me think.'),
        chunk(log, REPLY),
        assistantMessage(log, messageId, REPLY),
        ...closeTurn(log),
      );
      await sleep(300);
      p.notes['idle'] = p.fake.now();
      p.fake.send(log.status('idle'));
      await serveShutdown(p);
    },
    judge(p, out) {
      completedWith('DSH-CLIENT-019', REPLY)(p, out);
      p.verdicts.check(
        'DSH-CLIENT-019',
        out.finishReason === 'completed',
        `the finish reason is ${JSON.stringify(out.finishReason)}, not "completed"`,
      );
      const early = p.fake.lines.find(
        (l) =>
          l.kind === 'request' &&
          l.message?.['method'] !== 'session/prompt' &&
          l.message?.['method'] !== 'initialize' &&
          l.at < (p.notes['idle'] ?? Infinity),
      );
      p.verdicts.check(
        'DSH-CLIENT-020',
        early === undefined,
        `the client sent ${String(early?.message?.['method'])} before the run's idle`,
      );
    },
  },
  diesScenario(
    'dies-after-initialize',
    'the runtime exits with code 3 right after the handshake: the run fails at once, naming the code and stderr',
    3,
    false,
  ),
  diesScenario(
    'dies-mid-turn',
    'the runtime exits with code 4 in the middle of a turn: the run fails at once, naming the code and stderr',
    4,
    true,
  ),
  {
    name: 'garbage-lines',
    title: 'garbage, blank and unknown-id lines before the handshake answer and inside the turn',
    requirements: ['DSH-CLIENT-011'],
    async play(p) {
      const garbage = GARBAGE.map((g) => `${g}\n`).join('');
      await p.fake.request('initialize', p.bound());
      p.fake.write(garbage);
      await handshake(p);
      const { prompt, log, messageId } = await acceptPrompt(p);
      p.fake.send(...openTurn(log, messageId, prompt));
      p.fake.write(garbage);
      p.fake.send(
        chunk(log, REPLY),
        assistantMessage(log, messageId, REPLY),
        ...closeTurn(log),
        log.status('idle'),
      );
      await serveShutdown(p);
    },
    judge: completedWith('DSH-CLIENT-011', REPLY),
  },
  {
    name: 'unknown-notifications',
    title:
      'an unknown notification method and an unknown event type inside the turn: they pass through',
    requirements: ['DSH-CLIENT-012'],
    async play(p) {
      await plainRun(p, {
        between: (log) => [
          { jsonrpc: '2.0', method: 'conformance.unknown', params: { x: 1 } },
          log.event(UNKNOWN_EVENT, { plugin: 'conformance', nested: { deep: [1] } }),
        ],
      });
    },
    judge(p, out) {
      completedWith('DSH-CLIENT-012', REPLY)(p, out);
      p.verdicts.check(
        'DSH-CLIENT-012',
        out.eventTypes.includes(UNKNOWN_EVENT),
        `the run's events (${out.eventTypes.join(', ')}) lack the unknown ${UNKNOWN_EVENT}`,
      );
    },
  },
  {
    name: 'notifications-after-handshake',
    title:
      'notifications of another session right after the handshake answer: the run is not disturbed',
    requirements: ['DSH-CLIENT-013'],
    async play(p) {
      await plainRun(p, {
        atHandshake: ({ fake }) =>
          fake.send(
            {
              jsonrpc: '2.0',
              method: 'session.status',
              params: { sessionId: ELSEWHERE, status: 'running' },
            },
            {
              jsonrpc: '2.0',
              method: 'session.event',
              params: {
                sessionId: ELSEWHERE,
                event: { type: 'x-conformance/elsewhere', seq: 0, time: Date.now(), data: {} },
              },
            },
            {
              jsonrpc: '2.0',
              method: 'session.status',
              params: { sessionId: ELSEWHERE, status: 'idle' },
            },
          ),
      });
    },
    judge(p, out) {
      completedWith('DSH-CLIENT-013', REPLY)(p, out);
      p.verdicts.check(
        'DSH-CLIENT-013',
        !out.eventTypes.includes('x-conformance/elsewhere'),
        "another session's event was counted in the run",
      );
    },
  },
  {
    name: 'burst',
    title: `a turn of ${BURST_CHUNKS.toLocaleString('en')} assistant/chunk events`,
    requirements: ['DSH-CLIENT-014'],
    scale: 12,
    async play(p) {
      await handshake(p);
      const { prompt, log, messageId } = await acceptPrompt(p);
      p.fake.send(...openTurn(log, messageId, prompt));
      for (let sent = 0; sent < BURST_CHUNKS; sent += 2000)
        p.fake.send(...Array.from({ length: 2000 }, () => chunk(log, 'ab')));
      p.fake.send(
        assistantMessage(log, messageId, 'ab'.repeat(BURST_CHUNKS)),
        ...closeTurn(log),
        log.status('idle'),
      );
      await serveShutdown(p);
    },
    judge: completedWith('DSH-CLIENT-014', 'ab'.repeat(BURST_CHUNKS)),
  },
  {
    name: 'big-frame',
    title: 'an assistant/message of 8 MiB',
    requirements: ['DSH-CLIENT-015'],
    scale: 6,
    async play(p) {
      await handshake(p);
      const { prompt, log, messageId } = await acceptPrompt(p);
      p.fake.send(
        ...openTurn(log, messageId, prompt),
        assistantMessage(log, messageId, BIG),
        ...closeTurn(log),
        log.status('idle'),
      );
      await serveShutdown(p);
    },
    judge: completedWith('DSH-CLIENT-015', BIG),
  },
  {
    name: 'utf8-split',
    title: 'a turn written 7 bytes at a time, splitting multi-byte characters',
    requirements: ['DSH-CLIENT-016'],
    async play(p) {
      await handshake(p);
      const { prompt, log, messageId } = await acceptPrompt(p);
      const frames = [
        ...openTurn(log, messageId, prompt),
        ...UTF8_CHUNKS.map((c) => chunk(log, c)),
        assistantMessage(log, messageId, UTF8_CHUNKS.join('')),
        ...closeTurn(log),
        log.status('idle'),
      ];
      const bytes = Buffer.from(frames.map((f) => `${JSON.stringify(f)}\n`).join(''));
      for (let at = 0; at < bytes.length; at += 7) {
        p.fake.write(bytes.subarray(at, at + 7));
        await sleep(1);
      }
      await serveShutdown(p);
    },
    judge: completedWith('DSH-CLIENT-016', UTF8_CHUNKS.join('')),
  },
  {
    name: 'slow-answers',
    title: 'initialize, session/prompt and shutdown each answered after 1 s',
    requirements: ['DSH-CLIENT-017'],
    async play(p) {
      await handshake(p, 2, 1000);
      const { prompt, log, messageId } = await acceptPrompt(p, 1000);
      p.fake.send(
        ...openTurn(log, messageId, prompt),
        chunk(log, REPLY),
        assistantMessage(log, messageId, REPLY),
        ...closeTurn(log),
        log.status('idle'),
      );
      await serveShutdown(p, 1000);
    },
    judge: completedWith('DSH-CLIENT-017', REPLY),
  },
  {
    name: 'stderr-noise',
    title: '1 MiB on stderr before the handshake answer and 256 KiB inside the turn',
    requirements: ['DSH-CLIENT-018'],
    async play(p) {
      const noise = Buffer.alloc(64 * 1024, 'runtime log line, ignore me\n');
      await p.fake.request('initialize', p.bound());
      for (let i = 0; i < 16; i++) p.fake.stderr(noise);
      await plainRun(p, {
        atHandshake: ({ fake }) => {
          for (let i = 0; i < 4; i++) fake.stderr(noise);
        },
      });
    },
    judge: completedWith('DSH-CLIENT-018', REPLY),
  },
  streamingScenario(1),
  streamingScenario(2),
  ladderScenario(),
];
