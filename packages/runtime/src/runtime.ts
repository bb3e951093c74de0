// The runtime wired to a pair of streams: transport, generated bindings, server, sessions.
// Process concerns (stdio, exit codes) stay in main.ts.
/// <reference types="node" preserve="true" />
import { once } from 'node:events';
import { PassThrough } from 'node:stream';
import type { Readable, Writable } from 'node:stream';
import {
  JsonRpcLineTransport,
  LATEST_PROTOCOL_VERSION,
  playingVersion,
  serveHarnessSdk,
} from '@dsh-sdk/protocol';
import type { TransportDiagnostic } from '@dsh-sdk/protocol';
import { EchoAdapter } from './adapters/echo-adapter.js';
import type { ModelAdapter } from './adapters/model-adapter.js';
import { AttachmentStore } from './attachment-store.js';
import { NotifierGate, RuntimeStoppedError } from './notifier.js';
import { RuntimeServer } from './server.js';
import { Session, SessionRegistry } from './session.js';

/** What {@link serveRuntime} needs. */
export interface RuntimeOptions {
  /** Where requests come from (stdin). */
  readonly input: Readable;
  /** Where frames go (stdout); nothing else is ever written to it. */
  readonly output: Writable;
  /** Receives one line (no `\n`) per diagnostic or failure; main.ts sends them to stderr. */
  readonly log: (line: string) => void;
  /** The providers served; defaults to the echo adapter. */
  readonly adapters?: readonly ModelAdapter[];
  /** Defaults to the shared store under the system's temporary folder. */
  readonly store?: AttachmentStore;
  /** A pause before each `assistant/chunk`, to watch a reply stream (default 0). */
  readonly chunkDelayMs?: number;
  /**
   * Count a child's `max-tokens` stop as `status: "ok"` in `subagent.finished` (default false:
   * only `completed` is `ok`, as in the original without its deployment option).
   */
  readonly maxTokensIsSuccess?: boolean;
  /** Longest wait for the output to drain before giving up on it (default 5000 ms). */
  readonly flushTimeoutMs?: number;
  /**
   * The protocol version the runtime plays (default: the latest). Below the latest it is an
   * older runtime exactly: later methods are `-32601`, later params members unknown (ignored).
   */
  readonly protocolVersion?: number;
}

/** Why a runtime stopped serving. */
export type RuntimeEnd =
  /** `shutdown` was answered and the output flushed. */
  | 'shutdown'
  /** The input ended; the owed responses and the started turns were sent and flushed. */
  | 'input-ended'
  /** Writing failed: nobody reads the output any more. */
  | 'output-failed';

/**
 * Serves the protocol on `input`/`output` until `shutdown`, the end of the input, or a broken
 * output, and resolves with which of them it was once the output has been flushed.
 */
export async function serveRuntime(options: RuntimeOptions): Promise<RuntimeEnd> {
  const { input, output, log } = options;
  // The transport stops writing when its input ends, but the runtime still owes frames then:
  // it reads through a feed that ends only after those frames were sent.
  const feed = new PassThrough();
  input.pipe(feed, { end: false });
  const transport = new JsonRpcLineTransport({
    input: feed,
    output,
    onDiagnostic: (diagnostic) => log(describeDiagnostic(diagnostic)),
  });
  let finish: (end: RuntimeEnd) => void = () => {};
  const ended = new Promise<RuntimeEnd>((resolve) => (finish = resolve));
  const server = createServer(options, transport, () => finish('shutdown'));
  const settle = (): void => void server.settle().then(() => finish('input-ended'));
  input.once('end', settle);
  input.once('error', (error) => {
    log(`reading the input failed: ${error.message}`);
    settle();
  });
  void transport.closed.then((error) => {
    if (error.reason === 'output-error') finish('output-failed');
  });
  transport.start();
  const end = await ended;
  if (end !== 'output-failed') await flushOutput(output, options.flushTimeoutMs ?? 5000);
  input.unpipe(feed);
  if (end === 'input-ended') {
    // Ending the feed reports a final line cut short by the end of the input, if any.
    feed.end();
    await transport.closed;
  }
  transport.close();
  return end;
}

/** The server and its sessions, bound to the transport through the generated bindings. */
function createServer(
  options: RuntimeOptions,
  transport: JsonRpcLineTransport,
  onShutdown: () => void,
): RuntimeServer {
  const notifier = new NotifierGate();
  const onTurnFailed = (error: unknown, session: Session): void => {
    if (error instanceof RuntimeStoppedError) return; // cut short by `shutdown`: expected
    options.log(`the turn of session ${session.id} failed: ${describeError(error)}`);
  };
  const server = new RuntimeServer({
    adapters: options.adapters ?? [new EchoAdapter()],
    store: options.store ?? new AttachmentStore(),
    sessions: new SessionRegistry((id) => new Session(id, notifier, onTurnFailed)),
    notifier,
    chunkDelayMs: options.chunkDelayMs ?? 0,
    maxTokensIsSuccess: options.maxTokensIsSuccess ?? false,
    onShutdown: () => {
      notifier.close();
      onShutdown();
    },
  });
  const version = options.protocolVersion ?? LATEST_PROTOCOL_VERSION;
  const served = version < LATEST_PROTOCOL_VERSION ? playingVersion(transport, version) : transport;
  serveHarnessSdk(served, server);
  notifier.bind(served);
  return server;
}

/**
 * Resolves once everything handed to `output` so far was written: after the responses being
 * answered reach the writer, the writer's queue drains and a last empty write calls back.
 * Gives up after `timeoutMs` (a client that stops reading must not keep the runtime alive).
 */
async function flushOutput(output: Writable, timeoutMs: number): Promise<void> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const flushed = (async () => {
    await new Promise((resolve) => setImmediate(resolve));
    while (output.writableNeedDrain && !output.destroyed) await once(output, 'drain');
    if (output.writableEnded || output.destroyed) return;
    await new Promise<void>((resolve) => output.write('', () => resolve()));
  })();
  const expired = new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutMs)));
  await Promise.race([flushed.catch(() => undefined), expired]);
  clearTimeout(timer);
}

/** One stderr line: reason, line number and size, then the transport's explanation. */
export function describeDiagnostic(diagnostic: TransportDiagnostic): string {
  const where = diagnostic.line === undefined ? '' : ` line=${diagnostic.line}`;
  const detail = diagnostic.detail === undefined ? '' : ` (${diagnostic.detail})`;
  const message = `${diagnostic.message}${detail}`.replace(/\s+/g, ' ');
  return `ignored input: ${diagnostic.reason}${where} bytes=${diagnostic.bytes}: ${message}`;
}

function describeError(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
