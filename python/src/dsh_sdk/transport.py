"""JSON-RPC 2.0 over newline-delimited JSON on asyncio streams (the framing of the IDL's
`meta.description`).

The Python twin of `packages/protocol/src/transport.ts`: it reads lines, classifies them, settles
responses and reports what it ignores; `InboundHandlers` dispatches requests and notifications.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any, Final, Literal, Protocol

from dsh_sdk import jsonlib
from dsh_sdk._gen.constants import (
    DEFAULT_MAX_FRAME_BYTES,
    MAX_NESTING_DEPTH,
    ErrorCode,
    WireMessage,
    format_message,
)
from dsh_sdk.classify import (
    ERROR_RESPONSE,
    NOTIFICATION,
    REQUEST,
    SUCCESS_RESPONSE,
    MalformedMessage,
    classify_message,
)
from dsh_sdk.diagnostics import (
    DiagnosticObserver,
    DiagnosticReason,
    TransportDiagnostic,
    line_diagnostic,
    rejection_diagnostic,
)
from dsh_sdk.errors import JsonRpcResponseError, RequestTimeoutError, TransportClosedError
from dsh_sdk.inbound_handlers import InboundHandlers, NotificationHandler, RequestHandler
from dsh_sdk.jsonlib import ABSENT
from dsh_sdk.line_reader import (
    ByteSource,
    LineEntry,
    LineReader,
    LineRejection,
    LineText,
    read_line_batches,
)
from dsh_sdk.line_writer import LineOutput, LineWriter, renew
from dsh_sdk.nesting import (
    SHORT_LINE_CHARS,
    dumps_frame,
    exceeds_nesting_depth,
    read_top_level,
)
from dsh_sdk.pending_requests import PendingRequests
from dsh_sdk.responses import describe_error, echoed_id, error_line

__all__ = ["JsonRpcLineTransport", "JsonRpcTransportPeer", "TransportState"]

TransportState = Literal["idle", "open", "closed"]
"""The lifecycle of a transport: created, started, then closed for good."""

_OPEN: Final = "open"


class JsonRpcTransportPeer(Protocol):
    """The outbound surface of a JSON-RPC connection: what one side can send the other."""

    async def request(
        self, method: str, params: object = ABSENT, *, timeout: float | None = None
    ) -> Any:
        """Sends a request and returns the response's `result`."""
        ...

    async def notify(self, method: str, params: object = ABSENT) -> None:
        """Sends a notification; returns once the output has taken it."""
        ...


class JsonRpcLineTransport:
    """JSON-RPC 2.0 over newline-delimited JSON on a pair of caller-owned streams.

    `start()` begins reading; `close()` stops reading and fails every pending request, but never
    closes the streams. The input ending or failing, or a write failing, closes the transport the
    same way. Inbound requests are handled concurrently and answered in the order their handlers
    finish; notification handlers run in arrival order. Nothing is logged: everything ignored is
    reported to `on_diagnostic` (see `TransportDiagnostic`).
    """

    def __init__(
        self,
        reader: ByteSource,
        writer: LineOutput,
        *,
        max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
        on_diagnostic: DiagnosticObserver | None = None,
    ) -> None:
        self._input = reader
        # The kept `\r` is JSON whitespace, and the kept text gives each report its exact size.
        # Both parsers take both forms; lines come in the one the backend in use parses fastest.
        self._lines = LineReader(max_frame_bytes, keep_cr=True, bytes_lines=jsonlib.parses_bytes())
        self._writer = LineWriter(writer, self._shut_down)
        self._observer = on_diagnostic
        self._counts: dict[DiagnosticReason, int] = {}
        self._pending = PendingRequests()
        self._state: TransportState = "idle"
        self._close_error: TransportClosedError | None = None
        self._closed = asyncio.Event()
        self._handlers = InboundHandlers(self._writer, self.report_diagnostic, self._closed)
        self._read_task: asyncio.Task[None] | None = None

    @property
    def state(self) -> TransportState:
        """`idle` until `start()`, `open` until closed, then `closed` for good."""
        return self._state

    @property
    def close_error(self) -> TransportClosedError | None:
        """Why the transport closed (what pending requests failed with); `None` while not closed."""
        return self._close_error

    @property
    def diagnostic_counts(self) -> dict[DiagnosticReason, int]:
        """How many diagnostics of each reason were reported so far."""
        return dict(self._counts)

    def start(self) -> JsonRpcLineTransport:
        """Begins reading the input in a task of the running loop. Idempotent; no effect after
        close."""
        if self._state != "idle":
            return self
        self._state = "open"
        self._read_task = asyncio.get_running_loop().create_task(self._read_input())
        return self

    async def close(self, reason: str | None = None) -> None:
        """Stops reading and fails every pending request with a `TransportClosedError` carrying
        `reason`. The streams are left open. Idempotent."""
        self._shut_down(TransportClosedError("closed", reason or "the transport was closed"))
        task = self._read_task
        if task is not None and not task.done() and task is not asyncio.current_task():
            await asyncio.wait((task,))

    async def wait_closed(self) -> TransportClosedError:
        """Waits until the transport closes; returns why."""
        await self._closed.wait()
        assert self._close_error is not None
        return self._close_error

    def on_request(self, method: str, handler: RequestHandler) -> Callable[[], None]:
        """Registers the handler of an inbound request method (one per method; a second
        registration raises `ValueError`). Returns a function that unregisters it."""
        return self._handlers.on_request(method, handler)

    def on_notification(self, method: str, handler: NotificationHandler) -> Callable[[], None]:
        """Registers the handler of an inbound notification method (one per method).
        A notification without a handler is reported as `unhandled-notification`. Returns a
        function that unregisters it."""
        return self._handlers.on_notification(method, handler)

    async def request(
        self, method: str, params: object = ABSENT, *, timeout: float | None = None
    ) -> Any:
        """Sends a request with the next id (1, 2, …) and returns the response's `result`.

        Raises `JsonRpcResponseError` for an error response, `RequestTimeoutError` when no
        response came within `timeout` seconds (the id is then forgotten), `TransportClosedError`
        when the transport is not open or closes first, `TypeError` when `params` is not JSON and
        `NestingTooDeepError` (a `ValueError`) when it nests deeper than `MAX_NESTING_DEPTH`.
        `params` left out means no `params` member.
        """
        if self._state != _OPEN:
            raise self._refusal()
        if timeout is not None and not timeout >= 0:
            raise ValueError(f"timeout must be None or at least 0, got {timeout}")
        id_ = self._pending.next_id()
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": id_, "method": method}
        if params is not ABSENT:
            message["params"] = params
        line = dumps_frame(message)
        with self._pending.waiting(id_) as future:
            if timeout is None:
                return await self._send_and_wait(line, future)
            try:
                return await asyncio.wait_for(self._send_and_wait(line, future), timeout)
            except asyncio.TimeoutError:
                raise RequestTimeoutError(method, id_, timeout) from None

    async def notify(self, method: str, params: object = ABSENT) -> None:
        """Sends a notification and waits until the output has taken it (back-pressure).
        `params` left out means no `params` member."""
        if self._state != _OPEN:
            raise self._refusal()
        message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
        if params is not ABSENT:
            message["params"] = params
        await self._writer.write(message)

    def report_diagnostic(self, diagnostic: TransportDiagnostic) -> None:
        """Counts a diagnostic and hands it to the observer. The transport calls it for
        everything it ignores; the generated bindings call it for notifications whose params
        break the schema. An observer that raises is ignored."""
        self._counts[diagnostic.reason] = self._counts.get(diagnostic.reason, 0) + 1
        if self._observer is None:
            return
        with contextlib.suppress(Exception):
            self._observer(diagnostic)

    # --- reading ---------------------------------------------------------------------------

    async def _read_input(self) -> None:
        try:
            async with contextlib.aclosing(read_line_batches(self._input, self._lines)) as batches:
                async for entries in batches:
                    self._receive(entries)
                    if self._state != _OPEN:
                        return
        except Exception as error:
            message = f"the input stream failed: {describe_error(error)}"
            failure = TransportClosedError("input-error", message)
            failure.__cause__ = error
            self._shut_down(failure)
            return
        self._shut_down(TransportClosedError("input-ended", "the input stream ended"))

    def _receive(self, entries: list[LineEntry]) -> None:
        """Handles the lines of one chunk. Kept lean: this is the per-line path."""
        parse, reparse = jsonlib.line_parsers()
        parse_large, large = jsonlib.large_line_parser(), jsonlib.LARGE_LINE_CHARS
        classify = classify_message
        exceeds_depth, short = exceeds_nesting_depth, SHORT_LINE_CHARS
        dispatch_notification = self._handlers.dispatch_notification
        dispatch_request = self._handlers.dispatch_request
        number = self._lines.line_count - len(entries)
        for entry in entries:
            number += 1
            if isinstance(entry, LineRejection):
                limit = self._lines.max_frame_bytes
                self.report_diagnostic(rejection_diagnostic(entry, limit))
                continue
            if not entry:
                continue
            if len(entry) > short and exceeds_depth(entry):
                self._refuse_deep_line(entry, number)
                continue
            try:
                message = parse(entry) if len(entry) < large else parse_large(entry)
            except ValueError as error:
                message = error if reparse is None else _parse_or_error(reparse, entry)
                if isinstance(message, ValueError):
                    if exceeds_depth(entry):  # too deep comes first, also for a short line
                        self._refuse_deep_line(entry, number)
                        continue
                    self.report_diagnostic(
                        line_diagnostic(
                            "invalid-json",
                            WireMessage.INVALID_JSON,
                            number,
                            entry,
                            detail=str(message),
                        )
                    )
                    continue
            kind = classify(message)
            if kind is NOTIFICATION:
                dispatch_notification(message, entry, number)
            elif kind is SUCCESS_RESPONSE or kind is ERROR_RESPONSE:
                self._settle(message, kind is SUCCESS_RESPONSE, entry, number)
            elif kind is REQUEST:
                dispatch_request(message, entry, number)
            else:
                assert isinstance(kind, MalformedMessage)
                self.report_diagnostic(
                    line_diagnostic(
                        kind.reason, kind.detail, number, entry, method=kind.method, id=kind.id
                    )
                )
            if self._state != _OPEN:
                return

    def _refuse_deep_line(self, text: LineText, number: int) -> None:
        """A line nested deeper than the limit is never parsed whole: it is reported, and when its
        top level reads as a request with a valid id, answered `-32600` so that its caller does not
        wait."""
        top = read_top_level(text)
        kind = classify_message(top)
        id_ = method = None
        if isinstance(kind, MalformedMessage):
            id_, method = kind.id, kind.method
        elif isinstance(top, dict):
            id_, method = top.get("id"), top.get("method")
        detail = format_message(WireMessage.NESTING_TOO_DEEP, limit=MAX_NESTING_DEPTH)
        self.report_diagnostic(
            line_diagnostic("nesting-too-deep", detail, number, text, method=method, id=id_)
        )
        if kind is REQUEST and isinstance(top, dict):
            code = int(ErrorCode.INVALID_REQUEST)
            message = format_message(WireMessage.FRAME_NESTED_TOO_DEEP, limit=MAX_NESTING_DEPTH)
            self._writer.write_line_soon(
                error_line(echoed_id(top["id"]), {"code": code, "message": message})
            )

    def _settle(
        self, message: dict[str, Any], is_success: bool, text: LineText, number: int
    ) -> None:
        id_ = message["id"]
        future = self._pending.take(id_)
        if future is None:
            detail = format_message(WireMessage.UNKNOWN_RESPONSE_ID, id=jsonlib.dumps(id_))
            self.report_diagnostic(
                line_diagnostic("unknown-response-id", detail, number, text, id=id_)
            )
        elif is_success:
            future.set_result(message["result"])
        else:
            future.set_exception(JsonRpcResponseError.from_error_object(message["error"]))

    # --- writing and closing ---------------------------------------------------------------

    async def _send_and_wait(self, line: bytes, future: asyncio.Future[Any]) -> Any:
        await self._writer.write_line(line)
        return await future

    def _refusal(self) -> TransportClosedError:
        if self._close_error is not None:
            return renew(self._close_error)
        return TransportClosedError("not-started", "call start() first")

    def _shut_down(self, error: TransportClosedError) -> None:
        if self._state == "closed":
            return
        self._state = "closed"
        self._close_error = error
        self._writer.dispose(error)
        self._pending.reject_all(error)
        self._closed.set()
        task = self._read_task
        if task is not None and not task.done() and task is not asyncio.current_task():
            task.cancel()


def _parse_or_error(parse: Callable[[LineText], Any], text: LineText) -> Any:
    """The parsed value, or the `ValueError` that says why `text` is not JSON (no JSON value is
    an exception, so the two cannot be confused)."""
    try:
        return parse(text)
    except ValueError as error:
        return error
