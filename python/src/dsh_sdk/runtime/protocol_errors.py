"""The error answers of the reference runtime, built from the generated codes and messages.
`invalid_params_error` (`-32602` listing every violation) is the generated bindings' own, so the
runtime's refusals have the shape of the schema checks'."""

from __future__ import annotations

from dsh_sdk._gen.constants import ErrorCode, WireMessage
from dsh_sdk.errors import JsonRpcResponseError
from dsh_sdk.peer_support import invalid_params_error

__all__ = ["invalid_params_error", "invalid_request_error", "not_initialized_error"]


def invalid_request_error(message: str) -> JsonRpcResponseError:
    """`-32600`: the request is not acceptable in the runtime's current state; `message` is one
    of `WireMessage.ALREADY_INITIALIZED` and `WireMessage.SHUTTING_DOWN`."""
    return JsonRpcResponseError(ErrorCode.INVALID_REQUEST, message)


def not_initialized_error() -> JsonRpcResponseError:
    """`-32002`: a `session/prompt`, `session/interrupt` or `session/close` before a successful
    `initialize`."""
    return JsonRpcResponseError(ErrorCode.NOT_INITIALIZED, WireMessage.NOT_INITIALIZED)
