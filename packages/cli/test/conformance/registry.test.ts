// The registry holds together: every requirement has a case (or the monitor judges it in all),
// every case judges known requirements, ids are stable in form, and the cases the IDL derives
// follow the IDL without a hand edit.
import { CAPABILITIES, METHOD_VALIDATORS } from '@dsh-sdk/protocol';
import AjvModule from 'ajv';
import { describe, expect, it } from 'vitest';
import { CLIENT_MONITORED } from '../../src/conformance/client/client-monitor.js';
import { clientCases } from '../../src/conformance/client/kit.js';
import { schemaDefinitions } from '../../src/conformance/idl-data.js';
import { REQUIREMENTS } from '../../src/conformance/requirements/index.js';
import type { PeerKind } from '../../src/conformance/requirements/index.js';
import { runtimeCases } from '../../src/conformance/runtime/all-cases.js';
import { negativeInstances } from '../../src/conformance/runtime/instances.js';
import { MONITORED_REQUIREMENTS } from '../../src/conformance/runtime/monitor.js';
import { acceptancesOf, refusalsOf } from '../../src/conformance/runtime/params-instances.js';
import { sequenceOrders } from '../../src/conformance/runtime/sequence-order.js';

const Ajv = AjvModule.default;
const CASES: Record<PeerKind, readonly { id: string; requirements: readonly string[] }[]> = {
  runtime: runtimeCases(),
  client: clientCases(),
};
const MONITORED: Record<PeerKind, readonly string[]> = {
  runtime: MONITORED_REQUIREMENTS,
  client: CLIENT_MONITORED,
};
const ROUTE = { cwd: '/tmp', provider: 'echo', model: 'echo-1' };

describe.each(['runtime', 'client'] as const)('the %s registry', (kind) => {
  const requirements = REQUIREMENTS[kind];

  it('names every requirement DSH-<AREA>-<NNN>, once, with a tier, a citation and a title', () => {
    const ids = requirements.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const r of requirements) {
      expect(r.id).toMatch(/^DSH-[A-Z]+-\d{3}$/);
      expect(r.citation).toMatch(
        /WIRE\.md §\d|protocol\.idl\.json#\/|test-vectors\/|docs\/conformance\.md/,
      );
      expect(r.title.length).toBeGreaterThan(20);
      expect(r.tier === 'CAPABILITY', r.id).toBe(r.capability !== undefined);
      if (r.capability) expect(CAPABILITIES.map((c) => c.name)).toContain(r.capability);
    }
  });

  it('has a case for every requirement, and a known requirement for every case', () => {
    const judged = new Set([...MONITORED[kind], ...CASES[kind].flatMap((c) => c.requirements)]);
    const known = new Set(requirements.map((r) => r.id));
    expect(requirements.map((r) => r.id).filter((id) => !judged.has(id))).toEqual([]);
    expect([...judged].filter((id) => !known.has(id))).toEqual([]);
    for (const c of CASES[kind]) expect(c.requirements.length, c.id).toBeGreaterThan(0);
    const ids = CASES[kind].map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('cases derived from the IDL', () => {
  it("breaks every member of every params type, each refused by the IDL's own validator", () => {
    const pointers = refusalsOf('initialize', ROUTE, 2).flatMap((r) => r.pointers);
    for (const pointer of [
      '/cwd',
      '/provider',
      '/model',
      '/reasoningEffort',
      '/maxTokens',
      '/protocolVersion',
    ])
      expect(pointers).toContain(pointer);
    const prompt = refusalsOf('session/prompt', ROUTE, 2);
    expect(prompt.map((r) => r.pointers[0])).toEqual(
      expect.arrayContaining([
        '/sessionId',
        '/contentBlocks',
        '/contentBlocks/0/text',
        '/contentBlocks/0/mimeType',
      ]),
    );
    for (const refusal of prompt.filter((r) => r.raw === undefined))
      expect(METHOD_VALIDATORS['session/prompt'].params(refusal.params), refusal.label).toBe(false);
    expect(
      refusalsOf('session/interrupt', ROUTE, 2).every((r) => r.pointers.includes('/sessionId')),
    ).toBe(true);
  });

  it('leaves out what a version 1 runtime does not know', () => {
    expect(refusalsOf('initialize', ROUTE, 1).flatMap((r) => r.pointers)).not.toContain(
      '/protocolVersion',
    );
  });

  it('follows an IDL change: a new required member gets its instance without a hand edit', () => {
    const definitions = schemaDefinitions();
    const params = definitions['SessionInterruptParams']!;
    const changed = {
      ...definitions,
      SessionInterruptParams: {
        ...params,
        required: ['sessionId', 'reason'],
        properties: {
          ...(params['properties'] as object),
          reason: { type: 'string', minLength: 2 },
        },
      },
    };
    // The validators regenerate from the IDL too: here, one compiled from the changed schema.
    const validate = new Ajv({ allErrors: true, strict: false }).compile({
      ...changed.SessionInterruptParams,
      definitions: changed,
    });
    const instances = negativeInstances(
      'session/interrupt',
      'SessionInterruptParams',
      [{ sessionId: 's', reason: 'why' }],
      changed,
      validate,
    );
    expect(instances.map((i) => i.label)).toEqual(
      expect.arrayContaining([
        '/reason missing',
        '/reason of the wrong type (true)',
        '/reason shorter than 2',
      ]),
    );
    expect(instances.map((i) => i.pointer)).toContain('/sessionId');
  });

  it('accepts the IDL examples and the golden valid requests, durable images left out', () => {
    const accepted = acceptancesOf('session/prompt');
    expect(accepted.some((a) => a.label.startsWith("the IDL's example"))).toBe(true);
    expect(accepted.some((a) => a.label.startsWith('open-unions/'))).toBe(true);
    const blocks = accepted.flatMap(
      (a) =>
        (a.params as { contentBlocks: { type: string; attachment?: unknown }[] }).contentBlocks,
    );
    expect(blocks.filter((b) => b.type === 'image' && b.attachment !== undefined)).toEqual([]);
    expect(blocks.some((b) => b.type !== 'image' && b.attachment !== undefined)).toBe(true);
  });

  it("reads the IDL's sequences as ordered markers", () => {
    const promptLife = sequenceOrders()
      .get('promptLife')!
      .markers.map((m) => m.label);
    expect(promptLife).toEqual([
      'session.status status="running"',
      'agent/inbox/spliced',
      'turn/start',
      'user/message',
      'step/start',
      'assistant/chunk',
      'assistant/message',
      'step/end',
      'turn/end',
      'session.status status="idle"',
    ]);
  });

  it('makes a case of every golden runtime conversation that needs no paced turn', () => {
    const ids = runtimeCases().map((c) => c.id);
    expect(ids).toContain('vector.exchange.runtime-second-initialize-refused');
    expect(ids).toContain('vector.exchange.runtime-v1-mode-answers-without-version');
    expect(ids).not.toContain('vector.exchange.runtime-interrupt-running-turn');
    expect(ids).toContain('vector.framing-read');
  });
});
