// `pnpm bench`: decode throughput, big-frame decode time and round trips, side by side in one run.
import { compare, loadLine, printRates, printTimes, Targets } from './measure.mjs';
import {
  chunk,
  headerFramedChunks,
  mediumFrame,
  ndjsonChunks,
  promptFrame,
  smallFrame,
} from './frames.mjs';
import * as c from './competitors.mjs';
import * as rt from './roundtrip.mjs';
import { proxyLatencyScenario } from './proxy-latency.mjs';
import { acpBridgeScenario, acpDecodeScenario } from './acp.mjs';

const quick = process.argv.includes('--quick');
const rounds = quick ? 3 : 7;
const targets = new Targets();
const FLOOR = 'floor: Buffer split + JSON.parse';

/** The targets for a decode scenario, as [row, least ratio to the floor]. */
const DECODE_TARGETS = {
  small: [
    ['dsh-sdk transport + peer, validation off', 1.3],
    ['dsh-sdk transport + peer, validation on', 1.0],
  ],
  medium: [
    ['dsh-sdk transport + peer, validation off', 1.1],
    ['dsh-sdk transport + peer, validation on', 0.9],
  ],
};

async function decodeScenario(title, makeFrame, count, method) {
  const chunks = ndjsonChunks(makeFrame, count);
  const headerChunks = headerFramedChunks(makeFrame, count);
  const bytes = chunks.reduce((n, b) => n + b.length, 0);
  const stats = await compare(
    {
      'floor: Buffer split + JSON.parse': () => c.floorDecode(chunks, count),
      'dsh-sdk transport + peer, validation off': () =>
        c.oursNotifications(chunks, count, { method, validate: false }),
      'dsh-sdk transport + peer, validation on': () =>
        c.oursNotifications(chunks, count, { method, validate: true }),
      'naive string splitter (incorrect)': () => c.naiveDecode(chunks, count),
      'json-rpc-2.0 + node:readline': () => c.jsonRpc2Notifications(chunks, count, { method }),
      'vscode-jsonrpc (Content-Length framing)': () =>
        c.vscodeNotifications(headerChunks, count, { method }),
    },
    { rounds },
  );
  printRates(
    `${title}: ${count} frames, ${(bytes / count).toFixed(0)} B each, 64 KiB chunks`,
    stats,
    FLOOR,
  );
  const size = title.split(' ')[0];
  for (const [name, want] of DECODE_TARGETS[size])
    targets.check(`${size} frames, ${name.replace('dsh-sdk ', '')}`, stats, name, FLOOR, want);
}

/**
 * A burst: `count` small frames on a fresh transport and typed peer (validation on), so what a
 * connection costs beyond its frames (setup, the first chunks, closing) weighs as in real bursts.
 */
async function burstScenario(count) {
  const chunks = ndjsonChunks(smallFrame, count);
  const name = 'dsh-sdk typed peer, validation on';
  const stats = await compare(
    {
      [FLOOR]: () => c.floorDecode(chunks, count),
      [name]: () =>
        c.oursNotifications(chunks, count, { method: 'session.status', validate: true }),
    },
    { rounds: rounds * 3 },
  );
  printRates(
    `a burst of ${count} small session.status frames, each burst on a fresh transport`,
    stats,
    FLOOR,
  );
  targets.check(`burst of ${count} frames, typed peer, validation on`, stats, name, FLOOR, 0.9);
}

async function bigFrameScenario(mib) {
  const text = JSON.stringify(promptFrame(Math.round((mib * 1024 * 1024 * 3) / 4))) + '\n';
  const chunks = chunk(Buffer.from(text, 'utf8'));
  const stats = await compare(
    {
      'floor: Buffer split + JSON.parse': () => c.floorDecode(chunks, 1),
      'dsh-sdk server end, validation off': () => c.oursBigRequest(chunks, { validate: false }),
      'dsh-sdk server end, validation on': () => c.oursBigRequest(chunks, { validate: true }),
      'naive string splitter (incorrect)': () => c.naiveDecode(chunks, 1),
    },
    { rounds },
  );
  printTimes(
    `one ${(text.length / 2 ** 20).toFixed(1)} MiB session/prompt frame in 64 KiB chunks`,
    stats,
    'floor: Buffer split + JSON.parse',
  );
}

async function roundTripScenario(count, inFlight) {
  const stats = await compare(
    {
      'hand-rolled minimal NDJSON peer': () => rt.handRolledRoundTrips(count, inFlight),
      'dsh-sdk typed peers, validation off': () =>
        rt.oursRoundTrips(count, inFlight, { validate: false }),
      'dsh-sdk typed peers, validation on': () =>
        rt.oursRoundTrips(count, inFlight, { validate: true }),
      'json-rpc-2.0 + node:readline': () => rt.jsonRpc2RoundTrips(count, inFlight),
      'vscode-jsonrpc': () => rt.vscodeRoundTrips(count, inFlight),
    },
    { rounds },
  );
  printRates(
    `session/prompt round trips, ${inFlight} in flight (${count} calls)`,
    stats,
    'hand-rolled minimal NDJSON peer',
    'calls/s',
  );
  const what = `round trips, ${inFlight} in flight, typed peers, validation on`;
  targets.check(
    what,
    stats,
    'dsh-sdk typed peers, validation on',
    'hand-rolled minimal NDJSON peer',
    0.85,
  );
}

console.log(
  `dsh-sdk bench (${quick ? 'quick' : 'full'}): node ${process.version}, medians of ${rounds} rounds; ratios are to the first row`,
);
console.log(`${new Date().toISOString()}, before: ${loadLine()}`);
await decodeScenario(
  'small session.status decode',
  smallFrame,
  quick ? 50_000 : 200_000,
  'session.status',
);
await decodeScenario(
  'medium session.event decode',
  mediumFrame,
  quick ? 10_000 : 40_000,
  'session.event',
);
await burstScenario(4_096);
await burstScenario(36_864);
await bigFrameScenario(8);
await bigFrameScenario(16);
await roundTripScenario(quick ? 2_000 : 10_000, 1);
await roundTripScenario(quick ? 10_000 : 50_000, 64);
await proxyLatencyScenario({ rounds, count: quick ? 500 : 2_000, bytes: 1_200 });
const acp = await acpDecodeScenario({ rounds, count: quick ? 20_000 : 100_000 });
targets.check(
  'ACP frames, generated validators vs the official SDK (zod)',
  acp,
  'dsh-sdk generated validators (ajv)',
  'official ACP SDK 2.4.0 schemas (zod 4)',
  1.0,
);
await acpBridgeScenario({ rounds: quick ? 3 : rounds, chunks: 2_000 });
targets.printSummary();
console.log(`after: ${loadLine()}`);
