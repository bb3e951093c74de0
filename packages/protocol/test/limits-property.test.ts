// The protocol's limits as properties of the TypeScript transport and its generated ends: a value
// at every place a payload accepts open content, or at a typed number field, nested from the least
// depth that place allows to just past MAX_NESTING_DEPTH, with numbers inside and outside
// ±MAX_SAFE_INTEGER written as they are on the wire. python/tests/test_limits_property.py runs the
// same kinds of lines through both languages and compares them.
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import {
  HarnessSdkClientPeer,
  SERVER_NAME,
  serveHarnessSdk,
  type TransportDiagnostic,
} from '../src/index.js';
import { MAX_NESTING_DEPTH, MAX_SAFE_INTEGER } from '../src/gen/constants.gen.js';
import { createHarness, settle } from './helpers/harness.js';

/** Number literals as they stand on the wire. */
const NUMBERS = [
  '0',
  '-7',
  '9007199254740991',
  '-9007199254740991',
  '9007199254740992',
  '9007199254740993',
  '-9007199254740993',
  '18446744073709551616',
  '100000000000000000000',
  '1e20',
  '1E400',
  '-1e400',
  '1.5',
  '0.1',
  '1e-7',
  '1e-400',
  '4.5e15',
  '9007199254740991.4',
  '9007199254740991.6',
];
const OTHER_LEAVES = ['"text"', '"[{\\"]"', 'true', 'null'];

/** Whether a double holds the literal within the range (the judgement the protocol makes). */
const isSafe = (leaf: string): boolean =>
  !NUMBERS.includes(leaf) || Math.abs(Number(leaf)) <= MAX_SAFE_INTEGER;

interface Place {
  readonly name: string;
  /** The frame, with `{v}` for the value and `{n}` for the line number the params carry. */
  readonly template: string;
  /** How many containers enclose the value, the frame included. */
  readonly enclosing: number;
  /** The value's pointer into params; null for a member of the frame itself. */
  readonly pointer: string | null;
  readonly isRequest: boolean;
  readonly typed?: boolean;
  /** Tool-result blocks nested in each other's content (the IDL's own recursion), not plain containers. */
  readonly toolResults?: boolean;
}

const EVENT = '{"jsonrpc":"2.0","method":"session.event","params":{"sessionId":"s{n}","event":';
const PROMPT = '{"jsonrpc":"2.0","id":{n},"method":"session/prompt","params":{"sessionId":"s{n}",';
const INIT =
  '{"jsonrpc":"2.0","id":{n},"method":"initialize","params":{"cwd":"/{n}","provider":"echo","model":"echo-1",';
const PLACES: readonly Place[] = [
  {
    name: 'initialize, unknown member',
    template: `${INIT}"x":{v}}}`,
    enclosing: 2,
    pointer: '/x',
    isRequest: true,
  },
  {
    name: 'session/prompt, unknown block',
    template: `${PROMPT}"contentBlocks":[{"type":"audio","x":{v}}]}}`,
    enclosing: 4,
    pointer: '/contentBlocks/0/x',
    isRequest: true,
  },
  {
    name: 'shutdown, unknown member',
    template: '{"jsonrpc":"2.0","id":{n},"method":"shutdown","params":{"x":{v}}}',
    enclosing: 2,
    pointer: '/x',
    isRequest: true,
  },
  {
    name: "session.event, unknown event's data",
    template: `${EVENT}{"type":"plugin/x","seq":1,"time":1,"data":{"x":{v}}}}}`,
    enclosing: 4,
    pointer: '/event/data/x',
    isRequest: false,
  },
  {
    name: 'session.event, usage',
    template: `${EVENT}{"type":"assistant/message","seq":1,"time":1,"data":{"message":{"id":"m","role":"assistant","content":[]},"usage":{"x":{v}}}}}}`,
    enclosing: 5,
    pointer: '/event/data/usage/x',
    isRequest: false,
  },
  {
    name: 'subagent.finished, unknown block',
    template:
      '{"jsonrpc":"2.0","method":"subagent.finished","params":{"provider":"p","agentId":"a","parentSessionId":"s{n}","childSessionId":"c","status":"ok","stopReason":"completed","lastAssistantMessage":[{"type":"future","x":{v}}]}}',
    enclosing: 4,
    pointer: '/lastAssistantMessage/0/x',
    isRequest: false,
  },
  {
    name: 'a member of the frame itself',
    template:
      '{"jsonrpc":"2.0","method":"session.status","params":{"sessionId":"s{n}","status":"idle"},"x":{v}}',
    enclosing: 1,
    pointer: null,
    isRequest: false,
  },
  {
    name: 'session.event, seq',
    template: `${EVENT}{"type":"turn/start","seq":{v},"time":1,"data":{"turn":0}}}}`,
    enclosing: 3,
    pointer: '/event/seq',
    isRequest: false,
    typed: true,
  },
  {
    name: 'initialize, maxTokens',
    template: `${INIT}"maxTokens":{v}}}`,
    enclosing: 2,
    pointer: '/maxTokens',
    isRequest: true,
    typed: true,
  },
  {
    name: 'session.event, tool-result content in tool-result content',
    template: `${EVENT}{"type":"assistant/chunk","seq":1,"time":1,"data":{"turn":0,"step":0,"delta":{v}}}}}`,
    enclosing: 4,
    pointer: '/event/data/delta',
    isRequest: false,
    toolResults: true,
  },
];

interface Case {
  readonly place: Place;
  readonly containers: number;
  readonly leaf: string;
}

const caseArbitrary: fc.Arbitrary<Case> = fc.constantFrom(...PLACES).chain((place) =>
  place.typed
    ? fc.record({
        place: fc.constant(place),
        containers: fc.constant(0),
        leaf: fc.constantFrom(...NUMBERS),
      })
    : fc.record({
        place: fc.constant(place),
        containers: fc.integer({
          min: place.toolResults ? 1 : 0,
          max: MAX_NESTING_DEPTH + 2 - place.enclosing,
        }),
        leaf: fc.constantFrom(...NUMBERS, ...OTHER_LEAVES),
      }),
);

function lineOf({ place, containers, leaf }: Case, n: number): string {
  let value = leaf;
  if (place.toolResults) {
    const wraps = Math.floor((containers - 1) / 2);
    value = `{"type":"text","text":"t","n":${(containers - 1) % 2 ? `[${leaf}]` : leaf}}`;
    for (let i = 0; i < wraps; i += 1)
      value = `{"type":"tool-result","toolCallId":"c","content":[${value}]}`;
  } else {
    for (let level = 0; level < containers; level += 1)
      value = level % 2 ? `[${value},"s"]` : `{"k":${value},"n":1}`;
  }
  return place.template.replaceAll('{n}', String(n)).replace('{v}', value);
}

function leafPointer({ place, containers }: Case): string {
  if (place.toolResults) {
    const wraps = Math.floor((containers - 1) / 2);
    return `${'/content/0'.repeat(wraps)}/n${(containers - 1) % 2 ? '/0' : ''}`;
  }
  let pointer = '';
  for (let level = containers - 1; level >= 0; level -= 1) pointer += level % 2 ? '/0' : '/k';
  return pointer;
}

/** Runs the lines through a transport serving the server end, the client end subscribed. */
async function run(lines: readonly string[]) {
  const { transport, send, sent, diagnostics } = createHarness();
  const delivered = new Map<string, unknown>();
  const record = (tag: unknown, params: unknown) => void delivered.set(String(tag), params);
  serveHarnessSdk(transport, {
    initialize(params) {
      record(params.cwd.slice(1), params);
      return { serverInfo: { name: SERVER_NAME, version: '1' } };
    },
    sessionPrompt(params) {
      record(params.sessionId.slice(1), params);
      return { messageId: 'm-1' };
    },
    sessionInterrupt: () => ({ found: false, wasRunning: false }),
    sessionClose: () => ({ found: false }),
    shutdown: () => ({}),
  });
  const client = new HarnessSdkClientPeer(transport);
  client.onSessionEvent((params) => record(params.sessionId.slice(1), params));
  client.onSessionStatus((params) => record(params.sessionId.slice(1), params));
  client.onSubagentFinished((params) => record(params.parentSessionId.slice(1), params));
  transport.start();
  for (const line of lines) send(`${line}\n`);
  await settle();
  await settle();
  const answers = new Map<unknown, Record<string, unknown>>();
  for (const answer of sent as Record<string, unknown>[]) {
    expect(answers.has(answer['id']), 'a request was answered twice').toBe(false);
    answers.set(answer['id'], answer);
  }
  const reports = new Map<number | undefined, TransportDiagnostic>(
    diagnostics.map((d) => [d.line, d]),
  );
  return { answers, reports, delivered };
}

async function check(cases: readonly Case[]): Promise<void> {
  const lines = cases.map((c, i) => lineOf(c, i + 1));
  const { answers, reports, delivered } = await run(lines);
  cases.forEach((c, i) => {
    const n = i + 1;
    const label = `${c.place.name}, ${c.containers} containers around ${c.leaf}`;
    const wire = JSON.parse(lines[i] ?? '') as { params: unknown; method: string };
    if (c.place.isRequest)
      expect(answers.has(n), `line ${n} (${label}) was not answered`).toBe(true);
    if (c.place.enclosing + c.containers > MAX_NESTING_DEPTH) {
      expect(reports.get(n)?.reason, label).toBe('nesting-too-deep');
      if (c.place.isRequest)
        expect(answers.get(n)?.['error'], label).toMatchObject({ code: -32600 });
      expect(delivered.has(String(n)), label).toBe(false);
      return;
    }
    if (!isSafe(c.leaf) && c.place.pointer !== null) {
      const pointer = c.place.pointer + leafPointer(c);
      if (c.place.isRequest) {
        const error = answers.get(n)?.['error'] as { code: number; data: { pointer: string }[] };
        expect(error.code, label).toBe(-32602);
        expect(
          error.data.map((v) => v.pointer),
          label,
        ).toContain(pointer);
      } else {
        const report = reports.get(n);
        expect(report?.reason, label).toBe('invalid-notification-params');
        expect(
          report?.violations?.map((v) => v.pointer),
          label,
        ).toContain(pointer);
      }
      expect(delivered.has(String(n)), label).toBe(false);
      return;
    }
    if (c.place.typed) return; // a safe number may still break the field's own bounds
    expect(reports.has(n), label).toBe(false);
    if (c.place.pointer === null || wire.method === 'shutdown') return;
    // Delivered unchanged, and written back out as the same JSON value.
    expect(delivered.get(String(n)), label).toEqual(wire.params);
    expect(JSON.parse(JSON.stringify(delivered.get(String(n)))), label).toEqual(wire.params);
  });
}

describe('limits, as properties of the TypeScript ends', () => {
  test('every place, at the limit and past it, with every number', async () => {
    const cases: Case[] = [];
    for (const place of PLACES) {
      for (const leaf of NUMBERS)
        cases.push({ place, containers: place.toolResults ? 1 : 0, leaf });
      if (place.typed) continue;
      for (const depth of [MAX_NESTING_DEPTH - 1, MAX_NESTING_DEPTH, MAX_NESTING_DEPTH + 1])
        for (const leaf of ['9007199254740991', '9007199254740993'])
          cases.push({ place, containers: depth - place.enclosing, leaf });
    }
    await check(cases);
  });

  test('any value at any depth: the verdict, its pointer, a lossless delivery, an answer', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(caseArbitrary, { minLength: 1, maxLength: 40 }), check),
      { numRuns: 100 },
    );
  });
});
