"""Stopping a runtime, each step bounded (the IDL's `shutdown`): the `shutdown` request, closing
stdin, SIGTERM, SIGKILL. The ladder stops at the first step after which the process is gone."""

from __future__ import annotations

import signal
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final, Literal

from dsh_sdk.client.runtime_process import RuntimeProcess
from dsh_sdk.errors import RequestTimeoutError

__all__ = [
    "DEFAULT_SHUTDOWN_STEP_TIMEOUT",
    "ShutdownReport",
    "ShutdownStep",
    "ShutdownStepReport",
    "climb_shutdown_ladder",
]

ShutdownStep = Literal["shutdown-request", "close-stdin", "sigterm", "sigkill"]
"""A rung of the ladder."""

DEFAULT_SHUTDOWN_STEP_TIMEOUT: Final = 2.0
"""Default bound of each step of the ladder, in seconds."""


@dataclass(frozen=True, kw_only=True, slots=True)
class ShutdownStepReport:
    """What one step did and how long it took."""

    step: ShutdownStep
    outcome: str
    """For example `answered, exited`, `not answered (…)`, `still running`."""
    elapsed: float
    """Seconds."""


@dataclass(frozen=True, kw_only=True, slots=True)
class ShutdownReport:
    """How a shutdown ended."""

    ended_by: ShutdownStep | Literal["already-exited"]
    """The step after which the runtime was gone, or `already-exited` if it was gone before."""
    has_exited: bool
    """False only if the process survived SIGKILL within its bound."""
    exit_code: int | None
    signal: str | None
    steps: tuple[ShutdownStepReport, ...]
    """Every step taken, in order."""
    elapsed: float
    """Seconds, for the whole ladder."""


async def climb_shutdown_ladder(
    runtime: RuntimeProcess,
    request_shutdown: Callable[[float], Awaitable[object]],
    *,
    timeout: float = DEFAULT_SHUTDOWN_STEP_TIMEOUT,
) -> ShutdownReport:
    """Climbs the ladder against `runtime`, each step bounded by `timeout` seconds.
    `request_shutdown(timeout)` sends the `shutdown` request and raises if it is refused, fails or
    is not answered within the bound it is given."""
    started = time.monotonic()
    steps: list[ShutdownStepReport] = []

    def finish(ended_by: ShutdownStep | Literal["already-exited"]) -> ShutdownReport:
        exit = runtime.exit
        return ShutdownReport(
            ended_by=ended_by,
            has_exited=exit is not None,
            exit_code=exit.exit_code if exit is not None else None,
            signal=exit.signal if exit is not None else None,
            steps=tuple(steps),
            elapsed=time.monotonic() - started,
        )

    if runtime.exit is not None:
        return finish("already-exited")

    async def close_stdin() -> str:
        runtime.close_stdin()
        return await _outcome(runtime, timeout)

    async def terminate() -> str:
        runtime.kill(signal.SIGTERM)
        return await _outcome(runtime, timeout)

    async def kill() -> str:
        runtime.kill(signal.SIGKILL)
        return await _outcome(runtime, timeout)

    rungs: tuple[tuple[ShutdownStep, Callable[[], Awaitable[str]]], ...] = (
        ("shutdown-request", lambda: _send_shutdown(runtime, request_shutdown, timeout)),
        ("close-stdin", close_stdin),
        ("sigterm", terminate),
        ("sigkill", kill),
    )
    for step, climb in rungs:
        step_started = time.monotonic()
        outcome = await climb()
        steps.append(
            ShutdownStepReport(step=step, outcome=outcome, elapsed=time.monotonic() - step_started)
        )
        if runtime.exit is not None:
            return finish(step)
    return finish("sigkill")


async def _send_shutdown(
    runtime: RuntimeProcess,
    request_shutdown: Callable[[float], Awaitable[object]],
    timeout: float,
) -> str:
    try:
        await request_shutdown(timeout)
        answer = "answered"
    except Exception as error:
        answer = f"not answered ({error})"
        # Unanswered within the bound: the runtime is stuck, waiting longer will not help.
        if runtime.exit is None and isinstance(error, RequestTimeoutError):
            return answer
    return f"{answer}, {await _outcome(runtime, timeout)}"


async def _outcome(runtime: RuntimeProcess, timeout: float) -> str:
    return "exited" if await runtime.wait_for_exit(timeout) else "still running"
