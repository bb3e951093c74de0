"""Handlers of inbound requests and notifications, and the answering of requests."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Final, TypeVar

from dsh_sdk._gen.constants import ErrorCode, WireMessage, format_message
from dsh_sdk.classify import JsonRpcId, is_json_rpc_error_object
from dsh_sdk.errors import JsonRpcResponseError, TransportClosedError
from dsh_sdk.line_reader import utf8_length
from dsh_sdk.line_writer import LineWriter
from dsh_sdk.nesting import dumps_frame

__all__ = [
    "NotificationContext",
    "NotificationHandler",
    "RequestContext",
    "RequestHandler",
    "describe_error",
    "echoed_id",
    "error_line",
    "error_object",
    "register_handler",
    "result_line",
    "start_request",
]


class NotificationContext:
    """What a notification handler learns besides the params: method, line number and size.

    `bytes` is computed when asked for, from the line's text, so that a handler that does not need
    it costs nothing.
    """

    __slots__ = ("_text", "line", "method")

    def __init__(self, method: str, line: int, text: str) -> None:
        self.method = method
        """The notification's method."""
        self.line = line
        """1-based input line the message came on."""
        self._text = text

    @property
    def bytes(self) -> int:
        """Size of the line in bytes, without its `\\n`."""
        return utf8_length(self._text)

    def __repr__(self) -> str:
        return f"NotificationContext(method={self.method!r}, line={self.line}, bytes={self.bytes})"


class RequestContext:
    """What a request handler learns besides the params."""

    __slots__ = ("bytes", "closed", "id", "line", "method")

    def __init__(
        self, *, method: str, id: JsonRpcId, line: int, bytes: int, closed: asyncio.Event
    ) -> None:
        self.method = method
        """The request's method."""
        self.id = id
        """The request's id, as the peer sent it."""
        self.line = line
        """1-based input line the request came on."""
        self.bytes = bytes
        """Size of that line in bytes, without its `\\n`."""
        self.closed = closed
        """Set when the transport closes: nobody will read the response any more. Wait on it;
        do not set it."""

    def __repr__(self) -> str:
        return (
            f"RequestContext(method={self.method!r}, id={self.id!r}, line={self.line}, "
            f"bytes={self.bytes})"
        )


RequestHandler = Callable[[Any, RequestContext], Any]
"""Answers a request: its return value (awaited if awaitable) becomes `result` (`None` is
`null`). Raising a `JsonRpcResponseError` sends that error; anything else raised is answered
`-32603` with the exception's text. `params` is `ABSENT` when the request has none."""

NotificationHandler = Callable[[Any, NotificationContext], Any]
"""Handles a notification, synchronously or by returning an awaitable. If it raises (or the
awaitable does), `notification-handler-failed` is reported. `params` may be `ABSENT`."""

H = TypeVar("H")


def register_handler(handlers: dict[str, H], method: str, handler: H) -> Callable[[], None]:
    """Registers the one handler of `method`; returns a function that unregisters it."""
    if method in handlers:
        raise ValueError(f"a handler for {method} is already registered")
    handlers[method] = handler

    def unregister() -> None:
        if handlers.get(method) is handler:
            del handlers[method]

    return unregister


def describe_error(error: BaseException) -> str:
    """An exception's text, or its class name when the text is empty (or cannot be had)."""
    try:
        return str(error) or type(error).__name__
    except Exception:
        return type(error).__name__


_JSONRPC: Final = "2.0"


def start_request(
    writer: LineWriter, handler: RequestHandler | None, params: Any, context: RequestContext
) -> Coroutine[Any, Any, None] | None:
    """Runs `handler` on an inbound request. A missing handler is answered `-32601` and a
    handler that finishes at once (a plain function) is answered at once, from the read loop;
    for a handler that returns an awaitable, returns the coroutine that awaits it and answers,
    for the caller to run as a task. Responses thus go out in the order handlers finish."""
    id_ = echoed_id(context.id)
    if handler is None:
        message = format_message(WireMessage.METHOD_NOT_FOUND, method=context.method)
        writer.write_line_soon(
            error_line(id_, {"code": int(ErrorCode.METHOD_NOT_FOUND), "message": message})
        )
        return None
    try:
        result = handler(params, context)
    except Exception as failure:
        writer.write_line_soon(error_line(id_, error_object(failure)))
        return None
    if inspect.isawaitable(result):
        return _finish_request(writer, result, id_, context)
    writer.write_line_soon(result_line(id_, result))
    return None


async def _finish_request(
    writer: LineWriter, awaitable: Awaitable[Any], id_: JsonRpcId, context: RequestContext
) -> None:
    try:
        result = await awaitable
    except asyncio.CancelledError:
        if not context.closed.is_set():
            line = error_line(id_, _internal_error(WireMessage.HANDLER_CANCELLED))
            with contextlib.suppress(TransportClosedError):
                await writer.write_line(line)
        raise
    except Exception as failure:
        line = error_line(id_, error_object(failure))
    else:
        line = result_line(id_, result)
    with contextlib.suppress(TransportClosedError):
        await writer.write_line(line)


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
    return _internal_error(describe_error(failure))


def result_line(id_: JsonRpcId, result: Any) -> bytes:
    """The response line carrying `result`. A result that cannot be sent, whatever the reason (JSON
    cannot hold it, it nests deeper than the limit, it is too deep even to serialize, its encoding
    raised), is answered `-32603` with the reason: every request gets an answer."""
    try:
        return dumps_frame({"jsonrpc": _JSONRPC, "id": id_, "result": result})
    except Exception as failure:
        return error_line(id_, _internal_error(describe_error(failure)))


def error_line(id_: JsonRpcId, error: dict[str, Any]) -> bytes:
    """The response line carrying `error`; `data` that cannot be sent is left out. An error the
    peer would drop unread (a code that is not a safe integer, a message that is not a string) is
    answered `-32603` instead."""
    if not is_json_rpc_error_object(error):
        code = error.get("code")
        detail = format_message(WireMessage.ERROR_NOT_JSON_RPC, code=f"{code!r:.40}")
        error = _internal_error(detail)
    try:
        return dumps_frame({"jsonrpc": _JSONRPC, "id": id_, "error": error})
    except Exception:
        bare = {"code": error["code"], "message": error["message"]}
        return dumps_frame({"jsonrpc": _JSONRPC, "id": id_, "error": bare})


def _internal_error(message: str) -> dict[str, Any]:
    return {"code": int(ErrorCode.INTERNAL_ERROR), "message": message}
