"""A run being watched as it streams: iterate what it streams, await its result, interrupt it."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Generator
from typing import Any, Generic, TypeVar

from dsh_sdk.client.notifications import HarnessNotification
from dsh_sdk.client.run_tracker import RunResult, RunTracker

__all__ = ["AsyncQueue", "RunHandle", "RunStream", "TextStream"]

T = TypeVar("T")


class AsyncQueue(Generic[T]):
    """An unbounded queue of values with one consumer, ended or failed by its producer. Values
    come as fast as the runtime sends them; iterating late loses none of them."""

    def __init__(self) -> None:
        self._values: deque[T] = deque()
        self._is_ended = False
        self._failure: BaseException | None = None
        self._wake: asyncio.Future[None] | None = None

    def push(self, value: T) -> None:
        """Adds a value for the consumer."""
        if self._is_ended:
            return
        self._values.append(value)
        self._notify()

    def end(self) -> None:
        """Ends the iteration once the queued values were taken."""
        self._is_ended = True
        self._notify()

    def fail(self, error: BaseException) -> None:
        """Makes the iteration raise `error` once the queued values were taken."""
        if self._is_ended:
            return
        self._failure = error
        self.end()

    def __aiter__(self) -> AsyncIterator[T]:
        return self

    async def __anext__(self) -> T:
        while True:
            if self._values:
                return self._values.popleft()
            if self._is_ended:
                if self._failure is not None:
                    raise self._failure
                raise StopAsyncIteration
            self._wake = asyncio.get_running_loop().create_future()
            await self._wake

    def _notify(self) -> None:
        wake, self._wake = self._wake, None
        if wake is not None and not wake.done():
            wake.set_result(None)


class RunHandle(Generic[T]):
    """A run in flight, iterated for what it streams: `async for item in handle` yields as it
    arrives and ends when the run ends (raising the run's error if it failed); `await handle` (or
    `await handle.result`) gives the `RunResult`. Leaving the iteration early (a `break`, an
    `asyncio.timeout` around the loop) does not stop the run: `interrupt()` does."""

    def __init__(
        self,
        queue: AsyncQueue[T],
        tracker: RunTracker,
        result: asyncio.Task[RunResult],
        interrupt: Callable[[], Awaitable[RunResult]],
    ) -> None:
        self._queue = queue
        self._tracker = tracker
        self._interrupt = interrupt
        self.result = result
        """Settles like `run()`: the result once the root session is idle, or the run's error."""

    @property
    def session_id(self) -> str:
        """The run's root session."""
        return self._tracker.session_id

    @property
    def partial_response(self) -> str:
        """The text the root session streamed so far (see `RunResult.partial_response`)."""
        return self._tracker.partial_response

    async def interrupt(self) -> RunResult:
        """Stops the run's turn with `session/interrupt` (once it has started, if the prompt is
        still queued) and returns the run's result: `finish_reason` `aborted` and the text so far
        in `partial_response`, or how the run ended if it ended first. Raises
        `CapabilityNotSupportedError`, without sending, on a runtime that did not report
        `sessionInterrupt` (version 1): the run goes on; cancel `result` to detach from it."""
        return await self._interrupt()

    def __aiter__(self) -> AsyncIterator[T]:
        return self._queue

    def __await__(self) -> Generator[Any, None, RunResult]:
        return self.result.__await__()


class RunStream(RunHandle[HarnessNotification]):
    """A run whose iteration yields every notification of its session tree, in wire order."""


class TextStream(RunHandle[str]):
    """A run whose iteration yields the assistant's reply as it streams: the text deltas of the
    root session's `assistant/chunk` events, in order (a child session's text, reasoning and
    other deltas are not the reply). Joined, they are the result's `partial_response`."""
