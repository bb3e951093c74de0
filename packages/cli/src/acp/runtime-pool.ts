// The runtimes behind the bridge: one process per distinct session cwd, since a runtime has one
// working directory and records one `cwd` in its handshake (docs/acp.md, "Sessions and cwd").
import { ErrorCode } from '@dsh-sdk/acp';
import {
  HarnessClient,
  JsonRpcResponseError,
  RuntimeExitedError,
  RuntimeSpawnError,
} from '@dsh-sdk/client';
import type { InitializeParams } from '@dsh-sdk/client';

/** How to start a runtime: its command and its handshake's params (`cwd` is each runtime's own). */
export interface RuntimeRoute {
  readonly command: readonly string[];
  readonly initialize: Omit<InitializeParams, 'cwd'>;
}

/** Bound of each step of the shutdown ladder when the bridge stops its runtimes. */
const SHUTDOWN_STEP_MS = 2000;

/**
 * Starts runtimes on demand, one per cwd, and reports the first that dies on its own: the bridge
 * then fails what is pending and exits. A runtime that fails to start is forgotten, so a later
 * request for the same cwd tries again.
 */
export class RuntimePool {
  readonly #runtimes = new Map<string, Promise<HarnessClient>>();
  #closing = false;

  constructor(
    private readonly route: RuntimeRoute,
    private readonly onLost: (error: RuntimeExitedError) => void,
  ) {}

  /** The runtime of `cwd`, started and initialized on first use. */
  runtimeFor(cwd: string): Promise<HarnessClient> {
    let runtime = this.#runtimes.get(cwd);
    if (runtime === undefined) {
      runtime = this.#start(cwd);
      this.#runtimes.set(cwd, runtime);
      runtime.catch(() => this.#runtimes.delete(cwd));
    }
    return runtime;
  }

  async #start(cwd: string): Promise<HarnessClient> {
    const { command, initialize } = this.route;
    let client: HarnessClient;
    try {
      client = await HarnessClient.spawn({
        command,
        cwd,
        initialize: { ...initialize, cwd },
        onStderr: (text) => process.stderr.write(text),
      });
    } catch (error) {
      throw startFailure(command, error);
    }
    void client.exited.then((exit) => {
      if (!this.#closing) this.onLost(new RuntimeExitedError(exit, client.stderrTail()));
    });
    return client;
  }

  /** Stops every runtime through the shutdown ladder (docs/acp.md, "Lifecycle"). */
  async shutdown(): Promise<void> {
    this.#closing = true;
    const runtimes = await Promise.allSettled(this.#runtimes.values());
    await Promise.all(
      runtimes.map((settled) =>
        settled.status === 'fulfilled'
          ? settled.value.shutdown({ timeoutMs: SHUTDOWN_STEP_MS })
          : undefined,
      ),
    );
  }
}

/**
 * A runtime that could not start or refused the handshake: `-32603` saying why, with the runtime's
 * own error code and data when it answered one (a route it does not serve: `-32602` at `/provider`).
 */
function startFailure(command: readonly string[], error: unknown): JsonRpcResponseError {
  const shown = JSON.stringify(command);
  if (error instanceof JsonRpcResponseError) {
    const { code, wireMessage, data } = error;
    return new JsonRpcResponseError(
      ErrorCode.InternalError,
      `the runtime ${shown} refused the handshake: ${error.message}`,
      { data: { command, runtimeError: { code, message: wireMessage, data } } },
    );
  }
  const message = error instanceof RuntimeSpawnError ? error.message : describe(error, shown);
  return new JsonRpcResponseError(ErrorCode.InternalError, message, { data: { command } });
}

function describe(error: unknown, shown: string): string {
  return `could not start the runtime ${shown}: ${error instanceof Error ? error.message : String(error)}`;
}
