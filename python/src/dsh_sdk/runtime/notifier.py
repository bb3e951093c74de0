"""What sessions send, and the gate that silences them once the runtime stops."""

from __future__ import annotations

import asyncio
from typing import Protocol

from dsh_sdk._gen.models import (
    SessionEventNotification,
    SessionStatusNotification,
    SubagentFinishedNotification,
    SubagentStartedNotification,
)

__all__ = ["Notifier", "NotifierGate", "RuntimeStoppedError"]


async def _take_turns() -> None:
    """Lets the loop run once after each frame, as the TypeScript runtime's writes do (each waits
    for its write callback): sessions take turns and requests are read while a turn streams, even
    when the output never pushes back."""
    await asyncio.sleep(0)


class Notifier(Protocol):
    """The notifications a runtime sends: the notify half of the generated server peer."""

    async def notify_session_event(self, params: SessionEventNotification) -> None: ...

    async def notify_session_status(self, params: SessionStatusNotification) -> None: ...

    async def notify_subagent_started(self, params: SubagentStartedNotification) -> None: ...

    async def notify_subagent_finished(self, params: SubagentFinishedNotification) -> None: ...


class RuntimeStoppedError(Exception):
    """A notification was refused because the runtime stopped (after `shutdown`)."""

    def __init__(self) -> None:
        super().__init__("the runtime is shutting down")


class NotifierGate:
    """Forwards notifications to a server peer (yielding to the loop after each) until closed;
    afterwards every notification is refused with `RuntimeStoppedError`, which ends the turn that
    tried to send it.

    Created before the peer exists (the peer needs the handlers, the handlers need the notifier).
    """

    def __init__(self) -> None:
        self._peer: Notifier | None = None
        self._is_closed = False

    def bind(self, peer: Notifier) -> None:
        """Starts forwarding to `peer`."""
        self._peer = peer

    def close(self) -> None:
        """Refuses every later notification."""
        self._is_closed = True

    async def notify_session_event(self, params: SessionEventNotification) -> None:
        await self._open().notify_session_event(params)
        await _take_turns()

    async def notify_session_status(self, params: SessionStatusNotification) -> None:
        await self._open().notify_session_status(params)
        await _take_turns()

    async def notify_subagent_started(self, params: SubagentStartedNotification) -> None:
        await self._open().notify_subagent_started(params)
        await _take_turns()

    async def notify_subagent_finished(self, params: SubagentFinishedNotification) -> None:
        await self._open().notify_subagent_finished(params)
        await _take_turns()

    def _open(self) -> Notifier:
        if self._is_closed or self._peer is None:
            raise RuntimeStoppedError()
        return self._peer
