"""What a parsed JSON value is: request, notification, response or malformed (the IDL's
`meta.description` and `diagnostics`).

`classify_message` is the one place that decides; the transport dispatches on its answer. For a
message it returns a kind (a string constant), so the common case allocates nothing; for anything
else it returns a `MalformedMessage` saying why.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final, Literal, TypeGuard

from dsh_sdk._gen.constants import MAX_SAFE_INTEGER, WireMessage, format_message
from dsh_sdk.jsonlib import ABSENT

__all__ = [
    "ERROR_RESPONSE",
    "NOTIFICATION",
    "REQUEST",
    "SUCCESS_RESPONSE",
    "JsonRpcId",
    "MalformedMessage",
    "MalformedReason",
    "MessageKind",
    "classify_message",
    "is_json_rpc_error_object",
    "is_json_rpc_id",
]

JsonRpcId = str | int | float
"""A JSON-RPC id: a string or a number within ±`MAX_SAFE_INTEGER` (never a bool, though Python
counts it an int)."""

MessageKind = Literal["request", "notification", "success", "error"]
"""The kind of a well-formed message; `success` and `error` are the two kinds of response."""

REQUEST: Final = "request"
NOTIFICATION: Final = "notification"
SUCCESS_RESPONSE: Final = "success"
ERROR_RESPONSE: Final = "error"

MalformedReason = Literal["batch-unsupported", "not-an-object", "invalid-id", "invalid-message"]
"""Why a parsed JSON value is not a message of this protocol."""


@dataclass(frozen=True, kw_only=True, slots=True)
class MalformedMessage:
    """A value that is not a message, with the reason and what could be salvaged for a report."""

    reason: MalformedReason
    detail: str
    id: JsonRpcId | None = None
    """The value's id, when it has a valid one."""
    method: str | None = None
    """The value's method, when it is a string."""


def classify_message(value: object) -> MessageKind | MalformedMessage:
    """Classifies a value produced by the JSON parser.

    - an array is `batch-unsupported`, any other non-object `not-an-object`;
    - an `id` that is not a string or a finite number (`null`, a bool, an object, an array) is
      `invalid-id`; `"id": 0` and `"id": ""` are valid;
    - a `jsonrpc` member other than `"2.0"`, a `method` that is not a string, neither `id` nor
      `method`, a response without exactly one of `result` and `error`, or an `error` without an
      integer `code` and a string `message` is `invalid-message`;
    - otherwise `id` and `method` make a request, `method` alone a notification, `id` alone a
      response (`success` with `result`, `error` with `error`). `jsonrpc` is not required.
    """
    # The common case, a notification, in few steps; anything unusual takes the full path.
    if (
        type(value) is dict
        and "id" not in value
        and type(value.get("method")) is str
        and value.get("jsonrpc", "2.0") == "2.0"
    ):
        return NOTIFICATION
    if value.__class__ is not dict:
        if isinstance(value, list):
            return MalformedMessage(
                reason="batch-unsupported", detail=WireMessage.BATCH_UNSUPPORTED
            )
        if not isinstance(value, dict):
            detail = format_message(WireMessage.NOT_AN_OBJECT, value=_describe(value))
            return MalformedMessage(reason="not-an-object", detail=detail)
    message: dict[str, Any] = value
    get = message.get
    id_ = get("id", ABSENT)
    if id_ is not ABSENT and not is_json_rpc_id(id_):
        detail = format_message(WireMessage.INVALID_ID, value=_describe(id_))
        return _malformed("invalid-id", detail, message)
    if get("jsonrpc", "2.0") != "2.0":
        return _malformed("invalid-message", WireMessage.JSONRPC_NOT_TWO, message)
    method = get("method", ABSENT)
    if method is not ABSENT:
        if not isinstance(method, str):
            detail = format_message(WireMessage.METHOD_NOT_STRING, value=_describe(method))
            return _malformed("invalid-message", detail, message)
        return NOTIFICATION if id_ is ABSENT else REQUEST
    if id_ is ABSENT:
        return _malformed("invalid-message", WireMessage.NEITHER_ID_NOR_METHOD, message)
    has_result = "result" in message
    if has_result == ("error" in message):
        return _malformed("invalid-message", WireMessage.RESULT_XOR_ERROR, message)
    if has_result:
        return SUCCESS_RESPONSE
    if not is_json_rpc_error_object(message["error"]):
        return _malformed("invalid-message", WireMessage.ERROR_OBJECT_INVALID, message)
    return ERROR_RESPONSE


def is_json_rpc_id(value: object) -> TypeGuard[JsonRpcId]:
    """True for a string or a number within ±`MAX_SAFE_INTEGER`; false for bools. Beyond the
    range the id could not be echoed exactly: JavaScript reads `9007199254740993` as …992, and
    `1e400` parses to infinity."""
    return isinstance(value, str) or _is_safe_number(value)


def is_json_rpc_error_object(value: object) -> TypeGuard[dict[str, Any]]:
    """True for an `error` member with a safe-integer `code` and a string `message`. As in
    JavaScript, an integral float (`-32601.0`) is an integer."""
    if not isinstance(value, dict):
        return False
    return _is_safe_integer(value.get("code")) and isinstance(value.get("message"), str)


def _is_safe_integer(value: object) -> bool:
    if isinstance(value, float):
        return value.is_integer() and _is_safe_number(value)
    return isinstance(value, int) and _is_safe_number(value)


def _is_safe_number(value: object) -> bool:
    """A number of the protocol's range, ±`MAX_SAFE_INTEGER` (infinities and NaN are not)."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        return False
    return -MAX_SAFE_INTEGER <= value <= MAX_SAFE_INTEGER


def _malformed(reason: MalformedReason, detail: str, message: dict[str, Any]) -> MalformedMessage:
    id_ = message.get("id")
    method = message.get("method")
    return MalformedMessage(
        reason=reason,
        detail=detail,
        id=id_ if is_json_rpc_id(id_) else None,
        method=method if isinstance(method, str) else None,
    )


def _describe(value: object) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, int | float):
        return "a number" if _is_safe_number(value) else "a number out of range"
    if isinstance(value, str):
        return "a string"
    return f"a {type(value).__name__}"
