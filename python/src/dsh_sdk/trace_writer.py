"""Trace records to a file, in batches, with bounded memory; the twin of `trace-writer.ts`."""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable
from typing import BinaryIO, Final

__all__ = ["TraceFileWriter"]

FLUSH_AT: Final = 1 << 20
"""Buffered text above this size is written at once instead of at the end of the loop's turn."""


class TraceFileWriter:
    """Writes trace records (one per line) to a file. Records are batched and written at the end
    of the current turn of the running event loop (at once without one), or as soon as a megabyte
    is waiting. A write error stops the recording and is reported once to `on_error`; it never
    raises into the caller's data path. Opening the file raises `OSError` as `open` does."""

    def __init__(
        self, path: str | os.PathLike[str], *, on_error: Callable[[Exception], None] | None = None
    ) -> None:
        self._on_error = on_error
        self._file: BinaryIO | None = open(path, "wb")  # noqa: SIM115 - closed by close()
        self._parts: list[str] = []
        self._waiting = 0
        self._scheduled = False

    def write(self, record: str) -> None:
        """Queues one record (a JSON text without its `\\n`)."""
        if self._file is None:
            return
        self._parts.append(record)
        self._waiting += len(record) + 1
        if self._waiting >= FLUSH_AT:
            self.flush()
            return
        if self._scheduled:
            return
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            self.flush()
            return
        self._scheduled = True
        loop.call_soon(self._flush_scheduled)

    def flush(self) -> None:
        """Writes every queued record now."""
        if self._file is None or not self._parts:
            return
        text = "\n".join(self._parts) + "\n"
        self._parts = []
        self._waiting = 0
        try:
            self._file.write(text.encode("utf-8"))
            self._file.flush()
        except (OSError, ValueError) as error:
            self._fail(error)

    def close(self) -> None:
        """Writes what is queued and closes the file. Idempotent."""
        self.flush()
        file, self._file = self._file, None
        if file is None:
            return
        try:
            file.close()
        except OSError as error:
            if self._on_error is not None:
                self._on_error(error)

    def _flush_scheduled(self) -> None:
        self._scheduled = False
        self.flush()

    def _fail(self, error: Exception) -> None:
        file, self._file = self._file, None
        self._parts = []
        if file is not None:
            with contextlib.suppress(OSError):
                file.close()
        if self._on_error is not None:
            self._on_error(error)
