"""Messages to lines: one compact JSON line per message, in call order, honouring back-pressure."""

from __future__ import annotations

import asyncio
import contextlib
import sys
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol

from dsh_sdk.errors import TransportClosedError
from dsh_sdk.nesting import dumps_frame

__all__ = ["LineOutput", "LineWriter"]


class LineOutput(Protocol):
    """Where lines go: `asyncio.StreamWriter`, or anything with these three methods.

    An output that also has `get_write_buffer_size()` (or a `transport` that has it, as a
    `StreamWriter` does) lets the writer skip the wait machinery while its buffer is empty.
    """

    def write(self, data: bytes) -> object:
        """Buffers `data` for sending; does not block."""
        ...

    def drain(self) -> Awaitable[None]:
        """Waits until the buffer is small enough to write more; raises if the output failed."""
        ...

    def is_closing(self) -> bool:
        """True once the output is closed or closing."""
        ...


def renew(error: TransportClosedError) -> TransportClosedError:
    """A fresh copy of `error` for one more raise: raising one instance many times would grow its
    traceback with every raise."""
    copy = TransportClosedError(error.reason, str(error))
    copy.__cause__ = error.__cause__
    return copy


class LineWriter:
    """Writes lines to a caller-owned output, one at a time, waiting for `drain()` after each.

    Writes take turns in the order they are asked for: a line is written at once when no other
    write is under way, else when the writes asked for before it are done, so lines stay whole and
    in order, and callers that await their writes never run ahead of the reader. A failed write
    (`EPIPE`, a reset, an output that is closing) fails the writer for good: the failing and every
    later write raise a `TransportClosedError` of reason `output-error`, and `on_failure` is told
    once. `dispose()` fails the writer with the caller's error, which also releases a write
    blocked in `drain()`. The output is never closed.
    """

    def __init__(
        self, output: LineOutput, on_failure: Callable[[TransportClosedError], None]
    ) -> None:
        self._output = output
        self._on_failure = on_failure
        self._failure: TransportClosedError | None = None
        self._disposed: asyncio.Future[None] | None = None
        self._is_busy = False
        """A write holds the turn (it is writing or waiting for `drain()`)."""
        self._turns: deque[asyncio.Future[None]] = deque()
        """Writes waiting for their turn, in the order they were asked for."""
        self._tasks: set[asyncio.Future[None]] = set()

    @property
    def failure(self) -> TransportClosedError | None:
        """The error writes raise, once the writer has failed or was disposed."""
        return self._failure

    async def write(self, message: object) -> None:
        """Serializes `message` as one line and writes it. A value JSON cannot hold raises
        `TypeError` (or `ValueError`), one nested deeper than `MAX_NESTING_DEPTH` a
        `NestingTooDeepError`, for this write only."""
        await self.write_line(dumps_frame(message))

    async def write_line(self, line: bytes) -> None:
        """Writes one line, which must end with `\\n`, and waits for `drain()`."""
        if self._failure is not None:
            raise renew(self._failure)
        if self._is_busy:
            await self._wait_for_turn(self._queue_turn())
        else:
            self._is_busy = True
        try:
            if self._failure is not None:
                raise renew(self._failure)
            try:
                self._write_now(line)
                await self._drain()
            except TransportClosedError:
                raise
            except Exception as error:
                raise renew(self._fail(error)) from error
        finally:
            self._end_turn()

    def write_line_soon(self, line: bytes) -> None:
        """Writes one line without waiting, for answers sent from the read loop: at once when no
        write is under way, else in its turn. Never raises; a line that cannot be written is
        dropped (a failure fails the writer as usual)."""
        if self._failure is not None:
            return
        if self._is_busy:
            self._spawn(self._write_in_turn(self._queue_turn(), line))
            return
        self._is_busy = True
        try:
            self._write_now(line)
        except Exception as error:
            self._fail(error)
            self._end_turn()
            return
        if self._may_block():
            # Keep the turn until drained, as write_line() would.
            self._spawn(self._write_in_turn(None, None))
        else:
            self._end_turn()

    def _write_now(self, line: bytes) -> None:
        if self._output.is_closing():
            raise ConnectionResetError("the output stream is closing")
        self._output.write(line)

    async def _drain(self) -> None:
        if self._may_block():
            await self._drain_unless_disposed()
        else:
            await self._output.drain()  # returns at once

    async def _write_in_turn(self, turn: asyncio.Future[None] | None, line: bytes | None) -> None:
        """Waits for `turn` (when there is one), writes `line` (when there is one), drains and
        ends the turn; failures are swallowed (they fail the writer)."""
        if turn is not None:
            await self._wait_for_turn(turn)
        try:
            if self._failure is not None:
                return
            if line is not None:
                self._write_now(line)
            await self._drain()
        except TransportClosedError:
            pass
        except Exception as error:
            self._fail(error)
        finally:
            self._end_turn()

    def _queue_turn(self) -> asyncio.Future[None]:
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._turns.append(turn)
        return turn

    async def _wait_for_turn(self, turn: asyncio.Future[None]) -> None:
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._end_turn()  # handed the turn, then cancelled: pass it on
            raise

    def _end_turn(self) -> None:
        while self._turns:
            turn = self._turns.popleft()
            if not turn.done():
                turn.set_result(None)
                return
        self._is_busy = False

    def _spawn(self, work: Coroutine[Any, Any, None]) -> None:
        task = asyncio.ensure_future(work)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def dispose(self, error: TransportClosedError) -> None:
        """Fails the writer with `error` (unless it failed already) and releases a blocked write."""
        if self._failure is None:
            self._failure = error
        if self._disposed is not None and not self._disposed.done():
            self._disposed.set_result(None)

    def _may_block(self) -> bool:
        """False when `drain()` is known to return at once: an output (or its `asyncio`
        transport) whose write buffer is empty is not paused. Other outputs may block."""
        output: Any = self._output
        if not hasattr(output, "get_write_buffer_size"):
            output = getattr(output, "transport", None)
        try:
            return bool(output.get_write_buffer_size())
        except Exception:
            return True

    async def _drain_unless_disposed(self) -> None:
        if self._disposed is None:
            self._disposed = asyncio.get_running_loop().create_future()
        drain = asyncio.ensure_future(self._output.drain())
        try:
            await asyncio.wait((drain, self._disposed), return_when=asyncio.FIRST_COMPLETED)
        finally:
            is_drained = drain.done()
            if not is_drained:
                drain.cancel()
        if is_drained:
            drain.result()
            return
        assert self._failure is not None
        raise renew(self._failure)

    def _fail(self, cause: Exception) -> TransportClosedError:
        if self._failure is not None:
            return self._failure
        detail = str(cause) or type(cause).__name__
        failure = TransportClosedError("output-error", f"writing to the output failed: {detail}")
        failure.__cause__ = cause
        self._failure = failure
        if sys.version_info < (3, 11) and hasattr(self._output, "wait_closed"):
            # CPython 3.10 logs "Future exception was never retrieved" when a subprocess's stdin
            # breaks and nobody awaits wait_closed() (fixed in 3.11): await it, quietly.
            self._spawn(self._wait_closed_quietly())
        self._on_failure(failure)
        return failure

    async def _wait_closed_quietly(self) -> None:
        with contextlib.suppress(Exception):
            await self._output.wait_closed()  # type: ignore[attr-defined]
