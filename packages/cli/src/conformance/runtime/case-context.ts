/// <reference types="node" preserve="true" />
// What a runtime case works with: the run's settings, fresh runtimes, the handshake, bounds, and
// the verdicts it records.
import { CaseVerdicts } from '../verdicts.js';
import { RuntimeWire } from './wire.js';
import type { Answer } from './wire.js';
import type { JsonObject } from './server-line.js';

/** What the probe learnt from the runtime's handshake. */
export interface ProbeInfo {
  readonly serverInfo: JsonObject | null;
  /** The version negotiated when asked for the kit's latest: the runtime's own latest. */
  readonly protocolVersion: number;
  readonly capabilities: JsonObject;
}

/** The settings of a runtime run, shared by its cases. */
export interface RuntimeKitEnv {
  readonly program: string;
  readonly args: readonly string[];
  readonly env: NodeJS.ProcessEnv;
  /** `initialize`'s params without `protocolVersion`: the route of the run. */
  readonly route: JsonObject;
  /** The liveness bound, ms (`--timeout`). */
  readonly liveMs: number;
  /** How much the bounds the protocol states (the 2 s after an interrupt) are scaled by. */
  readonly timeScale: number;
  /** The prompt that makes the runtime start a child agent, or null (`--no-delegate`). */
  readonly delegatePrompt: string | null;
  readonly probe: ProbeInfo;
}

/** A failure of the case as a whole (an answer that does not come, a refused handshake). */
export class CaseError extends Error {
  override readonly name = 'CaseError';
}

export class RuntimeCaseContext extends CaseVerdicts {
  readonly env: RuntimeKitEnv;
  readonly wires: RuntimeWire[] = [];
  /** Each wire's transcript records, as JSON texts. */
  readonly transcripts: string[][] = [];
  readonly #applies: (requirement: string) => boolean;

  constructor(env: RuntimeKitEnv, applies: (requirement: string) => boolean) {
    super();
    this.env = env;
    this.#applies = applies;
  }

  /** Whether the requirement is judged in this run (its capability reported, not opted out). */
  applies(requirement: string): boolean {
    return this.#applies(requirement);
  }

  /** The runtime's latest protocol version, as the probe found it. */
  get runtimeVersion(): number {
    return this.env.probe.protocolVersion;
  }

  hasCapability(name: string): boolean {
    return this.env.probe.capabilities[name] === true;
  }

  /** A bound of `k` times the liveness bound. */
  bound(k = 1): number {
    return this.env.liveMs * k;
  }

  /** Starts a fresh runtime (its own process group), with extra environment variables. */
  async start(extraEnv: NodeJS.ProcessEnv = {}): Promise<RuntimeWire> {
    const transcript: string[] = [];
    const wire = new RuntimeWire({
      program: this.env.program,
      args: this.env.args,
      env: { ...this.env.env, ...extraEnv },
      bounds: { live: this.env.liveMs },
      sink: this,
      record: (line) => transcript.push(line),
    });
    this.wires.push(wire);
    this.transcripts.push(transcript);
    try {
      await wire.started;
    } catch (error) {
      throw new CaseError(`the runtime did not start: ${(error as Error).message}`);
    }
    return wire;
  }

  /** `initialize`'s params: the route, with `protocolVersion` when given. */
  initializeParams(protocolVersion?: number): JsonObject {
    return { ...this.env.route, ...(protocolVersion === undefined ? {} : { protocolVersion }) };
  }

  /** A successful handshake, or a CaseError saying how it failed. */
  async initialize(wire: RuntimeWire, protocolVersion?: number): Promise<JsonObject> {
    const answer = await wire.request('initialize', this.initializeParams(protocolVersion));
    if (answer['result'] === undefined || typeof answer['result'] !== 'object')
      throw new CaseError(`initialize was refused: ${JSON.stringify(answer['error'] ?? answer)}`);
    return answer['result'] as JsonObject;
  }

  /** A fresh runtime after a successful handshake, at the runtime's own version (or `version`). */
  async startInitialized(
    version: number | undefined = this.runtimeVersion >= 2 ? this.runtimeVersion : undefined,
    extraEnv: NodeJS.ProcessEnv = {},
  ): Promise<RuntimeWire> {
    const wire = await this.start(extraEnv);
    await this.initialize(wire, version);
    return wire;
  }

  /** Stops every runtime the case started. */
  async stopAll(): Promise<void> {
    await Promise.all(this.wires.map((wire) => wire.stop()));
  }

  /** The stderr tails of the case's runtimes, joined. */
  stderrTail(): string {
    return this.wires
      .map((wire) => wire.stderrTail)
      .filter((tail) => tail !== '')
      .join('\n')
      .slice(-20 * 1024);
  }
}

/** The error of an answer, or undefined for a result. */
export function errorOf(answer: Answer): JsonObject | undefined {
  const error = answer['error'];
  return typeof error === 'object' && error !== null ? (error as JsonObject) : undefined;
}

/** `result {...}` or `error -32602 Invalid params`, for messages. */
export function describeAnswer(answer: Answer): string {
  const error = errorOf(answer);
  if (error) return `error ${String(error['code'])} ${JSON.stringify(error['message'])}`;
  return `result ${JSON.stringify(answer['result']).slice(0, 200)}`;
}

/** The pointers of a `-32602`'s data, when it has any. */
export function violationPointers(answer: Answer): string[] {
  const data = errorOf(answer)?.['data'];
  if (!Array.isArray(data)) return [];
  return data
    .map((v: unknown) =>
      typeof v === 'object' && v !== null ? (v as JsonObject)['pointer'] : undefined,
    )
    .filter((p): p is string => typeof p === 'string');
}
