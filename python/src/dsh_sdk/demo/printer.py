"""Output helpers of the demo: labelled lines, streamed text, and small aligned tables."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Final, TextIO

__all__ = ["DemoPrinter", "format_ms", "shorten"]

LABEL_WIDTH: Final = 11


class DemoPrinter:
    """Writes labelled lines (`  label   text`) and streamed text that grows on one line. A line
    being streamed is ended before anything else is printed."""

    def __init__(self, out: TextIO) -> None:
        self._out = out
        self._streaming: str | None = None

    def line(self, label: str, text: str = "") -> None:
        """A line: `label` padded to a column, then `text`."""
        self._end_stream()
        self._write(f"{self._prefix(label)}{text}".rstrip() + "\n")

    def heading(self, text: str = "") -> None:
        """A blank line, or a heading."""
        self._end_stream()
        self._write("\n" if text == "" else f"\n{text}\n")

    def stream(self, label: str, text: str) -> None:
        """Appends `text` to the streamed line labelled `label` (starting it if needed)."""
        if self._streaming != label:
            self._end_stream()
            self._write(self._prefix(label))
            self._streaming = label
        # Reply text may hold newlines: continue them under the text column.
        self._write(text.replace("\n", "\n" + " " * len(self._prefix(label))))

    def table(self, rows: Sequence[Sequence[str | int]], indent: int = 2) -> None:
        """Rows of cells, each column padded to its widest cell; numbers are right-aligned."""
        self._end_stream()
        widths: list[int] = []
        for row in rows:
            for column, cell in enumerate(row):
                if column >= len(widths):
                    widths.append(0)
                widths[column] = max(widths[column], len(str(cell)))
        for row in rows:
            cells = [
                str(cell).rjust(widths[column])
                if isinstance(cell, int)
                else cell.ljust(widths[column])
                for column, cell in enumerate(row)
            ]
            self._write((" " * indent + "   ".join(cells)).rstrip() + "\n")

    def _prefix(self, label: str) -> str:
        return f"  {label.ljust(LABEL_WIDTH - 1)} "

    def _end_stream(self) -> None:
        if self._streaming is None:
            return
        self._streaming = None
        self._write("\n")

    def _write(self, text: str) -> None:
        self._out.write(text)
        self._out.flush()


def format_ms(seconds: float | None) -> str:
    """`123 ms`, or `—` when there is no value."""
    return "—" if seconds is None else f"{round(seconds * 1000)} ms"


def shorten(text: str, limit: int = 60) -> str:
    """Shortens `text` to `limit` characters with an ellipsis."""
    flat = re.sub(r"\s+", " ", text)
    return flat if len(flat) <= limit else f"{flat[: limit - 1]}…"
