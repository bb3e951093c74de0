"""The Python client checks its params before sending them: what breaks the schema fails locally
with `InvalidParamsError`, the very `-32602` error (code, message, violations in order) the runtime
answers for the same params sent raw, and nothing reaches the runtime (read from a `tee` in front
of its stdin). Both reference runtimes over real pipes."""

from __future__ import annotations

import dataclasses
from collections.abc import Awaitable
from pathlib import Path
from typing import Any

import pytest

from conftest import Clients, Runtimes
from dsh_sdk._gen.constants import ErrorCode
from dsh_sdk._gen.methods import Method
from dsh_sdk._gen.models import SessionPromptParams
from dsh_sdk.client import HarnessClient, InvalidParamsError, JsonRpcResponseError
from runtime_support import ECHO_ROUTE, RUNTIME_COMMANDS, RUNTIME_IDS
from stdin_tee import StdinTee
from time_budget import budget

pytestmark = pytest.mark.parametrize("runtime", RUNTIME_IDS)


async def refusal(request: Awaitable[Any]) -> JsonRpcResponseError:
    with pytest.raises(JsonRpcResponseError) as raised:
        await request
    return raised.value


def assert_same_refusal(local: JsonRpcResponseError, wire: JsonRpcResponseError) -> None:
    assert isinstance(local, InvalidParamsError) and not isinstance(wire, InvalidParamsError)
    assert local.code == wire.code == ErrorCode.INVALID_PARAMS
    assert (local.wire_message, local.data) == (wire.wire_message, wire.data)
    assert local.message == f"{wire.message} (checked by the client: {local.method} was not sent)"


async def test_an_empty_prompt_fails_locally_as_the_runtime_would_refuse_it(
    clients: Clients, runtime: str, tmp_path: Path
) -> None:
    received = StdinTee(RUNTIME_COMMANDS[runtime], tmp_path)
    client = await clients.spawn(command=received.command)
    local = await refusal(client.run([], session_id=""))
    assert isinstance(local, InvalidParamsError) and local.method == Method.SESSION_PROMPT
    assert local.data == [
        {"pointer": "/sessionId", "message": "must NOT have fewer than 1 characters"},
        {"pointer": "/contentBlocks", "message": "must NOT have fewer than 1 items"},
    ]
    for start in (client.stream([], session_id=""), client.stream_text([], session_id="")):
        assert (await refusal(start.result)).data == local.data
    empty = SessionPromptParams(session_id="", content_blocks=[])
    assert (await refusal(client.prompt(empty))).data == local.data
    raw = {"sessionId": "", "contentBlocks": []}
    wire = await refusal(client.transport.request(Method.SESSION_PROMPT, raw, timeout=budget(10)))
    assert_same_refusal(local, wire)
    # Only the raw one reached the runtime: nothing of the four refused locally.
    assert await received.methods_once(2) == [Method.INITIALIZE, Method.SESSION_PROMPT]


async def test_interrupt_and_close_of_an_empty_session_id_fail_locally(
    clients: Clients, runtime: str, tmp_path: Path
) -> None:
    received = StdinTee(RUNTIME_COMMANDS[runtime], tmp_path)
    client = await clients.spawn(command=received.command)
    for method, call in [
        (Method.SESSION_INTERRUPT, client.interrupt),
        (Method.SESSION_CLOSE, client.close_session),
    ]:
        local = await refusal(call(""))
        wire = await refusal(
            client.transport.request(method, {"sessionId": ""}, timeout=budget(10))
        )
        assert_same_refusal(local, wire)
    assert await received.methods_once(3) == [
        Method.INITIALIZE,
        Method.SESSION_INTERRUPT,
        Method.SESSION_CLOSE,
    ]


async def test_initialize_params_fail_before_any_process_starts(
    runtimes: Runtimes, runtime: str, tmp_path: Path
) -> None:
    route = dataclasses.replace(ECHO_ROUTE, max_tokens=0)
    missing = tmp_path / "no-such-runtime"  # starting it would raise RuntimeSpawnError
    spawning = HarnessClient.spawn(initialize=route, command=[missing], protocol_version=0)
    local = await refusal(spawning)
    assert local.data == [
        {"pointer": "/maxTokens", "message": "must be >= 1"},
        {"pointer": "/protocolVersion", "message": "must be >= 1"},
    ]
    connection = await runtimes.start(RUNTIME_COMMANDS[runtime])
    raw = {"cwd": "/tmp", "provider": "echo", "model": "echo-1", "maxTokens": 0}
    wire = await refusal(
        connection.transport.request(
            Method.INITIALIZE, {**raw, "protocolVersion": 0}, timeout=budget(10)
        )
    )
    assert_same_refusal(local, wire)
