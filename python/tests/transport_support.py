"""Shared helpers of the transport tests: an in-memory peer, loop-error capture, polling."""

from __future__ import annotations

import asyncio
import gc
import json
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from dsh_sdk.diagnostics import TransportDiagnostic
from dsh_sdk.transport import JsonRpcLineTransport


class MemoryOutput:
    """A `LineOutput` that records what is written. It can be told to fail, or to hold `drain()`
    until released, like a pipe whose reader has stopped reading."""

    def __init__(self) -> None:
        self.data = bytearray()
        self.closing = False
        self.drain_error: BaseException | None = None
        self.writable = asyncio.Event()
        self.writable.set()
        self._new_data = asyncio.Event()
        self._read_offset = 0

    def write(self, data: bytes) -> None:
        self.data += data
        self._new_data.set()

    async def drain(self) -> None:
        if self.drain_error is not None:
            raise self.drain_error
        await self.writable.wait()

    def is_closing(self) -> bool:
        return self.closing

    def get_write_buffer_size(self) -> int:
        """Like an asyncio transport: non-zero while `drain()` would wait."""
        return 0 if self.writable.is_set() and self.drain_error is None else 1

    def messages(self) -> list[Any]:
        """Every line written so far, parsed."""
        return [json.loads(line) for line in bytes(self.data).splitlines()]

    async def next_message(self, timeout: float = 2.0) -> Any:
        """The next line written (waiting for it), parsed."""
        deadline = time.monotonic() + timeout
        while True:
            newline = self.data.find(b"\n", self._read_offset)
            if newline >= 0:
                line = bytes(self.data[self._read_offset : newline])
                self._read_offset = newline + 1
                return json.loads(line)
            self._new_data.clear()
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise AssertionError("nothing more was written")
            await asyncio.wait_for(self._new_data.wait(), remaining)


LIVE_TRANSPORTS: list[JsonRpcLineTransport] = []
"""Transports made by the helpers; `close_live_transports` closes them when a test ends."""


async def close_live_transports() -> None:
    while LIVE_TRANSPORTS:
        await LIVE_TRANSPORTS.pop().close()


class MemoryPeer:
    """The far end of a transport under test: feeds its input, reads its output."""

    def __init__(self, *, max_frame_bytes: int | None = None) -> None:
        self.input = asyncio.StreamReader()
        self.output = MemoryOutput()
        self.diagnostics: list[TransportDiagnostic] = []
        options: dict[str, Any] = {"on_diagnostic": self.diagnostics.append}
        if max_frame_bytes is not None:
            options["max_frame_bytes"] = max_frame_bytes
        self.transport = JsonRpcLineTransport(self.input, self.output, **options)
        LIVE_TRANSPORTS.append(self.transport)

    def send(self, *messages: object) -> None:
        """Feeds each message as one compact line."""
        for message in messages:
            self.send_raw(json.dumps(message, separators=(",", ":")).encode() + b"\n")

    def send_raw(self, data: bytes) -> None:
        self.input.feed_data(data)

    def end(self) -> None:
        self.input.feed_eof()

    def reasons(self) -> list[str]:
        return [diagnostic.reason for diagnostic in self.diagnostics]


async def eventually(predicate: Callable[[], bool], timeout: float = 2.0) -> None:
    """Waits until `predicate()` holds, letting the loop run; fails after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("the condition did not come true in time")
        await asyncio.sleep(0.001)


async def settle(rounds: int = 20) -> None:
    """Lets every ready callback and task run a few times over."""
    for _ in range(rounds):
        await asyncio.sleep(0)


@asynccontextmanager
async def capturing_loop_errors() -> AsyncIterator[list[dict[str, Any]]]:
    """Collects what the event loop would log ("Task exception was never retrieved", "Future
    exception was never retrieved", unhandled callback errors) while the block runs, after a
    garbage collection has finalized what the block dropped."""
    loop = asyncio.get_running_loop()
    errors: list[dict[str, Any]] = []
    previous = loop.get_exception_handler()
    loop.set_exception_handler(lambda _loop, context: errors.append(context))
    try:
        yield errors
        await close_live_transports()
        await settle()
        gc.collect()
        await settle()
    finally:
        loop.set_exception_handler(previous)


def as_javascript_sees(value: Any) -> Any:
    """`value` with each surrogate pair in its strings joined into one character: JavaScript
    strings are UTF-16, so "\\ud800\\udc00" made by hand is "\\U00010000" there, and that is
    what the writer sends."""
    if isinstance(value, str):
        return value.encode("utf-16", "surrogatepass").decode("utf-16", "surrogatepass")
    if isinstance(value, list):
        return [as_javascript_sees(item) for item in value]
    if isinstance(value, dict):
        return {as_javascript_sees(key): as_javascript_sees(item) for key, item in value.items()}
    return value
