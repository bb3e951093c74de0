import { describe, expect, it } from 'vitest';
import schema from '../src/gen/protocol.schema.json' with { type: 'json' };
import * as validators from '../src/gen/validators.gen.js';
import type { Validator } from '../src/gen/validators.gen.js';
import { toViolations } from '../src/violations.js';

type Definitions = Record<string, { examples?: unknown[] }>;
const definitions = (schema as unknown as { definitions: Definitions }).definitions;

function pointers(validate: Validator<unknown>, value: unknown): string[] {
  const ok = validate(value);
  const found = [...new Set(toViolations(validate.errors).map((v) => v.pointer))].sort();
  if (ok) expect(found).toEqual([]);
  return found;
}

const initialize = { cwd: '/w', provider: 'echo', model: 'echo-1' };
const image = { type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' };

describe('generated validators', () => {
  it('accept every example of every payload type they check', () => {
    const checked: Array<[Validator<unknown>, string]> = [
      [validators.validateInitializeParams, 'InitializeParams'],
      [validators.validateInitializeResult, 'InitializeResult'],
      [validators.validateSessionPromptParams, 'SessionPromptParams'],
      [validators.validateSessionPromptResult, 'SessionPromptResult'],
      [validators.validateShutdownResult, 'ShutdownResult'],
      [validators.validateSessionEventNotification, 'SessionEventNotification'],
      [validators.validateSessionStatusNotification, 'SessionStatusNotification'],
      [validators.validateSubagentStartedNotification, 'SubagentStartedNotification'],
      [validators.validateSubagentFinishedNotification, 'SubagentFinishedNotification'],
    ];
    for (const [validate, name] of checked) {
      const examples = definitions[name]?.examples ?? [];
      expect(examples.length).toBeGreaterThan(0);
      for (const example of examples) expect(pointers(validate, example), name).toEqual([]);
    }
  });

  it.each([
    ['maxTokens 0', { ...initialize, maxTokens: 0 }, ['/maxTokens']],
    ['maxTokens -1', { ...initialize, maxTokens: -1 }, ['/maxTokens']],
    ['maxTokens 1.5', { ...initialize, maxTokens: 1.5 }, ['/maxTokens']],
    ['maxTokens 2^53', { ...initialize, maxTokens: 2 ** 53 }, ['/maxTokens']],
    ['maxTokens null', { ...initialize, maxTokens: null }, ['/maxTokens']],
    ['maxTokens a string', { ...initialize, maxTokens: '5' }, ['/maxTokens']],
    ['reasoningEffort empty', { ...initialize, reasoningEffort: '' }, ['/reasoningEffort']],
    ['cwd missing', { provider: 'echo', model: 'echo-1' }, ['/cwd']],
    ['provider a number', { ...initialize, provider: 42 }, ['/provider']],
    ['everything missing', {}, ['/cwd', '/model', '/provider']],
    ['params an array', [], ['']],
  ])('reject InitializeParams with %s', (_name, value, expected) => {
    expect(pointers(validators.validateInitializeParams, value)).toEqual(expected);
  });

  it('accepts maxTokens 2^53-1, a float-valued integer, and unknown properties', () => {
    expect(
      pointers(validators.validateInitializeParams, { ...initialize, maxTokens: 2 ** 53 - 1 }),
    ).toEqual([]);
    expect(
      pointers(
        validators.validateInitializeParams,
        JSON.parse('{"cwd":"/","provider":"p","model":"m","maxTokens":1.0}'),
      ),
    ).toEqual([]);
    expect(
      pointers(validators.validateInitializeParams, { ...initialize, futureField: { x: 1 } }),
    ).toEqual([]);
  });

  it.each([
    ['sessionId missing', { contentBlocks: [{ type: 'text', text: 'hi' }] }, ['/sessionId']],
    [
      'sessionId empty',
      { sessionId: '', contentBlocks: [{ type: 'text', text: 'hi' }] },
      ['/sessionId'],
    ],
    ['contentBlocks not an array', { sessionId: 's', contentBlocks: 'hi' }, ['/contentBlocks']],
    ['contentBlocks empty', { sessionId: 's', contentBlocks: [] }, ['/contentBlocks']],
    [
      'a text block without text',
      { sessionId: 's', contentBlocks: [{ type: 'text' }] },
      ['/contentBlocks/0/text'],
    ],
    [
      'a block without type',
      { sessionId: 's', contentBlocks: [{ text: 'x' }] },
      ['/contentBlocks/0/type'],
    ],
    [
      'an inline image without mimeType',
      { sessionId: 's', contentBlocks: [{ type: 'image', data: 'AAAA' }] },
      ['/contentBlocks/0/mimeType'],
    ],
    [
      'an inline image of an unsupported type',
      { sessionId: 's', contentBlocks: [{ ...image, mimeType: 'image/bmp' }] },
      ['/contentBlocks/0/mimeType'],
    ],
    [
      'an inline image with unpadded base64',
      { sessionId: 's', contentBlocks: [{ ...image, data: 'iVBORw0KGgo' }] },
      ['/contentBlocks/0/data'],
    ],
    [
      'an inline image with a line break in its base64',
      { sessionId: 's', contentBlocks: [{ ...image, data: 'iVBO\nRw0KGgo=' }] },
      ['/contentBlocks/0/data'],
    ],
    [
      'an inline image whose padding bits are not zero',
      { sessionId: 's', contentBlocks: [{ ...image, data: 'AB==' }] },
      ['/contentBlocks/0/data'],
    ],
    [
      'an inline image with a character outside base64',
      { sessionId: 's', contentBlocks: [{ ...image, data: 'AA-A' }] },
      ['/contentBlocks/0/data'],
    ],
    [
      'an image with both data and attachment',
      {
        sessionId: 's',
        contentBlocks: [{ ...image, attachment: { attachmentId: 'a', mediaType: 'image/png' } }],
      },
      ['/contentBlocks/0/attachment'],
    ],
    [
      'a durable image without attachmentId',
      {
        sessionId: 's',
        contentBlocks: [{ type: 'image', attachment: { mediaType: 'image/png' } }],
      },
      ['/contentBlocks/0/attachment/attachmentId'],
    ],
    [
      'an image with neither data nor attachment',
      { sessionId: 's', contentBlocks: [{ type: 'image' }] },
      ['/contentBlocks/0/attachment'],
    ],
    [
      'a tool result block with a bad nested block',
      {
        sessionId: 's',
        contentBlocks: [{ type: 'tool-result', toolCallId: 'c', content: [{ type: 'reasoning' }] }],
      },
      ['/contentBlocks/0/content/0/text'],
    ],
  ])('reject SessionPromptParams with %s', (_name, value, expected) => {
    expect(pointers(validators.validateSessionPromptParams, value)).toEqual(expected);
  });

  it('accept inline and durable images, and unknown block types with unknown fields', () => {
    const blocks = [
      image,
      { type: 'image', attachment: { attachmentId: 'a', mediaType: 'image/png', width: 3 } },
      { type: 'audio', seconds: 2 },
    ];
    expect(
      pointers(validators.validateSessionPromptParams, { sessionId: 's', contentBlocks: blocks }),
    ).toEqual([]);
  });

  it('accept a 16 MiB inline image without overflowing the regexp stack', () => {
    const data = Buffer.alloc(12 * 1024 * 1024, 7).toString('base64');
    expect(
      pointers(validators.validateSessionPromptParams, {
        sessionId: 's',
        contentBlocks: [{ ...image, data }],
      }),
    ).toEqual([]);
    expect(
      pointers(validators.validateSessionPromptParams, {
        sessionId: 's',
        contentBlocks: [{ ...image, data: `${data}A` }],
      }),
    ).toEqual(['/contentBlocks/0/data']);
  });

  it('reject a session.status other than running or idle', () => {
    expect(
      pointers(validators.validateSessionStatusNotification, { sessionId: 's', status: 'paused' }),
    ).toEqual(['/status']);
  });

  it('accept a session.event of an unknown type whose data carries unknown fields', () => {
    const event = {
      type: 'plugin/new',
      seq: 1,
      time: 5,
      data: { anything: [1, 2], nested: { deep: true } },
    };
    expect(
      pointers(validators.validateSessionEventNotification, { sessionId: 's', event }),
    ).toEqual([]);
  });

  it('reject a known session.event whose data breaks its shape, naming the field', () => {
    const event = { type: 'turn/end', seq: 1, time: 5, data: { turn: -1, reason: {} } };
    expect(
      pointers(validators.validateSessionEventNotification, { sessionId: 's', event }),
    ).toEqual(['/event/data/reason/kind', '/event/data/turn']);
  });

  it('accept an unknown turn/end reason kind and unknown stop reasons (open enums)', () => {
    const event = {
      type: 'turn/end',
      seq: 1,
      time: 5,
      data: { turn: 0, reason: { kind: 'timeout', after: 3 } },
    };
    expect(
      pointers(validators.validateSessionEventNotification, { sessionId: 's', event }),
    ).toEqual([]);
    const finished = {
      provider: 'echo',
      agentId: 'c',
      parentSessionId: 'p',
      childSessionId: 'c',
      status: 'ok',
      stopReason: 'budget',
    };
    expect(pointers(validators.validateSubagentFinishedNotification, finished)).toEqual([]);
    expect(
      pointers(validators.validateSubagentFinishedNotification, {
        ...finished,
        status: 'cancelled',
      }),
    ).toEqual(['/status']);
  });

  it('accept absent, empty-object and null shutdown params but not a string', () => {
    expect(pointers(validators.validateShutdownParams, {})).toEqual([]);
    expect(pointers(validators.validateShutdownParams, null)).toEqual([]);
    expect(pointers(validators.validateShutdownParams, 'now')).toEqual(['']);
  });

  it('check whole frames against the protocol', () => {
    expect(
      validators.validateProtocolFrame({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: initialize,
      }),
    ).toBe(true);
    expect(validators.validateProtocolFrame({ jsonrpc: '2.0', id: 'a', result: {} })).toBe(true);
    expect(validators.validateProtocolFrame({ jsonrpc: '2.0', id: 1, method: 'bogus' })).toBe(
      false,
    );
  });
});
