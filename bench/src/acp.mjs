// ACP rows: decoding and validating ACP frames with our generated validators against the official
// TypeScript SDK's zod schemas, and `dsh-sdk acp`'s first-chunk latency and chunk throughput
// against talking to the runtime directly with @dsh-sdk/client.
import { spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { validatePromptRequest, validateSessionNotification } from '@dsh-sdk/acp';
import { HarnessClient } from '@dsh-sdk/client';
import { compare, printRates } from './measure.mjs';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const CLI = `${REPO}packages/cli/dist/main.js`;
const RUNTIME = `${REPO}packages/runtime/dist/main.js`;

/** The official SDK validates what it receives with these (generated zod schemas, not exported). */
const zod = await import(
  new URL('../schema/zod.gen.js', import.meta.resolve('@agentclientprotocol/sdk')).href
);

/** A turn's worth of ACP frames: a prompt with text and an image, then streamed updates. */
function acpLines(count) {
  const lines = [];
  for (let i = 0; i < count; i++) {
    if (i % 50 === 0) {
      const prompt = [
        { type: 'text', text: `Explain step ${i} of the plan, briefly.` },
        { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
        { type: 'resource_link', name: 'main.ts', uri: 'file:///w/main.ts' },
      ];
      lines.push({ id: i, method: 'session/prompt', params: { sessionId: 'acp-1', prompt } });
    } else if (i % 10 === 0) {
      const update = {
        sessionUpdate: 'tool_call',
        toolCallId: `call-${i}`,
        title: 'delegate',
        kind: 'other',
        status: 'in_progress',
        rawInput: { task: 'count the files' },
      };
      lines.push({ method: 'session/update', params: { sessionId: 'acp-1', update } });
    } else {
      const sessionUpdate = i % 3 === 0 ? 'agent_thought_chunk' : 'agent_message_chunk';
      const content = { type: 'text', text: 'The quick brown fox jumps over the lazy dog. ' };
      lines.push({
        method: 'session/update',
        params: { sessionId: 'acp-1', update: { sessionUpdate, content } },
      });
    }
  }
  return lines.map((frame) => Buffer.from(`${JSON.stringify({ jsonrpc: '2.0', ...frame })}\n`));
}

/** Splits each buffer's line and parses it, then checks its params with `check`. */
function decodeWith(lines, check) {
  let valid = 0;
  for (const line of lines) {
    const frame = JSON.parse(line.subarray(0, line.length - 1).toString('utf8'));
    if (check === null || check(frame)) valid++;
  }
  if (check !== null && valid !== lines.length) throw new Error(`only ${valid} frames valid`);
  return lines.length;
}

const ours = (frame) =>
  frame.method === 'session/prompt'
    ? validatePromptRequest(frame.params)
    : validateSessionNotification(frame.params);
const theirs = (frame) =>
  (frame.method === 'session/prompt' ? zod.zPromptRequest : zod.zSessionNotification).safeParse(
    frame.params,
  ).success;

export async function acpDecodeScenario({ rounds, count }) {
  const lines = acpLines(count);
  const floor = 'floor: JSON.parse, no validation';
  const stats = await compare(
    {
      [floor]: () => decodeWith(lines, null),
      'dsh-sdk generated validators (ajv)': () => decodeWith(lines, ours),
      'official ACP SDK 2.4.0 schemas (zod 4)': () => decodeWith(lines, theirs),
    },
    { rounds },
  );
  printRates(
    `ACP frames decoded and validated: ${count} (session/update chunks and tool calls, a session/prompt every 50)`,
    stats,
    floor,
  );
  return stats;
}

/** Direct: @dsh-sdk/client streams a reply from the runtime. Returns per-run latency and rate. */
async function directRuns(text, runs) {
  const client = await HarnessClient.spawn({
    command: ['node', RUNTIME],
    initialize: { cwd: process.cwd(), provider: 'echo', model: 'echo-1' },
  });
  const results = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    let first;
    let chunks = 0;
    for await (const _ of client.streamText(text)) {
      first ??= process.hrtime.bigint();
      chunks++;
    }
    results.push(sample(start, first, chunks));
  }
  await client.shutdown();
  return results;
}

/** Through the bridge: a minimal NDJSON ACP client, so the client's own cost stays small. */
async function bridgeRuns(text, runs) {
  const child = spawn(
    'node',
    [CLI, 'acp', '--provider', 'echo', '--model', 'echo-1', '--', 'node', RUNTIME],
    {
      stdio: ['pipe', 'pipe', 'inherit'],
    },
  );
  let onLine = () => {};
  createInterface({ input: child.stdout }).on('line', (line) => onLine(JSON.parse(line)));
  const request = (id, method, params) =>
    new Promise((resolve) => {
      child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`);
      onLine = (m) => m.id === id && resolve(m.result);
    });
  await request(0, 'initialize', { protocolVersion: 1 });
  const { sessionId } = await request(1, 'session/new', { cwd: process.cwd(), mcpServers: [] });
  const results = [];
  for (let i = 0; i < runs; i++) {
    const start = process.hrtime.bigint();
    let first;
    let chunks = 0;
    await new Promise((resolve) => {
      onLine = (m) => {
        if (m.method === 'session/update') {
          first ??= process.hrtime.bigint();
          chunks++;
        } else if (m.id === 100 + i) resolve();
      };
      const params = { sessionId, prompt: [{ type: 'text', text }] };
      child.stdin.write(
        `${JSON.stringify({ jsonrpc: '2.0', id: 100 + i, method: 'session/prompt', params })}\n`,
      );
    });
    results.push(sample(start, first, chunks));
  }
  child.stdin.end();
  await new Promise((resolve) => child.on('close', resolve));
  return results;
}

function sample(start, first, chunks) {
  const end = process.hrtime.bigint();
  return {
    firstMs: Number(first - start) / 1e6,
    chunksPerS: chunks / (Number(end - start) / 1e9),
  };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};
const describe = (xs, digits) =>
  `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;

export async function acpBridgeScenario({ rounds, chunks }) {
  // The runtime cuts its reply every 16 code points: "Echo: " + text gives `chunks` pieces.
  const text = 'x'.repeat(chunks * 16 - 6);
  const short = 'hello';
  // Warm-up runs are dropped; the two paths alternate so they share the machine's noise.
  const direct = { first: [], rate: [] };
  const bridged = { first: [], rate: [] };
  for (let round = 0; round < rounds; round++) {
    const [d1] = (await directRuns(short, 3)).slice(-1);
    const [d2] = (await directRuns(text, 2)).slice(-1);
    const [b1] = (await bridgeRuns(short, 3)).slice(-1);
    const [b2] = (await bridgeRuns(text, 2)).slice(-1);
    direct.first.push(d1.firstMs);
    direct.rate.push(d2.chunksPerS);
    bridged.first.push(b1.firstMs);
    bridged.rate.push(b2.chunksPerS);
  }
  console.log(
    `\ndsh-sdk acp vs the runtime directly (TS runtime, echo provider), ${rounds} rounds`,
  );
  console.log(
    `  ${''.padEnd(40)} ${'first chunk, ms'.padStart(24)} ${`chunks/s (${chunks}-chunk reply)`.padStart(30)}`,
  );
  console.log(
    `  ${'@dsh-sdk/client, direct'.padEnd(40)} ${describe(direct.first, 2).padStart(24)} ${describe(direct.rate, 0).padStart(30)}`,
  );
  console.log(
    `  ${'ACP client → dsh-sdk acp → runtime'.padEnd(40)} ${describe(bridged.first, 2).padStart(24)} ${describe(bridged.rate, 0).padStart(30)}`,
  );
  console.log(
    `  bridge / direct: first chunk ${(median(bridged.first) / median(direct.first)).toFixed(2)}× the time, throughput ${(median(bridged.rate) / median(direct.rate)).toFixed(2)}×`,
  );
}
