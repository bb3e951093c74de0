// How much latency `dsh-sdk trace` adds per frame: sequential request → response round trips (one
// in flight) to a responder child, direct, through a bare relay process (the cost of one more
// process hop, recording nothing), and through the recording proxy. A round trip crosses the
// proxy twice, so the added latency per frame is half the round-trip difference.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const CHILDREN = fileURLToPath(new URL('./proxy-children.mjs', import.meta.url));
const CLI = fileURLToPath(new URL('../../packages/cli/dist/main.js', import.meta.url));

/** A session/prompt request of about `bytes` bytes (validated by the proxy's recorder). */
function promptLine(id, bytes) {
  const text = 'x'.repeat(Math.max(1, bytes - 110));
  const params = { sessionId: 's-1', contentBlocks: [{ type: 'text', text }] };
  return `${JSON.stringify({ jsonrpc: '2.0', id, method: 'session/prompt', params })}\n`;
}

/** Starts `command` and measures `count` sequential round trips; returns each one's ms. */
async function roundTrips(command, count, bytes) {
  const child = spawn(command[0], command.slice(1), { stdio: ['pipe', 'pipe', 'inherit'] });
  const times = [];
  let pending = '';
  let resolveLine;
  child.stdout.setEncoding('utf8');
  child.stdout.on('data', (chunk) => {
    pending += chunk;
    const newline = pending.indexOf('\n');
    if (newline === -1) return;
    pending = pending.slice(newline + 1);
    resolveLine();
  });
  const exited = new Promise((resolve) => child.on('close', resolve));
  const lines = Array.from({ length: count + 50 }, (_, i) => promptLine(i + 1, bytes));
  for (let i = 0; i < lines.length; i++) {
    const answered = new Promise((resolve) => (resolveLine = resolve));
    const start = process.hrtime.bigint();
    child.stdin.write(lines[i]);
    await answered;
    // The first 50 warm the processes up.
    if (i >= 50) times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  child.stdin.end();
  await exited;
  return times;
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** Runs the three paths `rounds` times in rotating order; prints medians, min–max, added latency. */
export async function proxyLatencyScenario({ rounds, count, bytes }) {
  const dir = mkdtempSync(join(tmpdir(), 'dsh-sdk-bench-'));
  const responder = [process.execPath, CHILDREN, 'responder'];
  const paths = {
    'direct to the responder': responder,
    'bare relay process (no recording)': [process.execPath, CHILDREN, 'relay', ...responder],
    'dsh-sdk trace (recording, validating)': [
      process.execPath,
      CLI,
      'trace',
      '--quiet',
      '--out',
      join(dir, 'bench.trace.ndjson'),
      '--',
      ...responder,
    ],
  };
  const names = Object.keys(paths);
  const medians = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = 0; round < rounds; round++) {
    for (const name of [
      ...names.slice(round % names.length),
      ...names.slice(0, round % names.length),
    ]) {
      medians[name].push(median(await roundTrips(paths[name], count, bytes)));
    }
  }
  rmSync(dir, { recursive: true, force: true });
  const direct = medians[names[0]];
  console.log(
    `\nproxy latency: ${count} sequential session/prompt round trips of ${bytes} B per round, ${rounds} rounds (median round trip per round)`,
  );
  console.log(
    `  ${'path'.padEnd(44)} ${'median RTT µs'.padStart(16)} ${'min–max'.padStart(22)} ${'added/frame µs'.padStart(16)} ${'min–max'.padStart(16)}`,
  );
  for (const name of names) {
    const rtt = medians[name].map((ms) => ms * 1000);
    // Per round, against the direct path measured in the same round.
    const added = medians[name].map((ms, i) => ((ms - direct[i]) * 1000) / 2);
    const fmt = (n) => n.toFixed(1);
    const range = (xs) => `${fmt(Math.min(...xs))}–${fmt(Math.max(...xs))}`;
    console.log(
      `  ${name.padEnd(44)} ${fmt(median(rtt)).padStart(16)} ${range(rtt).padStart(22)} ${(name === names[0] ? '—' : fmt(median(added))).padStart(16)} ${(name === names[0] ? '' : range(added)).padStart(16)}`,
    );
  }
}
