"""Fan-out of one inbound notification method to many subscribers, its params checked and decoded
by the protocol's codec first: the subscriptions of the generated peers (`on_<name>`)."""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Generic, TypeVar

from dsh_sdk._gen.constants import WireMessage, format_message
from dsh_sdk._gen.models import Violation
from dsh_sdk.diagnostics import TransportDiagnostic, handler_failure_diagnostic
from dsh_sdk.inbound_handlers import NotificationContext, describe_error
from dsh_sdk.peer_runtime import Decode, PeerTransport, Subscriber, describe_violations
from dsh_sdk.validation_runtime import Validator
from dsh_sdk.wire_codec import CodecError
from dsh_sdk.wire_object import WireObject

__all__ = ["NotificationFanout"]

T = TypeVar("T", bound=WireObject)


class NotificationFanout(Generic[T]):
    """Delivers one notification method to any number of subscribers, after checking its params
    and decoding them to their dataclass with `decode`, the protocol's codec's.

    Params that break the schema (or, with validation off, cannot be decoded) are dropped and
    reported as `invalid-notification-params`. The transport handler is registered with the first
    subscriber and unregistered with the last. A subscriber that raises (or whose coroutine does)
    is reported as `notification-handler-failed`; the other subscribers still get the params.
    """

    __slots__ = (
        "_decode",
        "_handlers",
        "_kind",
        "_method",
        "_transport",
        "_unregister",
        "_validate",
    )

    def __init__(
        self,
        transport: PeerTransport,
        method: str,
        validate: Validator | None,
        kind: type[T],
        decode: Decode,
    ) -> None:
        self._transport = transport
        self._method = method
        self._validate = validate
        self._kind = kind
        self._decode = decode
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
            value = self._decode(self._kind, params)
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
