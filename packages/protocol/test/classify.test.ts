import { describe, expect, test } from 'vitest';
import {
  classifyMessage,
  isJsonObject,
  isJsonRpcErrorObject,
  isJsonRpcId,
} from '../src/classify.js';

function kindOf(text: string): string {
  const classified = classifyMessage(JSON.parse(text));
  return classified.kind === 'malformed' ? `malformed:${classified.reason}` : classified.kind;
}

describe('classifyMessage', () => {
  test.each([
    ['{"jsonrpc":"2.0","id":1,"method":"initialize","params":{}}', 'request'],
    ['{"id":"abc","method":"shutdown"}', 'request'],
    ['{"id":0,"method":"m"}', 'request'],
    ['{"id":"","method":"m"}', 'request'],
    ['{"id":-1.5,"method":"m"}', 'request'],
    ['{"id":1,"method":"m","params":null}', 'request'],
    ['{"jsonrpc":"2.0","method":"session.event","params":{}}', 'notification'],
    ['{"method":"m"}', 'notification'],
    ['{"jsonrpc":"2.0","id":1,"result":{}}', 'success'],
    ['{"id":0,"result":null}', 'success'],
    ['{"id":"x","result":false}', 'success'],
    ['{"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"Method not found"}}', 'error'],
    [
      '{"id":1,"error":{"code":-32602,"message":"bad","data":[{"pointer":"/a","message":"m"}]}}',
      'error',
    ],
    ['{"id":1,"error":{"code":1.0,"message":""}}', 'error'],
  ])('classifies %s as %s', (text, kind) => {
    expect(kindOf(text)).toBe(kind);
  });

  test.each([
    ['[]', 'batch-unsupported'],
    ['[{"id":1,"method":"m"}]', 'batch-unsupported'],
    ['1', 'not-an-object'],
    ['"text"', 'not-an-object'],
    ['true', 'not-an-object'],
    ['null', 'not-an-object'],
    ['{"id":null,"method":"m"}', 'invalid-id'],
    ['{"id":true,"method":"m"}', 'invalid-id'],
    ['{"id":{},"result":1}', 'invalid-id'],
    ['{"id":[1],"result":1}', 'invalid-id'],
    ['{"id":null,"error":{"code":-32700,"message":"Parse error"}}', 'invalid-id'],
    ['{"id":1e400,"method":"m"}', 'invalid-id'],
    ['{"jsonrpc":"1.0","id":1,"method":"m"}', 'invalid-message'],
    ['{"jsonrpc":2,"method":"m"}', 'invalid-message'],
    ['{"jsonrpc":null,"method":"m"}', 'invalid-message'],
    ['{}', 'invalid-message'],
    ['{"jsonrpc":"2.0","params":{}}', 'invalid-message'],
    ['{"method":1}', 'invalid-message'],
    ['{"id":1,"method":null}', 'invalid-message'],
    ['{"id":1}', 'invalid-message'],
    ['{"id":1,"result":1,"error":{"code":1,"message":"m"}}', 'invalid-message'],
    ['{"id":1,"error":"bad"}', 'invalid-message'],
    ['{"id":1,"error":null}', 'invalid-message'],
    ['{"id":1,"error":{"message":"m"}}', 'invalid-message'],
    ['{"id":1,"error":{"code":"1","message":"m"}}', 'invalid-message'],
    ['{"id":1,"error":{"code":1.5,"message":"m"}}', 'invalid-message'],
    ['{"id":1,"error":{"code":1}}', 'invalid-message'],
    ['{"id":1,"error":{"code":1,"message":2}}', 'invalid-message'],
  ])('classifies %s as malformed (%s)', (text, reason) => {
    expect(kindOf(text)).toBe(`malformed:${reason}`);
  });

  test('treats "result": null as a result, not as a missing one', () => {
    expect(kindOf('{"id":1,"result":null}')).toBe('success');
  });

  test('does not require the jsonrpc member', () => {
    expect(kindOf('{"id":1,"method":"m"}')).toBe('request');
    expect(kindOf('{"id":1,"result":1}')).toBe('success');
  });

  test('checks the id before the jsonrpc member', () => {
    expect(kindOf('{"jsonrpc":"1.0","id":null,"method":"m"}')).toBe('malformed:invalid-id');
  });

  test('returns the message itself, unknown members included', () => {
    const value: unknown = JSON.parse('{"id":7,"method":"m","params":[1],"extra":true}');
    const classified = classifyMessage(value);
    expect(classified.kind).toBe('request');
    expect(classified.kind === 'request' && classified.message).toBe(value);
  });

  test('keeps the valid id and method of a malformed message for the report', () => {
    expect(classifyMessage(JSON.parse('{"jsonrpc":"1.0","id":3,"method":"m"}'))).toEqual({
      kind: 'malformed',
      reason: 'invalid-message',
      detail: 'jsonrpc must be "2.0"',
      id: 3,
      method: 'm',
    });
    const invalidId = classifyMessage(JSON.parse('{"id":null,"method":"m"}'));
    expect(invalidId).toMatchObject({ reason: 'invalid-id', method: 'm' });
    expect(invalidId).not.toHaveProperty('id');
  });

  test('describes what was wrong', () => {
    expect(classifyMessage(JSON.parse('{"id":false,"method":"m"}'))).toMatchObject({
      detail: 'id must be a string or a number, got a boolean',
    });
    expect(classifyMessage(null)).toMatchObject({ detail: 'the message is null' });
  });
});

describe('type guards', () => {
  test('isJsonRpcId accepts strings and finite numbers only', () => {
    expect([0, -1, 2.5, '', 'a'].every(isJsonRpcId)).toBe(true);
    expect([null, true, {}, [], Infinity, Number.NaN, undefined].some(isJsonRpcId)).toBe(false);
  });

  test('isJsonRpcErrorObject wants an integer code and a string message', () => {
    expect(isJsonRpcErrorObject({ code: -32603, message: 'x', data: null })).toBe(true);
    expect(isJsonRpcErrorObject({ code: -1.5, message: 'x' })).toBe(false);
    expect(isJsonRpcErrorObject([])).toBe(false);
  });

  test('isJsonObject rejects arrays and null', () => {
    expect(isJsonObject({})).toBe(true);
    expect(isJsonObject([])).toBe(false);
    expect(isJsonObject(null)).toBe(false);
  });
});
