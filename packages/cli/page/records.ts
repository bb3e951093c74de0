// Reading trace records (docs/trace-format.md) in the page: one JSON text per line.
import type { TraceHeader, TraceRecord } from '@dsh-sdk/protocol';

/** The trace format version this page reads (the header's `version`). */
export const READABLE_VERSION = 1 satisfies TraceHeader['version'];
const TRACE_FORMAT_NAME = 'dsh-sdk-trace' satisfies TraceHeader['format'];

/** A record with the line it was read from (kept for search and for the raw view). */
export interface ReadRecord {
  readonly record: TraceRecord;
  readonly raw: string;
}

/** Why a trace cannot be shown. */
export class TraceReadError extends Error {}

/** Checks the header: the right format, a version this page knows. */
export function checkHeader(record: TraceRecord): TraceHeader {
  if (record.type !== 'header' || record.format !== TRACE_FORMAT_NAME) {
    throw new TraceReadError('not a dsh-sdk trace: the first record is not its header');
  }
  if (record.version > READABLE_VERSION) {
    throw new TraceReadError(
      `trace format version ${record.version} is newer than this viewer's (${READABLE_VERSION})`,
    );
  }
  return record;
}

/** Parses one line; a line that is not JSON is counted by the caller, never fatal. */
export function parseRecord(raw: string): ReadRecord | undefined {
  try {
    const record = JSON.parse(raw) as TraceRecord;
    if (typeof record !== 'object' || record === null || typeof record.type !== 'string') {
      return undefined;
    }
    return { record, raw };
  } catch {
    return undefined;
  }
}
