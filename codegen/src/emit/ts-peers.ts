// IDL → peers.gen.ts: a typed client end and server end over any PeerTransport. Each end sends
// what the IDL says it sends (requests with checked results, notifications) and handles the rest
// (requests through a handlers interface, params checked first; notifications by subscription).
import type { Emitter } from './emitter.js';
import { tsFile } from './emitter.js';
import { peersContext } from './ts-peer-parts.js';
import { emitAnyNotification, emitClient, emitClientHandlers } from './ts-peers-client.js';
import { emitHandlers, emitNotifier, emitServe, emitServer } from './ts-peers-server.js';

export const tsPeersEmitter: Emitter = {
  name: 'ts-peers',
  target: 'typescript',
  emit({ model, target }) {
    const f = tsFile(target, 'peers.gen.ts', 'ts-peers');
    const ctx = peersContext(model, target);
    emitAnyNotification(f, ctx);
    emitClient(f, ctx);
    emitClientHandlers(f, ctx);
    emitHandlers(f, ctx);
    emitNotifier(f, ctx);
    emitServer(f, ctx);
    emitServe(f, ctx);
    return [f.finish()];
  },
};
