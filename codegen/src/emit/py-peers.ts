// IDL → python/src/dsh_sdk/_gen/peers.py: a typed client end and server end over any PeerTransport,
// the Python twin of ts-peers.ts. Each end sends what the IDL says it sends (requests with checked
// results, notifications) and handles the rest (requests through a handlers protocol, params checked
// first; notifications by subscription). Dataclasses in and out (codec.encode/decode).
import type { Model } from '../idl/model.js';
import type { OutputFile } from '../printer/generated-file.js';
import type { ProtocolTargets } from '../protocols/targets.js';
import type { Emitter } from './emitter.js';
import { pyFile } from './emitter.js';
import { endsOf, side } from './py-peer-ends.js';
import { emitAnyParams, emitClient, emitClientHandlers } from './py-peers-client.js';
import { emitHandlers, emitNotifier, emitServe, emitServer } from './py-peers-server.js';
import { layoutPy, pyDocstring, pyStr } from './py-literals.js';

export const pyPeersEmitter: Emitter = {
  name: 'py-peers',
  target: 'python',
  emit({ model, target }) {
    return [emitPeers(model, target)];
  },
};

export function emitPeers(model: Model, target: ProtocolTargets): OutputFile {
  const ends = endsOf(model, target);
  const { client, clientHandlers, handlers, anyParams, notifier, server, serve } = ends.names;
  const servesClient = ends.client.handles.requests.length > 0;
  const f = pyFile(target, 'peers.py', 'py-peers');
  const title = `Typed peers of the ${model.meta.title}: the ${side(ends, 'client')} end and the ${side(ends, 'server')} end over any \`PeerTransport\`.`;
  f.preamble(pyDocstring(title));
  f.import('annotations', '__future__');
  const exported = [client, ...(servesClient ? [clientHandlers] : []), handlers, anyParams];
  const names = [...exported, notifier, server, serve].map(pyStr);
  f.raw(layoutPy({ head: '[', items: names, close: ']' }, 0, '__all__ = '));
  f.blank(2);
  emitAnyParams(f, ends);
  const parts = [emitClient, ...(servesClient ? [emitClientHandlers] : []), emitHandlers];
  for (const emit of [...parts, emitNotifier, emitServer, emitServe]) {
    f.blank(2);
    emit(f, ends);
  }
  return f.finish();
}
