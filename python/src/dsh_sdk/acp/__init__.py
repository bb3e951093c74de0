"""The Agent Client Protocol (ACP) v1 in Python, generated from `protocols/acp/protocol.idl.json`
(imported from ACP's published schema).

- Models: every ACP type as a frozen dataclass (attributes in snake_case; `_meta` is `field_meta`),
  and every union as a type alias of its variants, by its IDL name (`PromptRequest`,
  `SessionUpdate`, ...). Members the schema does not name are kept in `extra`.
- Validators: each `validate_<payload>` returns every violation of a value, in schema order, and
  applies the repairs of lenient decoding to it in place, as the TypeScript validators of
  `@dsh-sdk/acp` do. `PARAMS_VALIDATORS` / `RESULT_VALIDATORS` find them by wire method name.
- `decode(kind, value)` turns a validated (and so repaired) wire value into the dataclasses;
  `encode(obj)` gives the wire value back: `encode(decode(kind, value)) == value`, an absent member
  staying absent (None) and a `null` one kept in `extra`. `decode` does not validate.
- `Method`, `METHODS`, `ErrorCode`: wire names and metadata of the methods and error codes.
- Peers: `AcpClientPeer` (the client, or editor, end: a coroutine per client → agent request,
  `notify_…` for its notifications, `on_…` subscriptions, `handle_requests` with an
  `AcpClientRequestHandlers` for the agent → client requests) and `serve_acp` with an
  `AcpRequestHandlers` for the agent end, returning an `AcpAgentPeer` (notify, agent → client
  requests, subscriptions). Over any `PeerTransport`, such as `dsh_sdk.stdio`'s; params checked
  before a handler runs (`-32602` with every violation), results checked before they are returned.
  Subclass a handlers protocol to leave its optional methods out (they are answered `-32601`).
"""

from __future__ import annotations

from dsh_sdk.acp._gen import *  # noqa: F403 - every model, listed in the generated __all__
from dsh_sdk.acp._gen import __all__ as _MODELS
from dsh_sdk.acp._gen.constants import LATEST_PROTOCOL_VERSION, ErrorCode
from dsh_sdk.acp._gen.methods import METHODS, Method
from dsh_sdk.acp._gen.peers import (
    AcpAgentPeer,
    AcpClientPeer,
    AcpClientRequestHandlers,
    AcpNotificationParams,
    AcpNotifier,
    AcpRequestHandlers,
    serve_acp,
)
from dsh_sdk.acp._gen.validators import (
    PARAMS_VALIDATORS,
    RESULT_VALIDATORS,
    validate_cancel_notification,
    validate_initialize_request,
    validate_initialize_response,
    validate_new_session_request,
    validate_new_session_response,
    validate_prompt_request,
    validate_prompt_response,
    validate_protocol_frame,
    validate_session_notification,
)
from dsh_sdk.acp.codec import CodecError, decode, encode
from dsh_sdk.acp.peer_support import PeerTransport, ProtocolError
from dsh_sdk.validation_runtime import Violation

__all__ = [
    *_MODELS,
    "LATEST_PROTOCOL_VERSION",
    "METHODS",
    "PARAMS_VALIDATORS",
    "RESULT_VALIDATORS",
    "AcpAgentPeer",
    "AcpClientPeer",
    "AcpClientRequestHandlers",
    "AcpNotificationParams",
    "AcpNotifier",
    "AcpRequestHandlers",
    "CodecError",
    "ErrorCode",
    "Method",
    "PeerTransport",
    "ProtocolError",
    "Violation",
    "decode",
    "encode",
    "serve_acp",
    "validate_cancel_notification",
    "validate_initialize_request",
    "validate_initialize_response",
    "validate_new_session_request",
    "validate_new_session_response",
    "validate_prompt_request",
    "validate_prompt_response",
    "validate_protocol_frame",
    "validate_session_notification",
]
