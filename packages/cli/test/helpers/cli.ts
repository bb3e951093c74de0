// Runs bin/dsh-sdk as a user would: a real child process over real pipes.
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { TraceFrame, TraceRecord } from '@dsh-sdk/protocol';

export const REPO_ROOT = fileURLToPath(new URL('../../../../', import.meta.url));
export const DSH_SDK = join(REPO_ROOT, 'bin/dsh-sdk');
export const TS_RUNTIME = join(REPO_ROOT, 'bin/dsh-sdk-runtime');
export const PY_RUNTIME = join(REPO_ROOT, 'bin/dsh-sdk-runtime-py');
export const VECTORS = join(REPO_ROOT, 'test-vectors');
export const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), 'dsh-sdk-cli-'));
}

export interface Run {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: Buffer;
  readonly stderr: string;
}

export interface RunOptions {
  /** Written to stdin in order, each chunk after a pause so it arrives as its own read. */
  readonly chunks?: readonly Buffer[];
  /** Leave stdin open after the chunks (the caller ends it through `onStart`). */
  readonly keepStdinOpen?: boolean;
  readonly env?: NodeJS.ProcessEnv;
  readonly onStart?: (child: ChildProcess) => void;
  /** Pause between chunks, ms (default 15). */
  readonly pauseMs?: number;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs `bin/dsh-sdk args…` to its end. */
export async function runCli(args: readonly string[], options: RunOptions = {}): Promise<Run> {
  const child = spawn(DSH_SDK, [...args], {
    stdio: ['pipe', 'pipe', 'pipe'],
    env: options.env ?? process.env,
  });
  const stdout: Buffer[] = [];
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  child.stdin.on('error', () => {});
  const ended = new Promise<Run>((resolve) => {
    child.on('close', (code, signal) =>
      resolve({ code, signal, stdout: Buffer.concat(stdout), stderr }),
    );
  });
  options.onStart?.(child);
  for (const chunk of options.chunks ?? []) {
    child.stdin.write(chunk);
    await sleep(options.pauseMs ?? 15);
  }
  if (!options.keepStdinOpen) child.stdin.end();
  return ended;
}

export function readTraceFile(path: string): TraceRecord[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as TraceRecord);
}

export function framesOf(records: readonly TraceRecord[]): TraceFrame[] {
  return records.filter((r): r is TraceFrame => r.type === 'frame');
}

/** Cuts `bytes` at the given offsets. */
export function splitAt(bytes: Buffer, offsets: readonly number[]): Buffer[] {
  const chunks: Buffer[] = [];
  let start = 0;
  for (const offset of [...offsets].sort((a, b) => a - b)) {
    if (offset <= start || offset >= bytes.length) continue;
    chunks.push(bytes.subarray(start, offset));
    start = offset;
  }
  chunks.push(bytes.subarray(start));
  return chunks.filter((c) => c.length > 0);
}
