/// <reference types="node" preserve="true" />
// Before the cases: one runtime asked for the kit's latest version, to learn who answers, the
// version it speaks and what it reported. A runtime that cannot get this far cannot be judged:
// the reason is told in one line.
import { LATEST_PROTOCOL_VERSION } from '@dsh-sdk/protocol';
import { describeExit, lastLine } from '../process-group.js';
import type { ProbeInfo } from './case-context.js';
import type { JsonObject, ServerLine } from './server-line.js';
import { RuntimeWire, WaitTimeout } from './wire.js';

/** The runtime cannot be judged: why, in one line. */
export class StartFailure extends Error {
  override readonly name = 'StartFailure';
}

export interface ProbeOptions {
  readonly program: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  readonly route: JsonObject;
  readonly liveMs: number;
}

function ignore(): void {}

export async function probeRuntime(options: ProbeOptions): Promise<ProbeInfo> {
  const wire = new RuntimeWire({
    ...options,
    bounds: { live: options.liveMs },
    sink: { fail: ignore, exercised: ignore },
    record: ignore,
  });
  try {
    await wire.started.catch((error: Error) => {
      throw new StartFailure(error.message);
    });
    let answer: JsonObject;
    try {
      // Id 1, answered as 1 or "1": a runtime that changes id types is judged by the cases (DSH-MSG-001).
      const params = { ...options.route, protocolVersion: LATEST_PROTOCOL_VERSION };
      wire.sendRequest('initialize', params, 1);
      const isAnswer = (l: ServerLine) =>
        l.kind === 'response' && (l.message?.['id'] === 1 || l.message?.['id'] === '1');
      answer = (await wire.waitFor(isAnswer, 'an answer to initialize')).message!;
    } catch (error) {
      if (!(error instanceof WaitTimeout)) throw error;
      const exit = await wire.waitExit(200);
      const tail = lastLine(wire.stderrTail);
      const how = exit
        ? `${describeExit(exit)} before answering initialize`
        : `no answer to initialize within ${options.liveMs / 1000} s`;
      throw new StartFailure(`${options.program}: ${how}${tail ? `; stderr: ${tail}` : ''}`);
    }
    const result = answer['result'];
    if (typeof result !== 'object' || result === null)
      throw new StartFailure(
        `${options.program} refused initialize with this route: ${JSON.stringify(answer['error'] ?? answer).slice(0, 300)}`,
      );
    const { serverInfo, protocolVersion, capabilities } = result as JsonObject;
    return {
      serverInfo:
        typeof serverInfo === 'object' && serverInfo !== null ? (serverInfo as JsonObject) : null,
      protocolVersion: typeof protocolVersion === 'number' ? protocolVersion : 1,
      capabilities:
        typeof capabilities === 'object' && capabilities !== null
          ? (capabilities as JsonObject)
          : {},
    };
  } finally {
    await wire.stop();
  }
}
