import { describe, expect, test } from 'vitest';
import { EchoAdapter, cutIntoPieces, isModelRoute, resolveRoute } from '../src/index.js';
import type { ModelRoute } from '../src/index.js';

const echo = new EchoAdapter();
const base = { cwd: '/', provider: 'echo', model: 'echo-1' };

function route(extra: object = {}): ModelRoute {
  return resolveRoute([echo], { ...base, ...extra });
}

describe('the echo adapter', () => {
  test('resolves the default effort when none is requested', () => {
    expect(route()).toMatchObject({ provider: 'echo', model: 'echo-1', reasoningEffort: 'medium' });
    expect(route()).not.toHaveProperty('maxTokens');
    expect(route({ reasoningEffort: 'high', maxTokens: 3 })).toMatchObject({
      reasoningEffort: 'high',
      maxTokens: 3,
    });
  });

  test('returns a violation, not a route, for what it does not serve', () => {
    const resolved = echo.resolveRoute({ ...base, model: 'echo-2' });
    expect(isModelRoute(resolved)).toBe(false);
    expect(() => resolveRoute([], base)).toThrow(
      expect.objectContaining({
        code: -32602,
        data: [{ pointer: '/provider', message: 'provider "echo" is not served; served: ' }],
      }),
    );
  });

  test('cuts text every n code points', () => {
    expect(cutIntoPieces('', 16)).toEqual([]);
    expect(cutIntoPieces('abcdef', 4)).toEqual(['abcd', 'ef']);
    expect(cutIntoPieces('🎉🎉🎉', 2)).toEqual(['🎉🎉', '🎉']);
  });

  test('echoes text and images, and counts usage', () => {
    const prompt = {
      texts: ['héllo', 'world'],
      images: [{ attachmentId: 'sha256-ab', mediaType: 'image/gif', byteLength: 7 }],
    };
    const reply = echo.generateReply(prompt, route());
    expect(reply.text).toBe('Echo: héllo\nworld\n[image image/gif, 7 bytes, sha256-ab]');
    expect(reply.pieces.join('')).toBe(reply.text);
    expect(reply.usage).toEqual({ inputTokens: 11, outputTokens: reply.pieces.length });
    expect(reply.finish).toBe('completed');
  });

  test('delegates only when the first text block starts with "/delegate "', () => {
    expect(echo.chooseDelegation({ texts: ['/delegate do it'], images: [] })).toBe('do it');
    expect(echo.chooseDelegation({ texts: ['/delegate'], images: [] })).toBeUndefined();
    expect(echo.chooseDelegation({ texts: ['hi', '/delegate no'], images: [] })).toBeUndefined();
    const reply = echo.generateReply({ texts: ['/delegate x'], images: [] }, route(), {
      childSessionId: 's/child1',
      text: 'Echo: x',
    });
    expect(reply.text).toBe('Delegated to s/child1: Echo: x');
  });

  test('stops at maxTokens pieces', () => {
    const reply = echo.generateReply(
      { texts: ['x'.repeat(40)], images: [] },
      route({ maxTokens: 2 }),
    );
    expect(reply).toMatchObject({
      pieces: ['Echo: xxxxxxxxxx', 'x'.repeat(16)],
      finish: 'max-tokens',
    });
    expect(reply.usage.outputTokens).toBe(2);
    const exact = echo.generateReply(
      { texts: ['x'.repeat(10)], images: [] },
      route({ maxTokens: 1 }),
    );
    expect(exact.finish).toBe('completed');
  });
});
