"""A run being watched as it streams: iterate its notifications, await its result."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import AsyncIterator, Generator
from typing import Any, Generic, TypeVar

from dsh_sdk.client.notifications import HarnessNotification
from dsh_sdk.client.run_tracker import RunResult

__all__ = ["AsyncQueue", "RunStream"]

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


class RunStream:
    """A run being watched: `async for notification in stream` yields the notifications of the
    run's session tree as they arrive; `await stream` (or `await stream.result`) gives the
    `RunResult`. Iteration ends when the run ends, and raises the run's error if it failed."""

    def __init__(self, queue: AsyncQueue[HarnessNotification], result: asyncio.Task[RunResult]):
        self._queue = queue
        self.result = result
        """Settles like `run()`: the result once the root session is idle, or the run's error."""

    def __aiter__(self) -> AsyncIterator[HarnessNotification]:
        return self._queue

    def __await__(self) -> Generator[Any, None, RunResult]:
        return self.result.__await__()
