"""Sessions of the runtime: their durable log counters and their FIFO of turns."""

from __future__ import annotations

import asyncio
import time
from collections import deque
from collections.abc import Awaitable, Callable

from dsh_sdk._gen.models import (
    SessionEvent,
    SessionEventNotification,
    SessionStatus,
    SessionStatusNotification,
    TurnAbortKind,
)
from dsh_sdk.runtime.notifier import Notifier
from dsh_sdk.runtime.turn_control import TurnControl

__all__ = ["EventBuilder", "QueuedTurn", "Session", "SessionRegistry"]

QueuedTurn = Callable[[TurnControl], Awaitable[object]]
"""A queued turn: runs once the session's previous turns have ended, with its interrupt switch."""

EventBuilder = Callable[[int, int], SessionEvent]
"""Builds a log entry from its `seq` and `time` (the session stamps each entry as it sends it)."""

TurnFailureHandler = Callable[[BaseException, "Session"], None]


def _now_ms() -> int:
    """The wall clock in epoch milliseconds, as JavaScript's `Date.now()`."""
    return time.time_ns() // 1_000_000


class Session:
    """One session of the runtime: its durable log counters (`seq`, message ids, turns, children)
    and its FIFO of turns. Turns of one session run one at a time in prompt order; sessions run
    independently of each other."""

    def __init__(self, id: str, notifier: Notifier, on_turn_failed: TurnFailureHandler) -> None:
        self.id = id
        self._notifier = notifier
        self._on_turn_failed = on_turn_failed
        self._queue: deque[QueuedTurn] = deque()
        self._seq = 0
        self._message_count = 0
        self._turn_count = 0
        self._child_count = 0
        self._is_accepting_turns = True
        self._draining: asyncio.Task[None] | None = None
        self._current: TurnControl | None = None
        """The turn in progress: from the moment it is taken from the queue until it ended."""
        self._status: SessionStatus | None = None
        self._children: dict[str, None] = {}
        """Ids of the child sessions its turns started (closed with it), in order."""

    def next_message_id(self) -> str:
        """`<sessionId>/m<n>`: `n` counts the session's user messages from 1, in the order prompts
        arrive."""
        self._message_count += 1
        return f"{self.id}/m{self._message_count}"

    def next_turn_index(self) -> int:
        """The index of the next turn, counting from 0."""
        index = self._turn_count
        self._turn_count += 1
        return index

    def next_child_index(self) -> int:
        """The index `k` of the next child agent (and its tool call), counting from 1."""
        self._child_count += 1
        return self._child_count

    async def emit(self, build: EventBuilder) -> None:
        """Appends an entry to the session's log: sends `session.event` with the next `seq`."""
        event = build(self._seq, _now_ms())
        self._seq += 1
        await self._notifier.notify_session_event(
            SessionEventNotification(session_id=self.id, event=event)
        )

    async def set_status(self, status: SessionStatus) -> None:
        """Sends `session.status`, unless the session already has that status (no second
        `running`)."""
        if self._status == status:
            return
        self._status = status
        await self._notifier.notify_session_status(
            SessionStatusNotification(session_id=self.id, status=status)
        )

    @property
    def has_queued_turns(self) -> bool:
        """Whether prompts wait behind the turn in progress."""
        return len(self._queue) > 0

    def attach(self, control: TurnControl) -> None:
        """Makes `control` the session's turn in progress (a child's turn runs outside the
        queue)."""
        self._current = control

    def detach(self, control: TurnControl) -> None:
        """The turn of `control` ended."""
        if self._current is control:
            self._current = None

    def interrupt(self, abort_kind: TurnAbortKind) -> bool:
        """Interrupts the turn in progress (`abort_kind`: why, the nested reason of its
        `turn/end`); False when there is none. The queue is left as it is."""
        current = self._current
        if current is None:
            return False
        current.interrupt(abort_kind)
        return True

    def add_child(self, child_session_id: str) -> None:
        """Records a child session started by one of its turns."""
        self._children[child_session_id] = None

    @property
    def children(self) -> tuple[str, ...]:
        """The child sessions its turns started."""
        return tuple(self._children)

    def enqueue(self, turn: QueuedTurn) -> None:
        """Queues a turn. On an idle session it is taken at once (it has started: the end of the
        input does not drop it) and runs after the responses already being written, so a prompt's
        response precedes its turn's frames; otherwise it waits its turn. Ignored once the session
        stopped accepting turns."""
        if not self._is_accepting_turns:
            return
        if self._draining is None:
            # Taken at once: it is the turn in progress, which an interrupt can stop before it
            # wrote anything.
            control = TurnControl()
            self.attach(control)
            self._draining = asyncio.ensure_future(self._drain(turn, control))
        else:
            self._queue.append(turn)

    def stop_accepting_turns(self) -> asyncio.Future[None]:
        """Drops the queued turns; the result resolves once the running one, if any, has ended."""
        self._is_accepting_turns = False
        self._queue.clear()
        if self._draining is not None:
            return self._draining
        idle: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        idle.set_result(None)
        return idle

    def close(self) -> asyncio.Future[None]:
        """`session/close`: drops the queued turns, interrupts the running one; the result
        resolves once it ended."""
        stopped = self.stop_accepting_turns()
        self.interrupt("disposed")
        return stopped

    async def _drain(self, first: QueuedTurn, control: TurnControl) -> None:
        turn: QueuedTurn | None = first
        while turn is not None:
            await asyncio.sleep(0)  # the responses already handed to the writer go first
            try:
                await turn(control)
            except Exception as error:
                self._on_turn_failed(error, self)
            self.detach(control)
            turn = self._queue.popleft() if self._queue else None
            if turn is not None:
                control = TurnControl()
                self.attach(control)
        self._draining = None


class SessionRegistry:
    """Every session of the runtime by id; sessions are created lazily on first use."""

    def __init__(self, create: Callable[[str], Session]) -> None:
        self._sessions: dict[str, Session] = {}
        self._create = create

    def open(self, id: str) -> Session:
        """The session with this id, created if it does not exist yet."""
        session = self._sessions.get(id)
        if session is None:
            session = self._create(id)
            self._sessions[id] = session
        return session

    def find(self, id: str) -> Session | None:
        """The session with this id, if the runtime holds one."""
        return self._sessions.get(id)

    async def close(self, id: str) -> bool:
        """Disposes a session and the child sessions its turns started: they leave the registry
        at once (a later prompt creates a new session), then their running turns are interrupted
        and their queues dropped. Returns once every one of them stopped; False when there was no
        such session."""
        session = self._sessions.get(id)
        if session is None:
            return False
        closing: list[asyncio.Future[None]] = []

        def visit(current: Session) -> None:
            self._sessions.pop(current.id, None)
            closing.append(current.close())
            for child in current.children:
                found = self._sessions.get(child)
                if found is not None:
                    visit(found)

        visit(session)
        await asyncio.wait(closing)
        return True

    async def stop_all(self) -> None:
        """Stops every session from starting queued turns; returns when the running ones ended."""
        waits = [session.stop_accepting_turns() for session in list(self._sessions.values())]
        if waits:
            await asyncio.wait(waits)
