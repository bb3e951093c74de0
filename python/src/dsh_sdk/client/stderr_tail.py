"""A bounded tail of the runtime's stderr, for error messages."""

from __future__ import annotations

from typing import Final

__all__ = ["DEFAULT_STDERR_TAIL_BYTES", "StderrTail"]

DEFAULT_STDERR_TAIL_BYTES: Final = 8 * 1024
"""Default size of the kept stderr tail."""


class StderrTail:
    """Keeps the last `limit` bytes written to a stream, so memory stays bounded however much
    comes."""

    def __init__(self, limit: int = DEFAULT_STDERR_TAIL_BYTES) -> None:
        self._limit = limit
        self._bytes = bytearray()

    def push(self, chunk: bytes) -> None:
        """Appends a chunk, dropping the oldest bytes beyond the limit."""
        self._bytes += chunk
        excess = len(self._bytes) - self._limit
        if excess > 0:
            del self._bytes[:excess]

    def text(self) -> str:
        """The kept bytes as text; a character cut at the start is dropped."""
        return bytes(self._bytes).decode("utf-8", errors="replace").lstrip("\ufffd")
