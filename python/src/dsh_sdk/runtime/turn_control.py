"""How a running turn learns that it was interrupted (`session/interrupt`, `session/close`): an
abort flag it checks before every frame it would write, and pauses that end early."""

from __future__ import annotations

import asyncio
import contextlib

from dsh_sdk._gen.models import TurnAbortKind

__all__ = ["TurnControl", "TurnInterruptedError"]


class TurnInterruptedError(Exception):
    """Raised inside a turn once it was interrupted; the turn then writes its closing frames,
    with `abort_kind` as the nested reason of its `turn/end`."""

    def __init__(self, abort_kind: TurnAbortKind) -> None:
        super().__init__("the turn was interrupted")
        self.abort_kind = abort_kind


class TurnControl:
    """The interrupt switch of one turn; a child agent's turn is interrupted with its parent's,
    and then says so (`parent`)."""

    def __init__(self, parent: TurnControl | None = None) -> None:
        self._interrupted = asyncio.Event()
        self._abort_kind: TurnAbortKind | None = None
        """Why it was interrupted: the first cause wins (a close after an interrupt changes
        nothing)."""
        self._children: list[TurnControl] = []
        if parent is not None:
            parent._children.append(self)
            if parent.is_interrupted:
                self.interrupt("parent")

    @property
    def is_interrupted(self) -> bool:
        return self._interrupted.is_set()

    def interrupt(self, abort_kind: TurnAbortKind) -> None:
        """Synchronous: once it returns, the turn (and its children's) writes no frame of its
        reply any more. `abort_kind`: `user` for `session/interrupt`, `disposed` for
        `session/close`."""
        if self._abort_kind is not None:
            return
        self._abort_kind = abort_kind
        self._interrupted.set()
        for child in self._children:
            child.interrupt("parent")

    def raise_if_interrupted(self) -> None:
        """Called right before writing a frame of the reply (no `await` between the two)."""
        if self._abort_kind is not None:
            raise TurnInterruptedError(self._abort_kind)

    async def pause(self, seconds: float) -> None:
        """Waits `seconds`, or until the turn is interrupted, whichever comes first."""
        if self.is_interrupted:
            return
        # asyncio.TimeoutError: before Python 3.11 it is not the built-in TimeoutError.
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._interrupted.wait(), seconds)
