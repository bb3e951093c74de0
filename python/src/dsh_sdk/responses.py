"""Response lines: what answers an inbound request, whatever its handler returned or raised."""

from __future__ import annotations

from typing import Any, Final

from dsh_sdk._gen.constants import ErrorCode, WireMessage, format_message
from dsh_sdk.classify import JsonRpcId, is_json_rpc_error_object
from dsh_sdk.errors import JsonRpcResponseError
from dsh_sdk.nesting import dumps_frame

__all__ = [
    "describe_error",
    "echoed_id",
    "error_line",
    "error_object",
    "internal_error",
    "result_line",
]

_JSONRPC: Final = "2.0"


def describe_error(error: BaseException) -> str:
    """An exception's text, or its class name when the text is empty (or cannot be had)."""
    try:
        return str(error) or type(error).__name__
    except Exception:
        return type(error).__name__


def echoed_id(id_: JsonRpcId) -> JsonRpcId:
    """A request's id as its response carries it: an integral float is echoed as JavaScript writes
    it, `1`, not `1.0`."""
    if isinstance(id_, float) and id_.is_integer():
        return int(id_)
    return id_


def error_object(failure: Exception) -> dict[str, Any]:
    """The `error` member answering a handler that raised `failure`: a `JsonRpcResponseError`
    chooses it exactly; anything else is `-32603` with the exception's text."""
    if isinstance(failure, JsonRpcResponseError):
        return failure.to_error_object()
    return internal_error(describe_error(failure))


def result_line(id_: JsonRpcId, result: Any) -> bytes:
    """The response line carrying `result`. A result that cannot be sent, whatever the reason (JSON
    cannot hold it, it nests deeper than the limit, it is too deep even to serialize, its encoding
    raised), is answered `-32603` with the reason: every request gets an answer."""
    try:
        return dumps_frame({"jsonrpc": _JSONRPC, "id": id_, "result": result})
    except Exception as failure:
        return error_line(id_, internal_error(describe_error(failure)))


def error_line(id_: JsonRpcId, error: dict[str, Any]) -> bytes:
    """The response line carrying `error`; `data` that cannot be sent is left out. An error the
    peer would drop unread (a code that is not a safe integer, a message that is not a string) is
    answered `-32603` instead."""
    if not is_json_rpc_error_object(error):
        code = error.get("code")
        error = internal_error(format_message(WireMessage.ERROR_NOT_JSON_RPC, code=f"{code!r:.40}"))
    try:
        return dumps_frame({"jsonrpc": _JSONRPC, "id": id_, "error": error})
    except Exception:
        bare = {"code": error["code"], "message": error["message"]}
        return dumps_frame({"jsonrpc": _JSONRPC, "id": id_, "error": bare})


def internal_error(message: str) -> dict[str, Any]:
    """The `error` member of a `-32603` answer carrying `message`."""
    return {"code": int(ErrorCode.INTERNAL_ERROR), "message": message}
