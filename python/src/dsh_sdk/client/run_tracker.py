"""One run's view of the notification stream (docs/protocol.md, "A prompt's life"): from the
prompt's durable receipt to the root session's next `idle`, over the session tree the run owns."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from dsh_sdk._gen.models import (
    AgentInboxSplicedEvent,
    AssistantMessageEvent,
    SessionEvent,
    SessionEventNotification,
    SessionStatusNotification,
    SubagentStartedNotification,
    TurnEndEvent,
    TurnEndKind,
)
from dsh_sdk.client.errors import RunStage
from dsh_sdk.client.notifications import HarnessNotification
from dsh_sdk.client.session_events import chunk_text_of, text_of

__all__ = ["RunResult", "RunTracker"]


@dataclass(frozen=True, kw_only=True, slots=True)
class RunResult:
    """What a run produced, once its root session went idle."""

    session_id: str
    """The root session."""
    message_id: str
    """The id of the prompt's user message (its receipt)."""
    final_response: str
    """The text of the root session's last `assistant/message` (`""` when there was none)."""
    partial_response: str
    """The text the root session streamed during the run: its `assistant/chunk` text deltas
    joined, exactly what `stream_text` yields. A reply cut short (interrupted, timed out) has no
    `assistant/message`, so this is where its text so far is."""
    finish_reason: TurnEndKind | None
    """The `reason.kind` of the root session's last `turn/end`; `None` when there was none."""
    events: tuple[SessionEvent, ...]
    """The root session's events, from the receipt to the end of the run."""
    notifications: tuple[HarnessNotification, ...]
    """Every notification of the session tree (root and revealed children), in wire order."""


class RunTracker:
    """Follows one run. Subscribed before the prompt is sent; the prompt's response and its
    receipt may come in either order, so notifications are buffered until the response is
    known.

    The run ends on the root session's next `idle` (IDL: `session.status`), or once its turn ended
    `aborted` (version 2: nothing of an interrupted turn follows its `turn/end`, and `idle` does not
    come while prompts are queued): then at the root's next frame, the `idle` (kept) or the first
    frame of the next queued turn (not this run's)."""

    def __init__(
        self,
        session_id: str,
        on_notification: Callable[[HarnessNotification], None] | None = None,
    ) -> None:
        self.session_id = session_id
        self.done: asyncio.Future[RunResult] = asyncio.get_running_loop().create_future()
        """Settles with the result, or with the error given to `fail`."""
        self._on_notification = on_notification
        self._tree = {session_id}
        self._events: list[SessionEvent] = []
        self._notifications: list[HarnessNotification] = []
        self._unmatched: list[HarnessNotification] = []
        """The notifications seen while the message id is still unknown."""
        self._message_id: str | None = None
        self._is_started = False
        self._is_turn_aborted = False
        self._has_turn_ended = False
        """The root's turn ended `aborted`: the run ends at the root's next frame."""
        self._is_expiring = False
        """Its timeout ran out: it fails once the client has interrupted its turn, even if the
        turn ends first."""
        self.started = asyncio.Event()
        """Set once the receipt arrived, or the run settled without one."""
        self.done.add_done_callback(lambda _: self.started.set())

    @property
    def stage(self) -> RunStage:
        """Where the run stands: before its receipt, or between the receipt and `idle`."""
        return "waiting-for-idle" if self._is_started else "waiting-for-receipt"

    @property
    def is_settled(self) -> bool:
        return self.done.done()

    @property
    def has_turn_ended(self) -> bool:
        """The run's own turn ended (its root's first `turn/end`): what follows is a queued
        prompt's."""
        return self._has_turn_ended

    @property
    def is_started(self) -> bool:
        """Whether the receipt came: the run's turn has started."""
        return self._is_started

    @property
    def partial_response(self) -> str:
        """The text the root session streamed so far (see `RunResult.partial_response`)."""
        deltas = (chunk_text_of(event) for event in self._events)
        return "".join(delta for delta in deltas if delta is not None)

    def snapshot(self) -> RunResult | None:
        """The run as it stands, for a run that will not settle with a result of its own (detached
        or failed); `None` before the prompt's response named its message."""
        if self._message_id is None:
            return None
        return self._result(self._message_id)

    def set_message_id(self, message_id: str) -> None:
        """Takes the prompt's response; replays the buffered notifications from the receipt on."""
        if self.is_settled or self._message_id is not None:
            return
        self._message_id = message_id
        buffered, self._unmatched = self._unmatched, []
        for notification in buffered:
            self.accept(notification)

    def accept(self, notification: HarnessNotification) -> None:
        """Takes the next notification of the runtime (of any session), in wire order."""
        if self.is_settled:
            return
        if self._is_started:
            self._follow(notification)
        elif self._message_id is None:
            # Kept whole: the receipt and the children's first frames can come in the same read
            # as the response, before the caller has seen the response.
            self._unmatched.append(notification)
        elif self._is_receipt(notification, self._message_id):
            self._is_started = True
            self.started.set()
            self._follow(notification)
        # Otherwise it is another session's, or an earlier turn's of this session.

    def expire(self) -> None:
        """The run's timeout ran out: it goes on following (for `partial_response`) but will end
        only with the error given to `fail`."""
        self._is_expiring = True

    def fail(self, error: BaseException) -> None:
        """Ends the run with `error` (a timeout, the runtime exiting, a failed prompt)."""
        if self.is_settled:
            return
        self._unmatched = []
        self.done.set_exception(error)

    def _follow(self, notification: HarnessNotification) -> None:
        if not self._concerns_tree(notification):
            return
        params = notification.params
        is_idle = (
            isinstance(params, SessionStatusNotification)
            and params.session_id == self.session_id
            and params.status == "idle"
        )
        if self._is_turn_aborted and not is_idle and self.session_id in _sessions_of(notification):
            self._finish()  # the next queued turn's first frame
            return
        self._notifications.append(notification)
        if isinstance(params, SubagentStartedNotification):
            self._tree.add(params.child_session_id)
        if isinstance(params, SessionEventNotification) and params.session_id == self.session_id:
            self._events.append(params.event)
            event = params.event
            if isinstance(event, TurnEndEvent):
                self._has_turn_ended = True
                if event.data.reason.kind == "aborted":
                    self._is_turn_aborted = True
        if self._on_notification is not None:
            try:
                self._on_notification(notification)
            except Exception as error:
                self.fail(error)
                return
        if is_idle:
            self._finish()

    def _finish(self) -> None:
        if self.is_settled or self._message_id is None or self._is_expiring:
            return
        self.done.set_result(self._result(self._message_id))

    def _result(self, message_id: str) -> RunResult:
        final_response = ""
        finish_reason: TurnEndKind | None = None
        for event in self._events:
            if isinstance(event, AssistantMessageEvent):
                final_response = text_of(event.data.message.content)
            elif isinstance(event, TurnEndEvent):
                finish_reason = event.data.reason.kind
        return RunResult(
            session_id=self.session_id,
            message_id=message_id,
            final_response=final_response,
            partial_response=self.partial_response,
            finish_reason=finish_reason,
            events=tuple(self._events),
            notifications=tuple(self._notifications),
        )

    def _is_receipt(self, notification: HarnessNotification, message_id: str) -> bool:
        params = notification.params
        return (
            isinstance(params, SessionEventNotification)
            and params.session_id == self.session_id
            and isinstance(params.event, AgentInboxSplicedEvent)
            and any(message.id == message_id for message in params.event.data.inserted)
        )

    def _concerns_tree(self, notification: HarnessNotification) -> bool:
        return any(session_id in self._tree for session_id in _sessions_of(notification))


_SESSION_FIELDS: Final = ("session_id", "parent_session_id", "child_session_id")
"""The session ids a notification's params can name."""


def _sessions_of(notification: HarnessNotification) -> tuple[str, ...]:
    """The sessions a notification is about: the session ids its params name (for a child's start
    or end, its parent and itself). Read by name, so a notification added to the protocol is
    routed without a list to update."""
    found = (getattr(notification.params, field, None) for field in _SESSION_FIELDS)
    return tuple(value for value in found if isinstance(value, str))
