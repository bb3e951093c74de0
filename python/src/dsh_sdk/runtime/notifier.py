"""What sessions send, and the gate that silences them once the runtime stops."""

from __future__ import annotations

import asyncio
from typing import Any, Protocol

from dsh_sdk._gen.peers import HarnessSdkNotifier

__all__ = ["Notifier", "NotifierGate", "RuntimeStoppedError"]

Notifier = HarnessSdkNotifier
"""The notifications a runtime sends: the generated typed notify coroutines."""


class _Sends(Protocol):
    async def notify(self, method: str, params: Any = ...) -> None: ...


class RuntimeStoppedError(Exception):
    """A notification was refused because the runtime stopped (after `shutdown`)."""

    def __init__(self) -> None:
        super().__init__("the runtime is shutting down")


class NotifierGate(HarnessSdkNotifier):
    """Forwards notifications to a transport (yielding to the loop after each) until closed;
    afterwards every notification is refused with `RuntimeStoppedError`, which ends the turn that
    tried to send it.

    Created before the transport is bound (the server needs the sessions, the sessions need the
    notifier).
    """

    __slots__ = ("_is_closed", "_transport")

    def __init__(self) -> None:
        super().__init__(self._forward)
        self._transport: _Sends | None = None
        self._is_closed = False

    def bind(self, transport: _Sends) -> None:
        """Starts forwarding to `transport`."""
        self._transport = transport

    def close(self) -> None:
        """Refuses every later notification."""
        self._is_closed = True

    async def _forward(self, method: str, params: Any) -> None:
        if self._is_closed or self._transport is None:
            raise RuntimeStoppedError()
        await self._transport.notify(method, params)
        # Lets the loop run once after each frame, as the TypeScript runtime's writes do (each
        # waits for its write callback): sessions take turns and requests are read while a turn
        # streams, even when the output never pushes back.
        await asyncio.sleep(0)
