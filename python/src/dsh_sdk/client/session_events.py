"""Reading session events: the text of message content."""

from __future__ import annotations

from collections.abc import Sequence

from dsh_sdk._gen.models import ContentBlock, TextBlock

__all__ = ["text_of"]


def text_of(content: Sequence[ContentBlock]) -> str:
    """The text of a message: its `text` blocks joined, everything else skipped. (Narrow an event
    with `isinstance` against its generated class, e.g. `AssistantMessageEvent`.)"""
    return "".join(block.text for block in content if isinstance(block, TextBlock))
