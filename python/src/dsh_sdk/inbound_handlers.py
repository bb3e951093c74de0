"""Handlers of inbound requests and notifications, one per method, and the dispatch of messages to
them: the twin of `packages/protocol/src/inbound-handlers.ts`."""

from __future__ import annotations

import asyncio
import contextlib
import inspect
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

from dsh_sdk._gen.constants import ErrorCode, WireMessage, format_message
from dsh_sdk.classify import JsonRpcId
from dsh_sdk.diagnostics import TransportDiagnostic, handler_failure_diagnostic, line_diagnostic
from dsh_sdk.errors import TransportClosedError
from dsh_sdk.jsonlib import ABSENT
from dsh_sdk.line_reader import LineText, utf8_length
from dsh_sdk.line_writer import LineWriter
from dsh_sdk.responses import (
    describe_error,
    echoed_id,
    error_line,
    error_object,
    internal_error,
    result_line,
)

__all__ = [
    "InboundHandlers",
    "NotificationContext",
    "NotificationHandler",
    "RequestContext",
    "RequestHandler",
    "describe_error",
    "register_handler",
]


class NotificationContext:
    """What a notification handler learns besides the params: method, line number and size.

    `bytes` is computed when asked for, from the line's text, so that a handler that does not need
    it costs nothing.
    """

    __slots__ = ("_text", "line", "method")

    def __init__(self, method: str, line: int, text: LineText) -> None:
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


class InboundHandlers:
    """The registered handlers of inbound requests and notifications, one per method, and the
    dispatch of messages to them.

    Requests are answered in the order their handlers finish: a plain function's at once, from
    the read loop; an awaitable's from a task. Notification handlers run in arrival order; one
    that raises (or whose awaitable fails) is reported as `notification-handler-failed`.
    """

    __slots__ = ("_closed", "_notifications", "_report", "_requests", "_tasks", "_writer")

    def __init__(
        self,
        writer: LineWriter,
        report: Callable[[TransportDiagnostic], None],
        closed: asyncio.Event,
    ) -> None:
        self._writer = writer
        self._report = report
        self._closed = closed
        self._requests: dict[str, RequestHandler] = {}
        self._notifications: dict[str, NotificationHandler] = {}
        self._tasks: set[asyncio.Future[Any]] = set()

    def on_request(self, method: str, handler: RequestHandler) -> Callable[[], None]:
        """Registers the handler of a request method; returns a function that unregisters it."""
        return register_handler(self._requests, method, handler)

    def on_notification(self, method: str, handler: NotificationHandler) -> Callable[[], None]:
        """Registers the handler of a notification method; returns a function that unregisters
        it."""
        return register_handler(self._notifications, method, handler)

    def dispatch_request(self, message: dict[str, Any], text: LineText, line: int) -> None:
        """Runs the request's handler and answers it; a method without a handler is answered
        `-32601`. `text` is the request's input line, number `line`."""
        method: str = message["method"]
        context = RequestContext(
            method=method, id=message["id"], line=line, bytes=utf8_length(text), closed=self._closed
        )
        handler = self._requests.get(method)
        pending = _start_request(self._writer, handler, message.get("params", ABSENT), context)
        if pending is not None:
            self._keep(asyncio.ensure_future(pending))

    def dispatch_notification(self, message: dict[str, Any], text: LineText, line: int) -> None:
        """Runs the notification's handler; a failure is reported, not raised. A notification of
        a method nobody handles is reported as `unhandled-notification`."""
        method = message["method"]
        handler = self._notifications.get(method)
        if handler is None:
            detail = format_message(WireMessage.NO_HANDLER, method=method)
            self._report(
                line_diagnostic("unhandled-notification", detail, line, text, method=method)
            )
            return
        context = NotificationContext(method, line, text)
        try:
            outcome = handler(message.get("params", ABSENT), context)
        except Exception as error:
            self._report_handler_failure(context, error)
        else:
            if outcome is not None and inspect.isawaitable(outcome):
                task = self._keep(asyncio.ensure_future(outcome))
                task.add_done_callback(lambda done: self._notification_done(done, context))

    def _keep(self, task: asyncio.Future[Any]) -> asyncio.Future[Any]:
        """Holds a handler's task until it is done (the loop keeps only weak references)."""
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    def _notification_done(self, task: asyncio.Future[Any], context: NotificationContext) -> None:
        if task.cancelled():
            return
        error = task.exception()
        if isinstance(error, Exception):
            self._report_handler_failure(context, error)

    def _report_handler_failure(self, context: NotificationContext, error: Exception) -> None:
        method, line, size = context.method, context.line, context.bytes
        self._report(handler_failure_diagnostic(method, line, size, error, describe_error(error)))


def _start_request(
    writer: LineWriter, handler: RequestHandler | None, params: Any, context: RequestContext
) -> Coroutine[Any, Any, None] | None:
    """Runs `handler` on an inbound request. A missing handler is answered `-32601` and a
    handler that finishes at once (a plain function) is answered at once; for a handler that
    returns an awaitable, returns the coroutine that awaits it and answers, for the caller to run
    as a task."""
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
            line = error_line(id_, internal_error(WireMessage.HANDLER_CANCELLED))
            with contextlib.suppress(TransportClosedError):
                await writer.write_line(line)
        raise
    except Exception as failure:
        line = error_line(id_, error_object(failure))
    else:
        line = result_line(id_, result)
    with contextlib.suppress(TransportClosedError):
        await writer.write_line(line)
