// Drives the built runtime (bin/dsh-sdk-runtime) through a real child process and pipes, with
// the generated client peer over a raw JsonRpcLineTransport.
import { spawn } from 'node:child_process';
import type { ChildProcessByStdio } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Readable, Writable } from 'node:stream';
import { HarnessSdkClientPeer, JsonRpcLineTransport, Method } from '@dsh-sdk/protocol';
import type {
  HarnessSdkNotificationMap,
  InitializeParams,
  NotificationMethod,
  SessionEvent,
  TransportDiagnostic,
} from '@dsh-sdk/protocol';

export const LAUNCHER = fileURLToPath(new URL('../../../../bin/dsh-sdk-runtime', import.meta.url));

/** The route every test initializes with unless it says otherwise. */
export const ECHO_ROUTE: InitializeParams = { cwd: '/tmp', provider: 'echo', model: 'echo-1' };

/** One recorded notification. */
export type Recorded = {
  [M in NotificationMethod]: { method: M; params: HarnessSdkNotificationMap[M] };
}[NotificationMethod];

export type RuntimeChild = ChildProcessByStdio<Writable, Readable, Readable>;

const children: RuntimeChild[] = [];

/** Starts the launcher with piped stdio; the child is killed after the test if still alive. */
export function spawnRuntime(
  env: Record<string, string> = {},
  args: readonly string[] = [],
): RuntimeChild {
  const child = spawn(LAUNCHER, args, {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: { ...process.env, ...env },
  });
  children.push(child);
  return child;
}

/** Kills every child still running (call from afterEach). */
export function killChildren(): void {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
}

/** Resolves with the exit code and signal of `child`. */
export function exitOf(
  child: RuntimeChild,
): Promise<{ code: number | null; signal: string | null }> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve({ code: child.exitCode, signal: child.signalCode });
  }
  return new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
}

/** A runtime under test: its process, a client peer, and everything it sent, in wire order. */
export class RuntimeConnection {
  readonly child: RuntimeChild;
  readonly transport: JsonRpcLineTransport;
  readonly peer: HarnessSdkClientPeer;
  readonly notifications: Recorded[] = [];
  readonly diagnostics: TransportDiagnostic[] = [];
  readonly exited: Promise<{ code: number | null; signal: string | null }>;
  #stderr = '';
  readonly #waiters: { test: (n: Recorded) => boolean; resolve: (n: Recorded) => void }[] = [];

  constructor(env: Record<string, string> = {}, args: readonly string[] = []) {
    this.child = spawnRuntime(env, args);
    this.child.stderr.setEncoding('utf8');
    this.child.stderr.on('data', (text: string) => (this.#stderr += text));
    this.exited = exitOf(this.child);
    this.transport = new JsonRpcLineTransport({
      input: this.child.stdout,
      output: this.child.stdin,
      onDiagnostic: (diagnostic) => this.diagnostics.push(diagnostic),
    });
    this.peer = new HarnessSdkClientPeer(this.transport);
    this.peer.onSessionEvent((params) => this.#record({ method: Method.sessionEvent, params }));
    this.peer.onSessionStatus((params) => this.#record({ method: Method.sessionStatus, params }));
    this.peer.onSubagentStarted((params) =>
      this.#record({ method: Method.subagentStarted, params }),
    );
    this.peer.onSubagentFinished((params) =>
      this.#record({ method: Method.subagentFinished, params }),
    );
    this.transport.start();
  }

  /** Everything the runtime wrote to stderr so far. */
  get stderr(): string {
    return this.#stderr;
  }

  /** Starts a runtime and performs the handshake with `route`. */
  static async initialized(
    route: InitializeParams = ECHO_ROUTE,
    env: Record<string, string> = {},
    args: readonly string[] = [],
  ): Promise<RuntimeConnection> {
    const connection = new RuntimeConnection(env, args);
    await connection.peer.initialize(route);
    return connection;
  }

  /** Resolves with the first recorded notification passing `test` (already recorded or later). */
  waitFor(test: (n: Recorded) => boolean): Promise<Recorded> {
    const found = this.notifications.find(test);
    if (found) return Promise.resolve(found);
    return new Promise((resolve) => this.#waiters.push({ test, resolve }));
  }

  /** Resolves once `sessionId` has reported `idle` `count` times. */
  async idle(sessionId: string, count = 1): Promise<void> {
    let seen = 0;
    await this.waitFor(
      (n) =>
        n.method === Method.sessionStatus &&
        n.params.sessionId === sessionId &&
        n.params.status === 'idle' &&
        ++seen === count,
    );
  }

  /** The events of `sessionId`, in order. */
  eventsOf(sessionId: string): SessionEvent[] {
    return this.notifications.flatMap((n) =>
      n.method === Method.sessionEvent && n.params.sessionId === sessionId ? [n.params.event] : [],
    );
  }

  /** Sends `shutdown` and waits for the process to exit. */
  async shutdown(): Promise<{ code: number | null; signal: string | null }> {
    await this.peer.shutdown();
    return this.exited;
  }

  #record(notification: Recorded): void {
    this.notifications.push(notification);
    for (const waiter of [...this.#waiters]) {
      if (!waiter.test(notification)) continue;
      this.#waiters.splice(this.#waiters.indexOf(waiter), 1);
      waiter.resolve(notification);
    }
  }
}

/** A session's frames as `method` or `method type`, for comparing sequences. */
export function describeFrames(notifications: readonly Recorded[], sessionId: string): string[] {
  return notifications.flatMap((n) => {
    switch (n.method) {
      case Method.sessionEvent:
        return n.params.sessionId === sessionId ? [`${n.method} ${n.params.event.type}`] : [];
      case Method.sessionStatus:
        return n.params.sessionId === sessionId ? [`${n.method} ${n.params.status}`] : [];
      default:
        return n.params.parentSessionId === sessionId ? [n.method] : [];
    }
  });
}

/** An event's `data` as a plain record, for reading fields across variants in assertions. */
export function dataOf(event: SessionEvent | undefined): Record<string, unknown> {
  return (event?.data ?? {}) as Record<string, unknown>;
}

/** The frames of one echo turn, as `describeFrames` spells them (docs/reference-runtime.md, "A prompt"). */
export function turnFrames(chunks: number): string[] {
  return [
    'session.status running',
    'session.event agent/inbox/spliced',
    'session.event turn/start',
    'session.event user/message',
    'session.event step/start',
    ...Array.from({ length: chunks }, () => 'session.event assistant/chunk'),
    'session.event assistant/message',
    'session.event step/end',
    'session.event turn/end',
    'session.status idle',
  ];
}
