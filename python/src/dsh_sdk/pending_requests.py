"""The outbound requests waiting for a response, by id."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from dsh_sdk.classify import JsonRpcId
from dsh_sdk.errors import TransportClosedError
from dsh_sdk.line_writer import renew

__all__ = ["PendingRequests"]


class PendingRequests:
    """Futures of the requests waiting for a response, by id. Ids are ints counting from 1. A
    request whose caller stops waiting (timeout, cancellation, failure) is forgotten, so that a
    late response matches nothing."""

    def __init__(self) -> None:
        self._futures: dict[JsonRpcId, asyncio.Future[Any]] = {}
        self._next_id = 1

    def next_id(self) -> int:
        """Takes the next id."""
        id_ = self._next_id
        self._next_id += 1
        return id_

    @contextmanager
    def waiting(self, id_: int) -> Iterator[asyncio.Future[Any]]:
        """Registers a future for `id_` for the duration of the block, then forgets it."""
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._futures[id_] = future
        try:
            yield future
        finally:
            if self._futures.get(id_) is future:
                del self._futures[id_]
            if not future.done():
                future.cancel()
            elif not future.cancelled():
                future.exception()  # retrieved, so that asyncio does not log it

    def take(self, id_: JsonRpcId) -> asyncio.Future[Any] | None:
        """Removes and returns the future still waiting under `id_` (a string never matches;
        `1.0` matches `1`, as in JavaScript), or `None`."""
        future = self._futures.pop(id_, None)
        return None if future is None or future.done() else future

    def reject_all(self, error: TransportClosedError) -> None:
        """Fails every waiting request with a copy of `error`, and forgets them."""
        futures, self._futures = self._futures, {}
        for future in futures.values():
            if not future.done():
                future.set_exception(renew(error))
