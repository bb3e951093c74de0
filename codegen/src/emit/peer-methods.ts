// Which methods each end of a protocol sends and which it handles: what the typed peers of every
// language are built from (ts-peer-parts.ts, py-peer-ends.ts).
import type { Method, Model } from '../idl/model.js';
import { isSentBy } from '../idl/model.js';

export type End = 'client' | 'server';

/** What one end sends and handles; prefix families are sent only (the other end answers `-32601`). */
export interface EndMethods {
  readonly sends: { readonly requests: Method[]; readonly notifications: Method[] };
  readonly handles: { readonly requests: Method[]; readonly notifications: Method[] };
}

export function endMethods(model: Model, end: End): EndMethods {
  const other: End = end === 'client' ? 'server' : 'client';
  const sent = (by: End, kind: Method['kind'], families: boolean) =>
    model.methods.filter((m) => m.kind === kind && isSentBy(m, by) && (families || !m.isPrefix));
  return {
    sends: {
      requests: sent(end, 'request', true),
      notifications: sent(end, 'notification', true),
    },
    handles: {
      requests: sent(other, 'request', false),
      notifications: sent(other, 'notification', false),
    },
  };
}
