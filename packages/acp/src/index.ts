// The public API of @dsh-sdk/acp: named re-exports only. Everything here is generated from
// protocols/acp/protocol.idl.json (imported from ACP's published schema); the JSON-RPC runtime the
// peers run on (JsonRpcLineTransport) is @dsh-sdk/protocol's.

export type * from './gen/types.gen.js';
export {
  ERROR_MESSAGES,
  ErrorCode,
  IDL_VERSION,
  LATEST_PROTOCOL_VERSION,
} from './gen/constants.gen.js';
