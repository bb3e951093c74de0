"""The Python SDK of the DeepSeek Harness SDK protocol.

Models are dataclasses generated from ``protocol.idl.json`` (attribute names in snake_case;
``dsh_sdk.codec`` converts to and from the camelCase wire form). The transport speaks
newline-delimited JSON-RPC 2.0 over asyncio streams.
"""

from __future__ import annotations

from dsh_sdk._gen import *  # noqa: F403 - every model, listed in the generated __all__
from dsh_sdk._gen import __all__ as _MODELS
from dsh_sdk._gen.constants import (
    DEFAULT_MAX_FRAME_BYTES,
    DIAGNOSTIC_REASONS,
    ERROR_MESSAGES,
    IDL_VERSION,
    LATEST_PROTOCOL_VERSION,
    SERVER_NAME,
    DiagnosticReason,
    ErrorCode,
)
from dsh_sdk._gen.methods import METHODS, Method
from dsh_sdk._gen.peers import (
    HarnessSdkClientPeer,
    HarnessSdkRequestHandlers,
    HarnessSdkServerPeer,
    serve_harness_sdk,
)
from dsh_sdk.codec import decode, encode
from dsh_sdk.diagnostics import DiagnosticObserver, TransportDiagnostic
from dsh_sdk.errors import JsonRpcResponseError, RequestTimeoutError, TransportClosedError
from dsh_sdk.inbound_handlers import NotificationContext, RequestContext
from dsh_sdk.peer_support import (
    NotificationFanout,
    PeerTransport,
    ProtocolError,
    invalid_params_error,
)
from dsh_sdk.trace_recorder import (
    TRACE_FORMAT,
    TRACE_FORMAT_VERSION,
    TraceFindingContext,
    TraceRecorder,
)
from dsh_sdk.trace_writer import TraceFileWriter
from dsh_sdk.transport import JsonRpcLineTransport
from dsh_sdk.version_gate import PlayingVersion

__all__ = [
    *_MODELS,
    "DEFAULT_MAX_FRAME_BYTES",
    "DIAGNOSTIC_REASONS",
    "ERROR_MESSAGES",
    "METHODS",
    "IDL_VERSION",
    "LATEST_PROTOCOL_VERSION",
    "SERVER_NAME",
    "TRACE_FORMAT",
    "TRACE_FORMAT_VERSION",
    "DiagnosticObserver",
    "DiagnosticReason",
    "ErrorCode",
    "HarnessSdkClientPeer",
    "HarnessSdkRequestHandlers",
    "HarnessSdkServerPeer",
    "JsonRpcLineTransport",
    "JsonRpcResponseError",
    "Method",
    "NotificationContext",
    "NotificationFanout",
    "PeerTransport",
    "PlayingVersion",
    "ProtocolError",
    "RequestContext",
    "RequestTimeoutError",
    "TraceFileWriter",
    "TraceFindingContext",
    "TraceRecorder",
    "TransportClosedError",
    "TransportDiagnostic",
    "decode",
    "encode",
    "invalid_params_error",
    "serve_harness_sdk",
]
