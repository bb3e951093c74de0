// Timing helpers: every competitor of a scenario runs once per round, in a rotating order, so
// they share the machine's noise; we report medians, min–max, and ratios to the floor.
import os from 'node:os';

/** Runs `competitors` (name → async () => work count) for `rounds` rounds; returns stats per name. */
export async function compare(competitors, { rounds = 7, warmup = 2 } = {}) {
  const names = Object.keys(competitors);
  const samples = Object.fromEntries(names.map((n) => [n, []]));
  for (let round = -warmup; round < rounds; round++) {
    const order = rotate(names, round + warmup);
    for (const name of order) {
      globalThis.gc?.();
      const start = process.hrtime.bigint();
      const units = await competitors[name]();
      const ms = Number(process.hrtime.bigint() - start) / 1e6;
      if (round >= 0) samples[name].push({ ms, units });
    }
  }
  return Object.fromEntries(names.map((n) => [n, summarize(samples[n])]));
}

function rotate(list, by) {
  const k = by % list.length;
  return [...list.slice(k), ...list.slice(0, k)];
}

function summarize(runs) {
  const perRound = runs.map((r) => (r.units / r.ms) * 1000);
  const rates = [...perRound].sort((a, b) => a - b);
  const times = runs.map((r) => r.ms).sort((a, b) => a - b);
  const mid = (xs) =>
    xs.length % 2 ? xs[(xs.length - 1) / 2] : (xs[xs.length / 2 - 1] + xs[xs.length / 2]) / 2;
  return {
    perRound,
    rate: mid(rates),
    rateMin: rates[0],
    rateMax: rates.at(-1),
    ms: mid(times),
    msMin: times[0],
    msMax: times.at(-1),
  };
}

const fmt = (n) => (n >= 100 ? n.toFixed(0) : n >= 10 ? n.toFixed(1) : n.toFixed(2));

/** Prints a throughput table (messages per second, higher is better). */
export function printRates(title, stats, floorName, unit = 'msg/s') {
  const floor = stats[floorName].rate;
  console.log(`\n${title}`);
  console.log(
    `  ${'implementation'.padEnd(44)} ${`median ${unit}`.padStart(16)} ${'min–max'.padStart(22)} ${'× floor'.padStart(8)}`,
  );
  for (const [name, s] of Object.entries(stats)) {
    const range = `${fmt(s.rateMin)}–${fmt(s.rateMax)}`;
    console.log(
      `  ${name.padEnd(44)} ${fmt(s.rate).padStart(16)} ${range.padStart(22)} ${(s.rate / floor).toFixed(2).padStart(8)}`,
    );
  }
}

/** Prints a time table (milliseconds, lower is better); the ratio is time / floor time. */
export function printTimes(title, stats, floorName) {
  const floor = stats[floorName].ms;
  console.log(`\n${title}`);
  console.log(
    `  ${'implementation'.padEnd(44)} ${'median ms'.padStart(16)} ${'min–max'.padStart(22)} ${'time/floor'.padStart(10)}`,
  );
  for (const [name, s] of Object.entries(stats)) {
    const range = `${fmt(s.msMin)}–${fmt(s.msMax)}`;
    console.log(
      `  ${name.padEnd(44)} ${fmt(s.ms).padStart(16)} ${range.padStart(22)} ${(s.ms / floor).toFixed(2).padStart(10)}`,
    );
  }
}

/** The machine's load averages (1, 5, 15 min) and core count, for the report. */
export function loadLine() {
  const [one, five, fifteen] = os.loadavg().map((n) => n.toFixed(2));
  return `load ${one} ${five} ${fifteen} on ${os.availableParallelism()} cores`;
}

/**
 * The targets, checked against ratios of one run: the median ratio, and the min–max of the
 * ratios of the rounds (each competitor of a round ran beside the others, so rounds pair up).
 */
export class Targets {
  lines = [];

  /** `stats[name]` against `stats[base]`, speeds (higher is better); `want` is the least ratio. */
  check(what, stats, name, base, want) {
    const ratio = stats[name].rate / stats[base].rate;
    const rounds = stats[name].perRound.map((r, i) => r / stats[base].perRound[i]);
    const low = Math.min(...rounds).toFixed(2);
    const high = Math.max(...rounds).toFixed(2);
    const verdict = ratio >= want ? 'met' : 'MISSED';
    const line = `${what}: ${ratio.toFixed(2)}× (rounds ${low}–${high}), target ≥ ${want} — ${verdict}`;
    this.lines.push(line);
    console.log(`  -> ${line}`);
  }

  printSummary() {
    const missed = this.lines.filter((l) => l.endsWith('MISSED'));
    console.log(`\ntargets: ${this.lines.length - missed.length} of ${this.lines.length} met`);
    for (const line of missed) console.log(`  missed: ${line}`);
  }
}
