"""Every server → client notification as one `(method, params)` stream, in wire order."""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from dsh_sdk._gen.constants import WireMessage, format_message
from dsh_sdk._gen.peers import HarnessSdkClientPeer, HarnessSdkNotificationParams
from dsh_sdk.diagnostics import TransportDiagnostic
from dsh_sdk.inbound_handlers import describe_error
from dsh_sdk.peer_support import PeerTransport

__all__ = [
    "HarnessNotification",
    "NotificationHub",
    "NotificationListener",
    "NotificationParams",
]

NotificationParams = HarnessSdkNotificationParams
"""The params of any server → client notification, decoded."""


class HarnessNotification(NamedTuple):
    """One notification of the runtime: its wire method and its checked, decoded params. Narrow
    with `isinstance(notification.params, SessionEventNotification)` and the like."""

    method: str
    params: NotificationParams


NotificationListener = Callable[[HarnessNotification], None]
"""Receives notifications, in the order they came on the wire."""


class NotificationHub:
    """Merges the peer's typed subscriptions (`on_any_notification`) into one stream. The
    transport delivers each line synchronously as it is read, so listeners see the notifications
    in wire order. A listener
    that raises is reported as `notification-handler-failed` and does not stop the others. A
    notification that arrives while no listener is subscribed is reported as
    `unhandled-notification`: nothing is dropped in silence (subscribe before the handshake, with
    `HarnessClient.spawn(on_notification=...)`, to see everything from the start)."""

    def __init__(self, peer: HarnessSdkClientPeer, transport: PeerTransport) -> None:
        self._transport = transport
        self._listeners: tuple[NotificationListener, ...] = ()
        peer.on_any_notification(
            lambda method, params: self._dispatch(HarnessNotification(method, params))
        )

    def subscribe(self, listener: NotificationListener) -> Callable[[], None]:
        """Adds a listener; returns the function that removes it."""
        self._listeners = (*self._listeners, listener)

        def unsubscribe() -> None:
            self._listeners = tuple(item for item in self._listeners if item is not listener)

        return unsubscribe

    def _dispatch(self, notification: HarnessNotification) -> None:
        if not self._listeners:
            self._transport.report_diagnostic(
                TransportDiagnostic(
                    reason="unhandled-notification",
                    message=format_message(WireMessage.NO_LISTENER, method=notification.method),
                    method=notification.method,
                )
            )
            return
        for listener in self._listeners:  # a snapshot: the tuple is replaced, never mutated
            try:
                listener(notification)
            except Exception as error:
                self._transport.report_diagnostic(
                    TransportDiagnostic(
                        reason="notification-handler-failed",
                        message=format_message(
                            WireMessage.NOTIFICATION_LISTENER_FAILED,
                            method=notification.method,
                            error=describe_error(error),
                        ),
                        method=notification.method,
                        cause=error,
                    )
                )
