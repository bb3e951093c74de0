// The public API of @dsh-sdk/acp: named re-exports only. Everything here is generated from
// protocols/acp/protocol.idl.json (imported from ACP's published schema); the JSON-RPC runtime the
// peers run on (JsonRpcLineTransport) is @dsh-sdk/protocol's, re-exported so one import serves.

export {
  JsonRpcLineTransport,
  JsonRpcResponseError,
  ProtocolError,
  toViolations,
} from '@dsh-sdk/protocol';
export type {
  JsonRpcLineTransportOptions,
  PeerOptions,
  RequestContext,
  RequestOptions,
  Subscriber,
} from '@dsh-sdk/protocol';

// Every payload and frame type, by its name in ACP's schema.
export type * from './gen/types.gen.js';
export {
  DEFAULT_MAX_FRAME_BYTES,
  ERROR_MESSAGES,
  ErrorCode,
  IDL_VERSION,
  LATEST_PROTOCOL_VERSION,
} from './gen/constants.gen.js';
// One type guard per variant of each tagged union.
export {
  isAcceptCreateElicitationResponse,
  isArrayElicitationPropertySchema,
  isBooleanElicitationPropertySchema,
  isCancelCreateElicitationResponse,
  isDeclineCreateElicitationResponse,
  isFormCreateElicitationRequest,
  isIntegerElicitationPropertySchema,
  isNumberElicitationPropertySchema,
  isStringElicitationPropertySchema,
  isTaggedStringMultiSelectItems,
  isUrlCreateElicitationRequest,
} from './gen/guards.gen.js';
export { METHODS, Method } from './gen/methods.gen.js';
export type {
  AcpAgentRequestMap,
  AcpClientNotificationMap,
  AcpNotificationMap,
  AcpRequestMap,
  AgentRequestMethod,
  ClientNotificationMethod,
  MethodInfo,
  MethodName,
  NotificationMethod,
  RequestMethod,
} from './gen/methods.gen.js';
// Precompiled validators (ajv standalone): every one the generator made, and the method table.
export * from './gen/validators.gen.js';
// Typed peers: the client (editor) end, and the agent end served by serveAcp.
export { AcpAgentPeer, AcpClientPeer, AcpNotifier, serveAcp } from './gen/peers.gen.js';
export type {
  AcpClientRequestHandlers,
  AcpNotification,
  AcpRequestHandlers,
} from './gen/peers.gen.js';
