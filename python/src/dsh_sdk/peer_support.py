"""What the generated peers (`_gen/peers.py`) share: schema checks that speak the protocol's error
shapes, conversion between wire values and dataclasses, and fan-out of one notification to many
subscribers. The twin of `packages/protocol/src/peer-support.ts`.
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any, Generic, Protocol, TypeVar, overload

from dsh_sdk._gen.constants import ERROR_MESSAGES, ErrorCode, WireMessage, format_message
from dsh_sdk._gen.models import Violation
from dsh_sdk.codec import CodecError, decode, encode
from dsh_sdk.diagnostics import TransportDiagnostic, handler_failure_diagnostic
from dsh_sdk.errors import JsonRpcResponseError
from dsh_sdk.inbound_handlers import (
    NotificationContext,
    NotificationHandler,
    RequestHandler,
    describe_error,
)
from dsh_sdk.transport import JsonRpcTransportPeer
from dsh_sdk.validation_runtime import Validator
from dsh_sdk.wire_object import WireObject

__all__ = [
    "NotificationFanout",
    "PeerTransport",
    "ProtocolError",
    "Subscriber",
    "answer",
    "decode_params",
    "decode_result",
    "describe_violations",
    "implements",
    "invalid_params_error",
    "method_not_found",
    "register_request_handlers",
    "require_family",
    "require_valid_params",
    "require_valid_result",
]

T = TypeVar("T", bound=WireObject)

Subscriber = Callable[[T], Awaitable[None] | None]
"""A notification subscriber: gets the decoded params; may be a coroutine function."""


class PeerTransport(JsonRpcTransportPeer, Protocol):
    """The transport surface the generated peers use; `JsonRpcLineTransport` provides it."""

    def on_request(self, method: str, handler: RequestHandler) -> Callable[[], None]:
        """Registers the handler of an inbound request method; returns its unregister function."""
        ...

    def on_notification(self, method: str, handler: NotificationHandler) -> Callable[[], None]:
        """Registers the handler of an inbound notification method; returns its unregister
        function."""
        ...

    def report_diagnostic(self, diagnostic: TransportDiagnostic) -> None:
        """Counts a diagnostic and hands it to the transport's observer."""
        ...


class ProtocolError(Exception):
    """A result that breaks the schema: the peer answered something the protocol does not allow."""

    method: str
    """The wire method of the request whose result broke the schema."""
    violations: tuple[Violation, ...]
    """Every violation found, with JSON pointers into the result."""

    def __init__(self, method: str, violations: Sequence[Violation]) -> None:
        super().__init__(
            f"the result of {method} breaks the schema: {describe_violations(violations)}"
        )
        self.method = method
        self.violations = tuple(violations)

    def __repr__(self) -> str:
        return f"ProtocolError({self.method!r}, {list(self.violations)!r})"


def describe_violations(violations: Sequence[Violation]) -> str:
    """`/maxTokens must be >= 1; / must have required property 'cwd'`: one readable line."""
    return "; ".join(f"{v.pointer or '/'} {v.message}" for v in violations)


def invalid_params_error(violations: Sequence[Violation]) -> JsonRpcResponseError:
    """The `-32602` error whose `data` lists every violation as `{pointer, message}` wire objects.
    Handlers raise it too, for params the schema accepts but the server refuses (an unknown
    model, an attachment it does not hold)."""
    code = ErrorCode.INVALID_PARAMS
    data = [{"pointer": v.pointer, "message": v.message} for v in violations]
    return JsonRpcResponseError(code, ERROR_MESSAGES[code], data)


def require_valid_params(validate: Validator, params: object) -> None:
    """Raises the `-32602` error listing every violation when `params` break the schema."""
    violations = validate(params)
    if violations:
        raise invalid_params_error(violations)


def require_valid_result(validate: Validator, method: str, result: object) -> None:
    """Raises a `ProtocolError` naming `method` and every violation when `result` breaks the
    schema."""
    violations = validate(result)
    if violations:
        raise ProtocolError(method, violations)


@overload
def decode_params(kind: type[T], params: object) -> T: ...
@overload
def decode_params(kind: object, params: object) -> Any: ...
def decode_params(kind: object, params: object) -> Any:
    """Params as their dataclass (`kind` a generated class or union alias). Checked params always
    decode; unchecked ones (validation off) that cannot are refused with `-32602`, like params
    that break the schema."""
    try:
        return decode(kind, params)
    except CodecError as error:
        raise invalid_params_error([Violation(pointer="", message=str(error))]) from None


@overload
def decode_result(kind: type[T], method: str, result: object) -> T: ...
@overload
def decode_result(kind: object, method: str, result: object) -> Any: ...
def decode_result(kind: object, method: str, result: object) -> Any:
    """A result as its dataclass (`kind` a generated class or union alias). Checked results
    always decode; an unchecked one (validation off) that cannot raises a `ProtocolError`."""
    try:
        return decode(kind, result)
    except CodecError as error:
        raise ProtocolError(method, [Violation(pointer="", message=str(error))]) from None


async def answer(pending: Awaitable[WireObject]) -> dict[str, Any]:
    """Awaits a request handler and encodes the dataclass it returns as the wire `result`."""
    return encode(await pending)


def method_not_found(method: str) -> JsonRpcResponseError:
    """The `-32601` error of a request nobody handles, as the transport answers it."""
    code = ErrorCode.METHOD_NOT_FOUND
    return JsonRpcResponseError(code, format_message(WireMessage.METHOD_NOT_FOUND, method=method))


def require_family(prefix: str, method: str) -> None:
    """Refuses, before anything is sent, a method of a prefix family (`_…` extension methods)
    that does not start with the family's prefix."""
    if not method.startswith(prefix):
        message = f"{method!r} is not a method of the family {prefix!r}…: it must start with it"
        raise ValueError(message)


def implements(handlers: object, protocol: type, name: str) -> bool:
    """Whether `handlers` has its own coroutine `name`: not absent, and not the default body it
    inherits from the handlers `protocol` it subclasses (an optional method left out)."""
    method = getattr(handlers, name, None)
    if method is None:
        return False
    return getattr(method, "__func__", method) is not protocol.__dict__.get(name)


def register_request_handlers(
    transport: PeerTransport, handlers: Mapping[str, RequestHandler]
) -> Callable[[], None]:
    """Registers every handler, or none: if one registration fails, those made are undone and
    the error propagates. Returns the function that unregisters them all."""
    disposers: list[Callable[[], None]] = []

    def dispose() -> None:
        while disposers:
            disposers.pop()()

    try:
        for method, handler in handlers.items():
            disposers.append(transport.on_request(method, handler))
    except BaseException:
        dispose()
        raise
    return dispose


class NotificationFanout(Generic[T]):
    """Delivers one notification method to any number of subscribers, after checking its params
    and decoding them to their dataclass.

    Params that break the schema (or, with validation off, cannot be decoded) are dropped and
    reported as `invalid-notification-params`. The transport handler is registered with the first
    subscriber and unregistered with the last. A subscriber that raises (or whose coroutine does)
    is reported as `notification-handler-failed`; the other subscribers still get the params.
    """

    __slots__ = ("_handlers", "_kind", "_method", "_transport", "_unregister", "_validate")

    def __init__(
        self, transport: PeerTransport, method: str, validate: Validator | None, kind: type[T]
    ) -> None:
        self._transport = transport
        self._method = method
        self._validate = validate
        self._kind = kind
        # Replaced, never mutated, so that a delivery iterates a snapshot for free.
        self._handlers: tuple[Subscriber[T], ...] = ()
        self._unregister: Callable[[], None] | None = None

    def subscribe(self, handler: Subscriber[T]) -> Callable[[], None]:
        """Adds `handler` (once, however often it is added); returns the function that removes
        it."""
        if self._unregister is None:
            self._unregister = self._transport.on_notification(self._method, self._deliver)
        if handler not in self._handlers:
            self._handlers = (*self._handlers, handler)

        def unsubscribe() -> None:
            self._remove(handler)

        return unsubscribe

    def _remove(self, handler: Subscriber[T]) -> None:
        if handler not in self._handlers:
            return
        self._handlers = tuple(h for h in self._handlers if h != handler)
        if not self._handlers and self._unregister is not None:
            self._unregister()
            self._unregister = None

    def _deliver(self, params: Any, context: NotificationContext) -> Awaitable[None] | None:
        """The transport's handler: kept lean, it runs once per notification."""
        validate = self._validate
        if validate is not None:
            violations = validate(params)
            if violations:
                self._report_invalid(violations, context)
                return None
        try:
            value = decode(self._kind, params)
        except CodecError as error:
            self._report_invalid([Violation(pointer="", message=str(error))], context)
            return None
        handlers = self._handlers
        if len(handlers) == 1:
            # The transport reports what the one subscriber raises, or its coroutine does.
            return handlers[0](value)
        return self._deliver_to_each(handlers, value, context)

    def _deliver_to_each(
        self, handlers: tuple[Subscriber[T], ...], value: T, context: NotificationContext
    ) -> Awaitable[None] | None:
        pending: list[Awaitable[None]] = []
        for handler in handlers:
            try:
                outcome = handler(value)
            except Exception as error:
                self._report_failure(error, context)
                continue
            if outcome is not None and inspect.isawaitable(outcome):
                pending.append(outcome)
        return self._await_each(pending, context) if pending else None

    async def _await_each(
        self, pending: list[Awaitable[None]], context: NotificationContext
    ) -> None:
        for outcome in await asyncio.gather(*pending, return_exceptions=True):
            if isinstance(outcome, Exception):
                self._report_failure(outcome, context)

    def _report_invalid(
        self, violations: Sequence[Violation], context: NotificationContext
    ) -> None:
        message = format_message(
            WireMessage.INVALID_NOTIFICATION_PARAMS,
            method=self._method,
            violations=describe_violations(violations),
        )
        self._transport.report_diagnostic(
            TransportDiagnostic(
                reason="invalid-notification-params",
                message=message,
                line=context.line,
                bytes=context.bytes,
                method=self._method,
                violations=tuple(violations),
            )
        )

    def _report_failure(self, error: Exception, context: NotificationContext) -> None:
        # The report the transport makes for a failing handler of its own.
        text = describe_error(error)
        diagnostic = handler_failure_diagnostic(
            self._method, context.line, context.bytes, error, text
        )
        self._transport.report_diagnostic(diagnostic)
