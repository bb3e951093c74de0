import { PassThrough } from 'node:stream';
import { JsonRpcLineTransport } from '../../src/transport.js';
import type { JsonRpcLineTransportOptions } from '../../src/transport.js';
import type { TransportDiagnostic } from '../../src/diagnostics.js';

/** A transport over in-memory streams, with the other end driven by the test. */
export interface Harness {
  readonly transport: JsonRpcLineTransport;
  /** What the peer writes; the transport reads it. */
  readonly input: PassThrough;
  /** What the transport writes; the peer reads it. */
  readonly output: PassThrough;
  /** Every diagnostic the transport reported, in order. */
  readonly diagnostics: TransportDiagnostic[];
  /** Every line the transport wrote, parsed. */
  readonly sent: unknown[];
  /** Every line the transport wrote, as text. */
  readonly sentLines: string[];
  /** Writes a message (serialized as one line) or raw text to the transport's input. */
  send(message: object | string | Buffer): void;
}

export function createHarness(
  options: Partial<Omit<JsonRpcLineTransportOptions, 'input' | 'output'>> = {},
): Harness {
  const input = new PassThrough();
  const output = new PassThrough();
  const diagnostics: TransportDiagnostic[] = [];
  const transport = new JsonRpcLineTransport({
    input,
    output,
    onDiagnostic: (diagnostic) => diagnostics.push(diagnostic),
    ...options,
  });
  const sent: unknown[] = [];
  const sentLines: string[] = [];
  let partial = '';
  output.setEncoding('utf8');
  output.on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      sentLines.push(line);
      sent.push(JSON.parse(line));
    }
  });
  const send = (message: object | string | Buffer): void => {
    if (typeof message === 'string' || Buffer.isBuffer(message)) input.write(message);
    else input.write(`${JSON.stringify(message)}\n`);
  };
  return { transport, input, output, diagnostics, sent, sentLines, send };
}

/** Lets queued stream events and promise callbacks run. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
