"""A client's own connection, recorded in the trace format (docs/trace-format.md): the runtime's
stdio is tapped, never changed, and a failing trace file never touches the connection."""

from __future__ import annotations

import asyncio
import contextlib
import os
import warnings
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any, Final

from dsh_sdk.client.errors import RuntimeExit
from dsh_sdk.line_reader import ByteSource
from dsh_sdk.line_writer import LineOutput
from dsh_sdk.trace_recorder import (
    DEFAULT_HEAD_BYTES,
    Finding,
    TraceDirection,
    TraceFindingContext,
    TraceRecorder,
)
from dsh_sdk.trace_writer import TraceFileWriter

__all__ = ["CLIENT_RECORDER", "ConnectionTrace", "TraceOptions", "TracedOutput", "TracedSource"]

CLIENT_RECORDER: Final = "dsh_sdk.client"
"""The `recorder` written into the header of a trace the Python client records."""

STDOUT_SETTLE: Final = 0.5
"""Longest wait, in seconds, after the runtime exited, for the rest of its stdout to be recorded."""


@dataclass(frozen=True, kw_only=True)
class TraceOptions:
    """What `HarnessClient.spawn(trace=...)` records, and where."""

    path: str | os.PathLike[str]
    """The trace file (created, or truncated)."""
    recorder: str = CLIENT_RECORDER
    """The header's `recorder`."""
    head_bytes: int = DEFAULT_HEAD_BYTES
    """First bytes kept of a line that is not decoded."""
    on_finding: Callable[[Finding, TraceFindingContext], None] | None = None
    """Receives every finding as it is made: a frame that breaks the protocol, either way."""
    on_error: Callable[[Exception], None] | None = None
    """Called once when recording stops because of an error (the file cannot be created, the disk
    is full, …); the connection goes on untouched. Default: a `RuntimeWarning`."""


class ConnectionTrace:
    """Records both directions of a client's connection to its runtime, through `TracedSource`
    (the runtime's stdout, as the transport reads it) and `TracedOutput` (its stdin, as the
    transport writes it). Any error of the recording stops the recording only."""

    def __init__(
        self, options: TraceOptions, *, command: Sequence[str], max_frame_bytes: int
    ) -> None:
        self._options = options
        self._stopped = False
        self._writer: TraceFileWriter | None = None
        self._recorder: TraceRecorder | None = None
        self._stdout_ended = asyncio.Event()
        on_finding = options.on_finding
        try:
            self._writer = TraceFileWriter(options.path, on_error=self._stop)
            self._recorder = TraceRecorder(
                write=self._writer.write,
                recorder=options.recorder,
                command=command,
                max_frame_bytes=max_frame_bytes,
                head_bytes=options.head_bytes,
                on_finding=None
                if on_finding is None
                else lambda f, c: self._guard(lambda: on_finding(f, c)),
            )
        except Exception as error:
            self._stop(error)

    def push(self, direction: TraceDirection, chunk: bytes) -> None:
        recorder = self._recorder
        if recorder is not None and not self._stopped:
            self._guard(lambda: recorder.push(direction, chunk))

    def end_of_stream(self, direction: TraceDirection) -> None:
        if direction == "serverToClient":
            self._stdout_ended.set()
        recorder = self._recorder
        if recorder is not None and not self._stopped:
            self._guard(lambda: recorder.end_of_stream(direction))

    async def finish_after(self, exited: Awaitable[RuntimeExit]) -> None:
        """Finishes once the runtime exited and its stdout was read to its end (or a short wait
        passed: a grandchild may hold it open)."""
        exit = await exited
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._stdout_ended.wait(), STDOUT_SETTLE)
        self.finish(exit)

    def finish(self, exit: RuntimeExit | None) -> None:
        """Ends the recording with the runtime's exit (`None`s when it was let go alive) and
        closes the file. Idempotent."""
        if self._stopped:
            return
        recorder = self._recorder
        if recorder is not None:
            self._guard(
                lambda: recorder.finish(
                    exit_code=None if exit is None else exit.exit_code,
                    signal=None if exit is None else exit.signal,
                )
            )
        self._stopped = True
        if self._writer is not None:
            self._writer.close()

    def _guard(self, step: Callable[[], object]) -> None:
        try:
            step()
        except Exception as error:
            self._stop(error)

    def _stop(self, error: Exception) -> None:
        if self._stopped:
            return
        self._stopped = True
        if self._writer is not None:
            with contextlib.suppress(Exception):
                self._writer.close()
        on_error = self._options.on_error
        try:
            if on_error is None:
                warnings.warn(
                    f"recording to {os.fspath(self._options.path)} stopped: {error}",
                    RuntimeWarning,
                    stacklevel=2,
                )
            else:
                on_error(error)
        except Exception:  # a failing observer must not reach the connection either
            pass


class TracedSource:
    """The runtime's stdout as the transport reads it: each chunk is shown to the trace after
    `read` returned it; `read` itself is the stream's."""

    def __init__(self, source: ByteSource, trace: ConnectionTrace) -> None:
        self._source = source
        self._trace = trace

    async def read(self, n: int = -1) -> bytes:
        try:
            chunk = await self._source.read(n)
        except BaseException:
            self._trace.end_of_stream("serverToClient")
            raise
        if chunk:
            self._trace.push("serverToClient", chunk)
        else:
            self._trace.end_of_stream("serverToClient")
        return chunk


class TracedOutput:
    """The runtime's stdin as the transport writes it: each chunk is shown to the trace once the
    stream's `write` took it; draining and back-pressure stay the stream's."""

    def __init__(self, output: LineOutput, trace: ConnectionTrace) -> None:
        self._output: Any = output
        self._trace = trace

    @property
    def transport(self) -> Any:
        """The stream's asyncio transport (the line writer asks it for its buffer size)."""
        return getattr(self._output, "transport", None)

    def write(self, data: bytes) -> object:
        accepted = not self._output.is_closing()
        result = self._output.write(data)
        if accepted:
            self._trace.push("clientToServer", bytes(data))
        return result

    def drain(self) -> Awaitable[None]:
        drain: Awaitable[None] = self._output.drain()
        return drain

    def is_closing(self) -> bool:
        closing: bool = self._output.is_closing()
        return closing
