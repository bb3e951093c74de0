// A server playing an older protocol version (the reference runtimes' `--protocol-version 1`, for
// compatibility tests): what that version does not have is unknown to it, read off the generated
// method table.
import { METHODS } from './gen/methods.gen.js';
import type { RequestHandler } from './inbound-handlers.js';
import type { PeerTransport } from './peer-support.js';

/**
 * The transport as a peer of `version` sees it: methods introduced later are never registered
 * (so they are answered `-32601`), and params members introduced later are removed before the
 * generated checks run, as unknown members are ignored (an invalid `protocolVersion` included).
 */
export function playingVersion(transport: PeerTransport, version: number): PeerTransport {
  return {
    request: (method, params, options) => transport.request(method, params, options),
    notify: (method, params) => transport.notify(method, params),
    onNotification: (method, handler) => transport.onNotification(method, handler),
    reportDiagnostic: (diagnostic) => transport.reportDiagnostic(diagnostic),
    onRequest(method: string, handler: RequestHandler): () => void {
      const info = METHODS.find((m) => m.wireName === method);
      if (info && info.since > version) return () => {};
      const newer = Object.entries(info?.paramsMembersSince ?? {})
        .filter(([, since]) => since > version)
        .map(([name]) => name);
      if (newer.length === 0) return transport.onRequest(method, handler);
      return transport.onRequest(method, (params, context) =>
        handler(withoutMembers(params, newer), context),
      );
    },
  };
}

function withoutMembers(params: unknown, names: readonly string[]): unknown {
  if (typeof params !== 'object' || params === null || Array.isArray(params)) return params;
  const kept = { ...(params as Record<string, unknown>) };
  for (const name of names) delete kept[name];
  return kept;
}
