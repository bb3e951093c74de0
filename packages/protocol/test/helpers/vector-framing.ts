// Runs framing/read (bytes → messages) through the real JsonRpcLineTransport and framing/write
// (messages → bytes) through its LineWriter (test-vectors/README.md, "framing").
import { PassThrough } from 'node:stream';
import { JsonRpcResponseError } from '../../src/errors.js';
import { LineWriter } from '../../src/line-writer.js';
import { createHarness, settle } from './harness.js';
import { isJsonObject } from './vectors.js';
import type { JsonObject } from './vectors.js';

export interface ReadExpectation {
  readonly description: string;
  readonly maxFrameBytes?: number;
  readonly splitAt?: readonly number[];
  readonly pendingRequests?: readonly string[];
  readonly messages: readonly JsonObject[];
  readonly reports: readonly { line: number; reason: string; message: string }[];
  /** Requests the transport answers with an error itself instead of delivering them. */
  readonly refusals?: readonly { id: string | number; code: number; message: string }[];
  readonly inputEnds?: boolean;
}

/** What the transport did with the bytes. */
export interface ReadObservation {
  /** Requests and notifications, in the order the handlers ran. */
  readonly inbound: JsonObject[];
  /** Responses, in the order they settled the runner's requests. */
  readonly responses: JsonObject[];
  /** Both, in the order they were observed. */
  readonly all: JsonObject[];
  readonly reports: { line: number | undefined; reason: string; message: string }[];
  /** What the transport wrote besides the runner's own requests: its answers. */
  readonly answers: unknown[];
}

/** The chunkings every case is fed in: whole, one byte at a time, and at `splitAt` if given. */
export function chunkings(bytes: Buffer, splitAt?: readonly number[]): [string, Buffer[]][] {
  const whole: Buffer[] = bytes.length > 0 ? [bytes] : [];
  const single = [...bytes].map((_, i) => bytes.subarray(i, i + 1));
  const modes: [string, Buffer[]][] = [
    ['fed whole', whole],
    ['fed byte by byte', single],
  ];
  if (splitAt) {
    const cuts = [0, ...splitAt, bytes.length];
    const pieces = cuts.slice(1).map((end, i) => bytes.subarray(cuts[i], end));
    modes.push(['fed at splitAt', pieces.filter((piece) => piece.length > 0)]);
  }
  return modes;
}

/** Every method name a file mentions, so that handlers exist for whatever it may carry. */
function mentionedMethods(bytes: Buffer, expectation: ReadExpectation): Set<string> {
  const methods = new Set<string>();
  for (const match of bytes.toString('latin1').matchAll(/"method"\s*:\s*("(?:[^"\\]|\\.)*")/g)) {
    methods.add(JSON.parse(match[1] as string) as string);
  }
  for (const message of expectation.messages) {
    if (typeof message['method'] === 'string') methods.add(message['method']);
  }
  return methods;
}

export async function runReadCase(
  bytes: Buffer,
  expectation: ReadExpectation,
  chunks: readonly Buffer[],
): Promise<ReadObservation> {
  const limit = expectation.maxFrameBytes;
  const harness = createHarness(limit === undefined ? {} : { maxFrameBytes: limit });
  const { transport } = harness;
  const inbound: JsonObject[] = [];
  const responses: JsonObject[] = [];
  const all: JsonObject[] = [];
  const observe = (list: JsonObject[], message: JsonObject): void => {
    list.push(message);
    all.push(message);
  };
  for (const method of mentionedMethods(bytes, expectation)) {
    transport.onRequest(method, (params, { id }) => {
      observe(inbound, { id, method, ...(params === undefined ? {} : { params }) });
      return null;
    });
    transport.onNotification(method, (params) => {
      observe(inbound, { method, ...(params === undefined ? {} : { params }) });
    });
  }
  transport.start();
  (expectation.pendingRequests ?? []).forEach((method, index) => {
    const id = index + 1;
    transport.request(method).then(
      (result) => observe(responses, { id, result }),
      (error: unknown) => {
        if (error instanceof JsonRpcResponseError) {
          observe(responses, { id, error: { ...error.toErrorObject() } });
        }
      },
    );
  });
  for (const chunk of chunks) {
    harness.input.write(chunk);
    await settle();
  }
  if (expectation.inputEnds ?? true) {
    harness.input.end();
    await transport.closed;
  } else {
    transport.close();
  }
  await settle();
  return {
    inbound,
    responses,
    all,
    reports: harness.diagnostics.map(({ line, reason, message }) => ({ line, reason, message })),
    answers: harness.sent.filter((frame) => !(isJsonObject(frame) && 'method' in frame)),
  };
}

/** An expected message as the runner can observe it: without `jsonrpc`, which is not compared. */
export function withoutJsonrpc(message: JsonObject): JsonObject {
  const { jsonrpc: _jsonrpc, ...rest } = message;
  return rest;
}

/** The exact bytes the transport's line writer produces for the messages, in order. */
export async function writeLines(messages: readonly object[]): Promise<Buffer> {
  const output = new PassThrough();
  const chunks: Buffer[] = [];
  output.on('data', (chunk: Buffer) => chunks.push(chunk));
  const writer = new LineWriter(output, (error) => {
    throw error;
  });
  for (const message of messages) await writer.write(message);
  await settle();
  return Buffer.concat(chunks);
}
