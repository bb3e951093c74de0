"""Starting a runtime: the default command, the working directory, the environment, stderr, and
abandoning a run by cancelling it."""

from __future__ import annotations

import asyncio
import os
import signal
import sys

import pytest

from conftest import Clients
from dsh_sdk._gen.constants import SERVER_NAME
from dsh_sdk._gen.models import AssistantChunkEvent, SessionEventNotification
from dsh_sdk.client import (
    PYTHON_RUNTIME_COMMAND,
    PYTHON_RUNTIME_LAUNCHER,
    REFERENCE_RUNTIME_LAUNCHER,
    HarnessNotification,
    RuntimeExitedError,
)
from runtime_support import CHUNK_DELAY, PY_LAUNCHER, TS_LAUNCHER
from time_budget import budget


def test_the_launchers_and_the_default_command_are_where_the_repository_has_them() -> None:
    assert PYTHON_RUNTIME_LAUNCHER == PY_LAUNCHER
    assert REFERENCE_RUNTIME_LAUNCHER == TS_LAUNCHER
    assert (sys.executable, "-m", "dsh_sdk.runtime") == PYTHON_RUNTIME_COMMAND


async def test_starts_the_python_reference_runtime_by_default_from_any_directory(
    clients: Clients,
) -> None:
    client = await clients.spawn(cwd="/")
    assert client.server_info.name == SERVER_NAME
    assert (await client.run("from /")).final_response == "Echo: from /"


async def test_passes_the_environment_and_hands_over_stderr(clients: Clients) -> None:
    stderr: list[str] = []
    client = await clients.spawn(
        env={CHUNK_DELAY: "not a number", "DSH_SDK_UNUSED": None}, on_stderr=stderr.append
    )
    await client.run("hi")
    await client.shutdown()
    expected = "ignoring DSH_SDK_RUNTIME_CHUNK_DELAY_MS=not a number"
    assert expected in "".join(stderr)
    assert expected in client.stderr_tail()


async def test_cancelling_a_run_abandons_it_and_the_client_keeps_serving(
    clients: Clients,
) -> None:
    client = await clients.spawn(env={CHUNK_DELAY: "20"})
    run = asyncio.ensure_future(client.run("x" * 200, session_id="abandoned"))
    await asyncio.sleep(0.2)
    run.cancel()
    with pytest.raises(asyncio.CancelledError):
        await run
    result = await client.run("next", session_id="other", timeout=budget(20))
    assert result.final_response == "Echo: next"


async def test_a_stream_raises_the_run_error_when_the_runtime_dies(clients: Clients) -> None:
    client = await clients.spawn(env={CHUNK_DELAY: "50"})
    stream = client.stream("x" * 400, session_id="dies")
    chunks = 0
    with pytest.raises(RuntimeExitedError):
        async for notification in stream:
            if _is_chunk(notification):
                chunks += 1
                if chunks == 1:
                    os.kill(client.pid, signal.SIGKILL)
    with pytest.raises(RuntimeExitedError):
        await stream


def _is_chunk(notification: HarnessNotification) -> bool:
    params = notification.params
    return isinstance(params, SessionEventNotification) and isinstance(
        params.event, AssistantChunkEvent
    )
