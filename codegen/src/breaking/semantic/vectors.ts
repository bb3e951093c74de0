// The golden vectors under test-vectors/messages as samples, keyed by position label
// (`session/prompt params`, `initialize result`, `session/prompt error -32602 data`).
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export type SamplesByLabel = ReadonlyMap<string, readonly unknown[]>;

/** The samples of `messagesDir`; none when it is null (a protocol without vectors) or absent. */
export function readVectorSamples(messagesDir: string | null): SamplesByLabel {
  const samples = new Map<string, unknown[]>();
  if (messagesDir === null || !existsSync(messagesDir)) return samples;
  const add = (label: string, value: unknown) =>
    samples.set(label, [...(samples.get(label) ?? []), value]);
  for (const folder of readdirSync(messagesDir).sort()) {
    const dir = join(messagesDir, folder);
    for (const file of readdirSync(dir)
      .filter((f) => f.endsWith('.ndjson'))
      .sort())
      collectFrames(readFileSync(join(dir, file), 'utf8'), add);
  }
  return samples;
}

function collectFrames(text: string, add: (label: string, value: unknown) => void): void {
  const requests = new Map<string, string>();
  for (const line of text.split('\n')) {
    const frame = parseObject(line);
    if (!frame) continue;
    const method = frame['method'];
    const id = JSON.stringify(frame['id']);
    if (typeof method === 'string') {
      if ('id' in frame) requests.set(id, method);
      if ('params' in frame) add(`${method} params`, frame['params']);
      continue;
    }
    const answered = requests.get(id);
    if (answered === undefined) continue;
    if ('result' in frame) add(`${answered} result`, frame['result']);
    const error = frame['error'] as Record<string, unknown> | undefined;
    if (error && 'data' in error)
      add(`${answered} error ${String(error['code'])} data`, error['data']);
  }
}

function parseObject(line: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(line);
    return typeof value === 'object' && value !== null && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : null;
  } catch {
    return null;
  }
}
