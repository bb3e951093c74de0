"""Bytes to complete lines: UTF-8 safe splitting, CR tolerance, frame limit (IDL `meta`).

`LineReader` is the pure, synchronous part: it is fed chunks and returns the lines they complete.
`read_line_batches` is the asyncio part: it reads chunks from a stream and feeds them.
`asyncio.StreamReader.readline` is not used: it fails on a line longer than its buffer limit
(64 KiB by default) instead of dropping that line and going on.
"""

from __future__ import annotations

from collections.abc import AsyncGenerator
from typing import Final, Literal, NamedTuple, Protocol, cast

from dsh_sdk._gen.constants import DEFAULT_MAX_FRAME_BYTES

__all__ = [
    "READ_CHUNK_BYTES",
    "ByteSource",
    "LineEntry",
    "LineReader",
    "LineRejection",
    "LineRejectionReason",
    "LineText",
    "read_line_batches",
    "utf8_length",
]

LineRejectionReason = Literal["invalid-utf8", "frame-too-large", "truncated-frame"]
"""Why the line reader dropped a line instead of delivering it."""


class LineRejection(NamedTuple):
    """A line that was dropped, with its 1-based number and its size in bytes before the `\\n`."""

    reason: LineRejectionReason
    line: int
    bytes: int


LineText = str | bytes
"""A complete line that is valid UTF-8: its text, or, from a reader with `bytes_lines`, its bytes
(already checked strictly, so a parser that takes bytes need not decode them first)."""

LineEntry = str | bytes | LineRejection
"""One `\\n`-terminated line: its text or bytes (empty for a blank line), or why it was dropped."""

READ_CHUNK_BYTES: Final = 256 * 1024
"""How much `read_line_batches` asks the stream for at a time."""


class LineReader:
    """Turns a byte stream into complete `\\n`-terminated lines.

    `feed(chunk)` returns one entry per line the chunk completes, in order: the line's text
    decoded as strict UTF-8 without its `\\n` and one trailing `\\r`, `""` for a blank line (the
    caller skips those), or a `LineRejection` for a line that is not valid UTF-8 or is longer than
    `max_frame_bytes`. Blank lines are kept as `""` so that entries map to line numbers without a
    per-line object: entry `i` of a result is line `line_count - len(result) + 1 + i`.

    Only `\\n` ends a line; a chunk may end anywhere, even inside a UTF-8 character. The lines
    wholly inside a chunk are decoded in one call and split in one call. An unfinished line is kept
    as a list of pieces and joined once, so a long line in many chunks costs linear time. Past the
    frame limit the pieces are dropped and only their size is counted until the `\\n`.

    With `keep_cr=True` a trailing `\\r` is kept (a line holding only `\\r` is still `""`). The
    transport uses it: JSON counts the `\\r` as whitespace, and the kept text gives the exact size
    of the line when a report needs it.

    With `bytes_lines=True` valid lines are returned as `bytes` rather than `str` (blank ones as
    `b""`), still checked as strict UTF-8 first, so that the same lines are rejected for the same
    reasons: a run of lines that is ASCII (`bytes.isascii`, a fast scan) is valid as it is; any
    other run is decoded once to check it, and the text thrown away. `bytes_lines` may be switched
    between two chunks.
    """

    __slots__ = (
        "_discarding",
        "_keep_cr",
        "_line_count",
        "_max",
        "_pending_bytes",
        "_pieces",
        "bytes_lines",
    )

    def __init__(
        self,
        max_frame_bytes: int = DEFAULT_MAX_FRAME_BYTES,
        *,
        keep_cr: bool = False,
        bytes_lines: bool = False,
    ) -> None:
        if isinstance(max_frame_bytes, bool) or not isinstance(max_frame_bytes, int):
            raise TypeError(f"max_frame_bytes must be an int, got {max_frame_bytes!r}")
        if max_frame_bytes < 1:
            raise ValueError(f"max_frame_bytes must be a positive integer, got {max_frame_bytes}")
        self._max = max_frame_bytes
        self._keep_cr = keep_cr
        self._line_count = 0
        self._pieces: list[bytes] = []
        self._pending_bytes = 0
        self._discarding = False
        self.bytes_lines = bytes_lines
        """Return valid lines as `bytes` (checked as strict UTF-8) instead of `str`."""

    @property
    def max_frame_bytes(self) -> int:
        """Largest accepted line in bytes, before its `\\n` (a trailing `\\r` counts)."""
        return self._max

    @property
    def line_count(self) -> int:
        """Number of `\\n`-terminated lines seen so far, blank ones included."""
        return self._line_count

    @property
    def pending_bytes(self) -> int:
        """Bytes of the unfinished line seen so far (counted, not kept, past the limit)."""
        return self._pending_bytes

    def feed(self, chunk: bytes) -> list[LineEntry]:
        """Feeds the next chunk; returns the lines it completes."""
        start = 0
        first: LineEntry | None = None
        if self._pending_bytes or self._discarding:
            newline = chunk.find(b"\n")
            if newline < 0:
                self._hold(chunk)
                return []
            first = self._finish_pending(chunk[:newline])
            start = newline + 1
        last = chunk.rfind(b"\n", start)
        if last < 0:
            if start < len(chunk):
                self._hold(chunk[start:] if start else chunk)
            return [] if first is None else [first]
        lines = self._split(chunk, start, last)
        if last + 1 < len(chunk):
            self._hold(chunk[last + 1 :])
        if first is not None:
            lines.insert(0, first)
        return lines

    def end(self) -> list[LineRejection]:
        """Signals the end of the stream. Bytes after the last `\\n` are a frame cut short:
        `truncated-frame`, or `frame-too-large` if they already passed the limit."""
        if not self._pending_bytes and not self._discarding:
            return []
        reason: LineRejectionReason = "frame-too-large" if self._discarding else "truncated-frame"
        rejection = LineRejection(reason, self._line_count + 1, self._pending_bytes)
        self._reset()
        return [rejection]

    def _split(self, chunk: bytes, start: int, last: int) -> list[LineEntry]:
        """The lines in `chunk[start:last]`, where `last` is the position of a `\\n`."""
        if self.bytes_lines:
            return self._split_bytes(chunk, start, last)
        if last - start <= self._max:
            try:
                text = str(memoryview(chunk)[start:last], "utf-8")
            except UnicodeDecodeError:
                pass
            else:
                lines = text.split("\n")
                self._line_count += len(lines)
                if "\r" in text:
                    lines = self._drop_cr(lines)
                return cast("list[LineEntry]", lines)
        # Slow path: some line is too long or not UTF-8; look at each line on its own.
        number = self._line_count
        entries: list[LineEntry] = []
        for raw in chunk[start:last].split(b"\n"):
            number += 1
            entries.append(self._decode(raw, number))
        self._line_count = number
        return entries

    def _split_bytes(self, chunk: bytes, start: int, last: int) -> list[LineEntry]:
        """`_split` for `bytes_lines`: the same lines and rejections, valid lines left as bytes."""
        run = chunk[start:last] if start or last < len(chunk) else chunk
        # Valid UTF-8 never holds a 0x0a byte inside a character: a valid run has only valid
        # lines. ASCII is the common case and needs no decode.
        if last - start <= self._max and (run.isascii() or _is_utf8(run)):
            lines = run.split(b"\n")
            self._line_count += len(lines)
            if b"\r" in run:
                lines = self._drop_cr_bytes(lines)
            return cast("list[LineEntry]", lines)
        number = self._line_count
        entries: list[LineEntry] = []
        for raw in run.split(b"\n"):
            number += 1
            entries.append(self._check(raw, number))
        self._line_count = number
        return entries

    def _drop_cr_bytes(self, lines: list[bytes]) -> list[bytes]:
        if self._keep_cr:
            return [b"" if line == b"\r" else line for line in lines]
        return [line[:-1] if line[-1:] == b"\r" else line for line in lines]

    def _drop_cr(self, lines: list[str]) -> list[str]:
        if self._keep_cr:
            return ["" if line == "\r" else line for line in lines]
        return [line[:-1] if line[-1:] == "\r" else line for line in lines]

    def _check(self, raw: bytes, number: int) -> LineEntry:
        """One line for `bytes_lines`: `_decode`'s verdict, the line kept as bytes."""
        entry = self._decode(raw, number)
        if isinstance(entry, LineRejection):
            return entry
        if not entry:
            return b""
        return raw if self._keep_cr or raw[-1:] != b"\r" else raw[:-1]

    def _decode(self, raw: bytes, number: int) -> LineEntry:
        size = len(raw)
        if size > self._max:
            return LineRejection("frame-too-large", number, size)
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            return LineRejection("invalid-utf8", number, size)
        if text[-1:] != "\r":
            return text
        return ("" if text == "\r" else text) if self._keep_cr else text[:-1]

    def _hold(self, piece: bytes) -> None:
        self._pending_bytes += len(piece)
        if self._discarding:
            return
        if self._pending_bytes > self._max:
            # Keep only the count: memory stays bounded however long the line runs.
            self._pieces = []
            self._discarding = True
            return
        self._pieces.append(piece)

    def _finish_pending(self, last_piece: bytes) -> LineEntry:
        size = self._pending_bytes + len(last_piece)
        self._line_count += 1
        if self._discarding or size > self._max:
            self._reset()
            return LineRejection("frame-too-large", self._line_count, size)
        self._pieces.append(last_piece)
        raw = b"".join(self._pieces)
        self._reset()
        if self.bytes_lines:
            return self._check(raw, self._line_count)
        return self._decode(raw, self._line_count)

    def _reset(self) -> None:
        self._pieces = []
        self._pending_bytes = 0
        self._discarding = False


def _is_utf8(data: bytes) -> bool:
    try:
        str(data, "utf-8")
    except UnicodeDecodeError:
        return False
    return True


def utf8_length(text: LineText) -> int:
    """Size in UTF-8 of a line: how the size of a line is found again after decoding, only when
    something needs it (a line kept as bytes has it already)."""
    if isinstance(text, bytes):
        return len(text)
    return len(text) if text.isascii() else len(text.encode("utf-8"))


class ByteSource(Protocol):
    """Where bytes come from: `asyncio.StreamReader`, or anything with the same `read`."""

    async def read(self, n: int = -1) -> bytes:
        """Returns up to `n` bytes, waiting for at least one; `b""` at the end of the stream."""
        ...


async def read_line_batches(
    source: ByteSource, reader: LineReader, chunk_bytes: int = READ_CHUNK_BYTES
) -> AsyncGenerator[list[LineEntry], None]:
    """Reads `source` to its end, yielding what `reader` makes of each chunk (empty results are
    skipped) and, at the end, the report of an unfinished last line if there is one. A read error
    propagates; the end is not signalled to `reader` then."""
    feed = reader.feed
    read = source.read
    while True:
        chunk = await read(chunk_bytes)
        if not chunk:
            break
        entries = feed(chunk)
        if entries:
            yield entries
    final = reader.end()
    if final:
        yield cast("list[LineEntry]", final)
