"""What a cancelled `run()` leaves behind: its `CancelledError` carries the run's result.

It stays a plain `asyncio.CancelledError` (a subclass would escape `asyncio.timeout` on Python
3.11, which converts only that exact class into `TimeoutError`), so the result rides on it as an
attribute, read with `cancelled_run_result`."""

from __future__ import annotations

import asyncio
from typing import Final

from dsh_sdk.client.run_tracker import RunResult

__all__ = ["cancelled_run_error", "cancelled_run_result"]

_RESULT_ATTRIBUTE: Final = "_dsh_sdk_run_result"


def cancelled_run_error(message: str, result: RunResult | None) -> asyncio.CancelledError:
    """The `CancelledError` a cancelled run raises: says what happened, carries `result`."""
    error = asyncio.CancelledError(message)
    setattr(error, _RESULT_ATTRIBUTE, result)
    return error


def cancelled_run_result(error: BaseException) -> RunResult | None:
    """The result of a `run()` that was cancelled, found on its `CancelledError` or on the error
    that chains it: the `TimeoutError` of `asyncio.timeout` / `asyncio.wait_for`, or the new
    `CancelledError` that awaiting a cancelled task raises on Python 3.10. For an interrupted
    turn, `finish_reason` is `aborted` and `partial_response` holds the text streamed so far; on
    a runtime that cannot interrupt it is the run as it stood when it was detached
    (`finish_reason` `None`). `None` when `error` carries no run (or the prompt had not been
    answered yet)."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        found = getattr(current, _RESULT_ATTRIBUTE, None)
        if isinstance(found, RunResult):
            return found
        current = current.__cause__ if current.__cause__ is not None else current.__context__
    return None
