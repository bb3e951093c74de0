/// <reference types="node" preserve="true" />
// One line the runtime wrote, taken apart the way the kit judges it: bytes, UTF-8, strict JSON,
// compactness and the JSON-RPC kind. Nothing here trusts the line.

export type JsonObject = { readonly [key: string]: unknown };
export type JsonRpcId = string | number;

/** What a JSON-RPC object turned out to be. */
export type LineKind = 'response' | 'notification' | 'request' | 'not-a-message';

export interface ServerLine {
  /** 0-based among the runtime's lines. */
  readonly index: number;
  /** Milliseconds since the runtime started, when the kit read the line. */
  readonly at: number;
  readonly raw: Buffer;
  /** Set when the line is valid UTF-8. */
  readonly text?: string;
  /** Set when the text is strict JSON. */
  readonly value?: unknown;
  /** Set when the value is an object. */
  readonly message?: JsonObject;
  readonly kind?: LineKind;
}

const strictDecoder = new TextDecoder('utf-8', { fatal: true });

export function readServerLine(raw: Buffer, index: number, at: number): ServerLine {
  let text: string;
  try {
    text = strictDecoder.decode(raw);
  } catch {
    return { index, at, raw };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { index, at, raw, text };
  }
  if (!isObject(value)) return { index, at, raw, text, value };
  return { index, at, raw, text, value, message: value, kind: kindOf(value) };
}

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kindOf(message: JsonObject): LineKind {
  const hasId = message['id'] !== undefined;
  const hasMethod = message['method'] !== undefined;
  if (hasId && hasMethod) return 'request';
  if (hasMethod) return 'notification';
  if (hasId && (message['result'] !== undefined) !== (message['error'] !== undefined))
    return 'response';
  return 'not-a-message';
}

/** The key a JSON-RPC id is matched by: `"1"` and `1` differ, `1` and `1.0` do not. */
export function idKey(id: unknown): string {
  return JSON.stringify(id) ?? 'undefined';
}

/** Where the first byte of insignificant whitespace is (outside strings), or -1. */
export function firstLooseWhitespace(raw: Buffer): number {
  let inString = false;
  let escaped = false;
  for (let i = 0; i < raw.length; i++) {
    const byte = raw[i]!;
    if (inString) {
      if (escaped) escaped = false;
      else if (byte === 0x5c) escaped = true;
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) inString = true;
    else if (byte === 0x20 || byte === 0x09 || byte === 0x0d || byte === 0x0a) return i;
  }
  return -1;
}

/** The UTF-8 bytes of a lone surrogate (ED A0 80 … ED BF BF): what an unescaped one becomes. */
export function hasRawSurrogate(raw: Buffer): boolean {
  for (let i = 0; i + 1 < raw.length; i++) {
    if (raw[i] === 0xed && raw[i + 1]! >= 0xa0 && raw[i + 1]! <= 0xbf) return true;
  }
  return false;
}

/** A short, readable form of a line for a failure message. */
export function excerpt(line: Pick<ServerLine, 'raw' | 'text'>, max = 160): string {
  const text = line.text ?? line.raw.toString('latin1');
  const shown = text.length > max ? `${text.slice(0, max)}… (${line.raw.length} bytes)` : text;
  return JSON.stringify(shown);
}
