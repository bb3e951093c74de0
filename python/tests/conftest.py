"""Fixtures shared by the runtime and client tests (helpers live in runtime_support.py)."""

from __future__ import annotations

import contextlib
import gc
from collections.abc import AsyncIterator, Iterator, Mapping, Sequence
from typing import Any

import pytest

from dsh_sdk import jsonlib
from dsh_sdk.client import HarnessClient
from runtime_support import ECHO_ROUTE, RUNTIME_COMMANDS, TS_BUILT, RuntimeConnection
from time_budget import budget
from transport_support import capturing_loop_errors


def pytest_collection_finish(session: pytest.Session) -> None:
    """Moves what collection made out of the garbage collector's sight: `no_loop_errors` collects
    after each test, which took 15 ms a test with it in sight (most of the vector tests' time)."""
    gc.collect()
    gc.freeze()


@pytest.fixture(autouse=True)
def _typescript_side_is_built(request: pytest.FixtureRequest) -> None:
    """A test marked `needs_ts` fails, never skips, when the TypeScript runtime is not built: a
    parity test that silently does not run proves nothing."""
    if request.node.get_closest_marker("needs_ts") is not None and not TS_BUILT:
        pytest.fail("the TypeScript runtime is not built: run `bash scripts/setup.sh` first")


class Runtimes:
    """Starts runtime processes for a test and kills those still running when it ends."""

    def __init__(self) -> None:
        self.started: list[RuntimeConnection] = []

    async def start(
        self, command: Sequence[str] = RUNTIME_COMMANDS["py"], env: Mapping[str, str] | None = None
    ) -> RuntimeConnection:
        connection = await RuntimeConnection.start(command, env)
        self.started.append(connection)
        return connection

    async def initialized(
        self, command: Sequence[str] = RUNTIME_COMMANDS["py"], env: Mapping[str, str] | None = None
    ) -> RuntimeConnection:
        connection = await self.start(command, env)
        await connection.peer.initialize(ECHO_ROUTE, timeout=budget(10.0))
        return connection


class Clients:
    """Spawns `HarnessClient`s for a test and shuts down those still running when it ends."""

    def __init__(self) -> None:
        self.started: list[HarnessClient] = []

    async def spawn(self, **options: Any) -> HarnessClient:
        options.setdefault("initialize", ECHO_ROUTE)
        client = await HarnessClient.spawn(**options)
        self.started.append(client)
        return client


@pytest.fixture
async def runtimes() -> AsyncIterator[Runtimes]:
    started = Runtimes()
    yield started
    for connection in started.started:
        await connection.close()


@pytest.fixture
async def clients() -> AsyncIterator[Clients]:
    started = Clients()
    yield started
    for client in started.started:
        with contextlib.suppress(Exception):
            await client.shutdown(timeout=1.0)


@pytest.fixture
async def no_loop_errors() -> AsyncIterator[None]:
    """Fails the test on what the event loop would only log (a task's exception never retrieved,
    a callback's error). Modules opt in with `pytest.mark.usefixtures("no_loop_errors")`."""
    async with capturing_loop_errors() as errors:
        yield
    assert errors == []


@pytest.fixture(params=jsonlib.available_backends())
def json_backend(request: pytest.FixtureRequest) -> Iterator[str]:
    """Runs a test with each JSON backend the interpreter has (orjson when installed, json)."""
    previous = jsonlib.set_backend(request.param)
    yield request.param
    jsonlib.set_backend(previous)
