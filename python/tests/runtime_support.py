"""Shared helpers of the runtime and client tests: where the runtimes are, a raw connection to a
runtime process over real pipes, and waiting helpers."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Final

import pytest

from dsh_sdk._gen.methods import Method
from dsh_sdk._gen.models import (
    InitializeParams,
    SessionEvent,
    SessionEventNotification,
    SessionStatusNotification,
)
from dsh_sdk._gen.peers import HarnessSdkClientPeer
from dsh_sdk.client import HarnessNotification
from dsh_sdk.codec import encode
from dsh_sdk.diagnostics import TransportDiagnostic
from dsh_sdk.transport import JsonRpcLineTransport
from time_budget import budget

REPOSITORY: Final = Path(__file__).resolve().parents[2]
FIXTURES: Final = Path(__file__).resolve().parent / "fixtures"
PY_LAUNCHER: Final = REPOSITORY / "bin" / "dsh-sdk-runtime-py"
TS_LAUNCHER: Final = REPOSITORY / "bin" / "dsh-sdk-runtime"
TS_BUILT: Final = (REPOSITORY / "packages" / "runtime" / "dist" / "main.js").is_file() and (
    shutil.which("node") is not None
)

RUNTIME_COMMANDS: Final[Mapping[str, tuple[str, ...]]] = {
    "py": (str(PY_LAUNCHER),),
    "ts": (str(TS_LAUNCHER),),
}
"""The reference runtimes by id, each through its launcher."""

needs_ts: Final = pytest.mark.needs_ts
"""Marks a test that drives the TypeScript runtime: it fails (never skips) when that is not built
(see `conftest.py`)."""
RUNTIME_IDS: Final = [pytest.param("py"), pytest.param("ts", marks=needs_ts)]
"""Parametrize with these to run a test against both reference runtimes."""

ECHO_ROUTE: Final = InitializeParams(cwd="/tmp", provider="echo", model="echo-1")
CHUNK_DELAY: Final = "DSH_SDK_RUNTIME_CHUNK_DELAY_MS"


def fixture_command(name: str, *args: str) -> tuple[str, ...]:
    """A fixture runtime of tests/fixtures/, run by this interpreter."""
    return (sys.executable, str(FIXTURES / name), *args)


async def eventually(predicate: Callable[[], bool], timeout: float = budget(10.0)) -> None:
    """Waits until `predicate()` holds; fails after `timeout` seconds."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("the condition did not come true in time")
        await asyncio.sleep(0.005)


def without_time(event: SessionEvent) -> dict[str, Any]:
    """An event as its wire value without `time`, the only part that differs between runs."""
    value = encode(event)
    assert isinstance(value["time"], int)
    del value["time"]
    return value


async def run_runtime(
    stdin: str | bytes,
    *,
    command: Sequence[str] = RUNTIME_COMMANDS["py"],
    env: Mapping[str, str] | None = None,
    close_stdin: bool = True,
    timeout: float = budget(20.0),
) -> tuple[int, str, str]:
    """Runs a runtime on `stdin` written in one go (then closed, unless `close_stdin` is False:
    the runtime must then exit on its own); returns its exit code, stdout and stderr."""
    process = await asyncio.create_subprocess_exec(
        *command,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        env={**os.environ, **(env or {})},
    )
    assert process.stdin is not None and process.stdout is not None
    assert process.stderr is not None
    process.stdin.write(stdin.encode() if isinstance(stdin, str) else stdin)
    if close_stdin:
        process.stdin.close()
    try:
        stdout, stderr, code = await asyncio.wait_for(
            asyncio.gather(process.stdout.read(), process.stderr.read(), process.wait()), timeout
        )
    finally:
        if process.returncode is None:
            process.kill()
            await process.wait()
    return code, stdout.decode(), stderr.decode()


class RuntimeConnection:
    """A runtime under test: its process, the generated client peer over a raw transport, and
    everything it sent, in wire order."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        assert process.stdout is not None and process.stdin is not None
        assert process.stderr is not None
        self.process = process
        self.notifications: list[HarnessNotification] = []
        self.diagnostics: list[TransportDiagnostic] = []
        self._stderr = bytearray()
        self._stderr_task = asyncio.ensure_future(self._read_stderr(process.stderr))
        self.transport = JsonRpcLineTransport(
            process.stdout, process.stdin, on_diagnostic=self.diagnostics.append
        )
        self.peer = HarnessSdkClientPeer(self.transport)
        record = self.notifications.append
        self.peer.on_session_event(lambda p: record(HarnessNotification(Method.SESSION_EVENT, p)))
        self.peer.on_session_status(lambda p: record(HarnessNotification(Method.SESSION_STATUS, p)))
        self.peer.on_subagent_started(
            lambda p: record(HarnessNotification(Method.SUBAGENT_STARTED, p))
        )
        self.peer.on_subagent_finished(
            lambda p: record(HarnessNotification(Method.SUBAGENT_FINISHED, p))
        )
        self.transport.start()

    @classmethod
    async def start(
        cls, command: Sequence[str] = RUNTIME_COMMANDS["py"], env: Mapping[str, str] | None = None
    ) -> RuntimeConnection:
        process = await asyncio.create_subprocess_exec(
            *command,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env={**os.environ, **(env or {})},
        )
        return cls(process)

    @property
    def stderr(self) -> str:
        return self._stderr.decode("utf-8", errors="replace")

    async def _read_stderr(self, stderr: asyncio.StreamReader) -> None:
        while chunk := await stderr.read(65536):
            self._stderr += chunk

    async def wait_for(
        self, test: Callable[[HarnessNotification], bool], timeout: float = budget(10.0)
    ) -> HarnessNotification:
        """The first recorded notification passing `test` (already recorded or later)."""
        found: list[HarnessNotification] = []

        def check() -> bool:
            found[:] = [n for n in self.notifications if test(n)][:1]
            return bool(found)

        await eventually(check, timeout)
        return found[0]

    async def idle(self, session_id: str, count: int = 1, timeout: float = budget(10.0)) -> None:
        """Waits until `session_id` has reported `idle` `count` times."""

        def is_done() -> bool:
            seen = sum(
                1
                for n in self.notifications
                if isinstance(n.params, SessionStatusNotification)
                and n.params.session_id == session_id
                and n.params.status == "idle"
            )
            return seen >= count

        await eventually(is_done, timeout)

    def events_of(self, session_id: str) -> list[SessionEvent]:
        return [
            n.params.event
            for n in self.notifications
            if isinstance(n.params, SessionEventNotification) and n.params.session_id == session_id
        ]

    def frames_of(self, session_id: str) -> list[str]:
        """A session's frames as `method` or `method detail`, for comparing sequences."""
        return describe_frames(self.notifications, session_id)

    async def exited(self, timeout: float = budget(10.0)) -> int:
        return await asyncio.wait_for(self.process.wait(), timeout)

    async def shutdown(self) -> int:
        await self.peer.shutdown(timeout=budget(10.0))
        return await self.exited()

    async def close(self) -> None:
        if self.process.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                self.process.kill()
            await self.process.wait()
        await self.transport.close()
        await asyncio.wait((self._stderr_task,), timeout=1.0)


def describe_frames(notifications: Sequence[HarnessNotification], session_id: str) -> list[str]:
    """A session's frames as `method type`, `method status` or `method` (a child's start or end
    under its parent)."""
    frames: list[str] = []
    for n in notifications:
        params = n.params
        if isinstance(params, SessionEventNotification):
            if params.session_id == session_id:
                frames.append(f"{n.method} {params.event.type}")
        elif isinstance(params, SessionStatusNotification):
            if params.session_id == session_id:
                frames.append(f"{n.method} {params.status}")
        elif params.parent_session_id == session_id:
            frames.append(n.method)
    return frames


TURN_FRAMES: Final = [
    "session.status running",
    "session.event agent/inbox/spliced",
    "session.event turn/start",
    "session.event user/message",
    "session.event step/start",
    "session.event assistant/chunk",
    "session.event assistant/chunk",
    "session.event assistant/chunk",
    "session.event assistant/message",
    "session.event step/end",
    "session.event turn/end",
    "session.status idle",
]
"""The frames of one turn whose reply has three pieces."""
