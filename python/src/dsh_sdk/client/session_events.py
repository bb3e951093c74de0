"""Reading session events: the text of message content, and the text a reply streams."""

from __future__ import annotations

from collections.abc import Sequence

from dsh_sdk._gen.models import (
    AssistantChunkEvent,
    ContentBlock,
    SessionEvent,
    SessionEventNotification,
    TextBlock,
)
from dsh_sdk.client.notifications import HarnessNotification

__all__ = ["chunk_text_of", "text_delta_of", "text_of"]


def text_of(content: Sequence[ContentBlock]) -> str:
    """The text of a message: its `text` blocks joined, everything else skipped. (Narrow an event
    with `isinstance` against its generated class, e.g. `AssistantMessageEvent`.)"""
    return "".join(block.text for block in content if isinstance(block, TextBlock))


def chunk_text_of(event: SessionEvent) -> str | None:
    """The text an `assistant/chunk` streams; `None` for any other event or a non-text delta."""
    if isinstance(event, AssistantChunkEvent) and isinstance(event.data.delta, TextBlock):
        return event.data.delta.text
    return None


def text_delta_of(notification: HarnessNotification, session_id: str) -> str | None:
    """The text delta `notification` streams for `session_id` (a child session's is not its
    parent's reply); `None` when it streams none."""
    params = notification.params
    if isinstance(params, SessionEventNotification) and params.session_id == session_id:
        return chunk_text_of(params.event)
    return None
