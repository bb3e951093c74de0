import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import {
  JsonRpcResponseError,
  RequestAbortedError,
  RequestTimeoutError,
  TransportClosedError,
} from '../src/index.js';

describe('JsonRpcResponseError', () => {
  test('keeps the wire code, message and data, and names itself', () => {
    const error = new JsonRpcResponseError(-32602, 'Invalid params', {
      data: [{ pointer: '', message: 'x' }],
    });
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('JsonRpcResponseError');
    expect(error.toErrorObject()).toEqual({
      code: -32602,
      message: 'Invalid params',
      data: [{ pointer: '', message: 'x' }],
    });
  });

  test('leaves data absent when none was given, and keeps a null one', () => {
    expect(Object.hasOwn(new JsonRpcResponseError(1, 'm'), 'data')).toBe(false);
    expect(Object.keys(new JsonRpcResponseError(1, 'm').toErrorObject())).toEqual([
      'code',
      'message',
    ]);
    expect(Object.hasOwn(new JsonRpcResponseError(1, 'm', { data: null }), 'data')).toBe(true);
    expect(new JsonRpcResponseError(1, 'm', { data: null }).toErrorObject()).toEqual({
      code: 1,
      message: 'm',
      data: null,
    });
  });

  test('round-trips an error object', () => {
    const wire = { code: -32002, message: 'Not initialized' };
    expect(JsonRpcResponseError.fromErrorObject(wire).toErrorObject()).toEqual(wire);
  });

  test('keeps the wire message apart from the readable one', () => {
    const data = [{ pointer: '/model', message: 'model "gpt-9" is not served by echo' }];
    const error = JsonRpcResponseError.fromErrorObject({
      code: -32602,
      message: 'Invalid params',
      data,
    });
    expect(error.message).toBe('Invalid params: /model: model "gpt-9" is not served by echo');
    expect(error.wireMessage).toBe('Invalid params');
    expect(error.data).toBe(data);
    expect(error.toErrorObject()).toEqual({ code: -32602, message: 'Invalid params', data });
  });

  // The same cases drive python/tests/test_errors.py.
  const fixture = JSON.parse(
    readFileSync(new URL('./fixtures/response-error-messages.json', import.meta.url), 'utf8'),
  ) as {
    cases: {
      description: string;
      code: number;
      message: string;
      data?: unknown;
      expected: string;
    }[];
  };
  test.each(fixture.cases.map((c) => [c.description, c] as const))('message: %s', (_, c) => {
    const error = JsonRpcResponseError.fromErrorObject(
      'data' in c
        ? { code: c.code, message: c.message, data: c.data }
        : { code: c.code, message: c.message },
    );
    expect(error.message).toBe(c.expected);
    expect(error.wireMessage).toBe(c.message);
  });

  test('keeps a cause when given one', () => {
    const cause = new Error('root');
    expect(new JsonRpcResponseError(1, 'm', { cause }).cause).toBe(cause);
  });
});

describe('transport errors', () => {
  test('each names itself and says what happened', () => {
    const closed = new TransportClosedError('input-ended', 'the input stream ended');
    expect([closed.name, closed.reason, closed.message]).toEqual([
      'TransportClosedError',
      'input-ended',
      'the input stream ended',
    ]);
    const timeout = new RequestTimeoutError('initialize', 3, 500);
    expect(timeout.name).toBe('RequestTimeoutError');
    expect(timeout.message).toBe('request 3 (initialize) got no response within 500 ms');
    const aborted = new RequestAbortedError('shutdown', 4, 'why');
    expect([aborted.name, aborted.id, aborted.cause]).toEqual(['RequestAbortedError', 4, 'why']);
    expect(Object.hasOwn(new RequestAbortedError('shutdown', undefined, 'why'), 'id')).toBe(false);
  });
});
