"""The handshake of the Python reference runtime (docs/reference-runtime.md, "Handshake"), over
real pipes."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import pytest

from conftest import Runtimes
from dsh_sdk._gen.constants import SERVER_NAME, ErrorCode
from dsh_sdk._gen.methods import Method
from dsh_sdk._gen.models import (
    InitializeResult,
    ServerInfo,
    SessionPromptParams,
    ShutdownResult,
    TextBlock,
)
from dsh_sdk.codec import encode
from dsh_sdk.errors import JsonRpcResponseError
from runtime_support import ECHO_ROUTE, run_runtime

SERVED = InitializeResult(server_info=ServerInfo(name=SERVER_NAME, version="0.1.0"))
PROMPT = SessionPromptParams(session_id="s", content_blocks=[TextBlock(type="text", text="hi")])


async def refusal(request: Any) -> JsonRpcResponseError:
    with pytest.raises(JsonRpcResponseError) as caught:
        await request
    return caught.value


async def test_answers_initialize_with_the_server_name_and_the_runtime_version(
    runtimes: Runtimes,
) -> None:
    runtime = await runtimes.start()
    assert await runtime.peer.initialize(ECHO_ROUTE) == SERVED


@pytest.mark.parametrize("effort", ["low", "medium", "high"])
async def test_accepts_every_served_effort(runtimes: Runtimes, effort: str) -> None:
    runtime = await runtimes.start()
    route = dataclasses.replace(ECHO_ROUTE, reasoning_effort=effort)
    assert await runtime.peer.initialize(route) == SERVED


@pytest.mark.parametrize(
    ("change", "pointer", "message"),
    [
        pytest.param(
            {"provider": "x"},
            "/provider",
            'provider "x" is not served; served: echo',
            id="unknown-provider",
        ),
        pytest.param(
            {"model": "x"},
            "/model",
            'model "x" is not served by echo; served: echo-1',
            id="unknown-model",
        ),
        pytest.param(
            {"reasoning_effort": "x"},
            "/reasoningEffort",
            'reasoningEffort "x" is not supported by echo-1; supported: low, medium, high',
            id="unsupported-effort",
        ),
    ],
)
async def test_refuses_a_route_it_does_not_serve_with_32602_and_the_pointer(
    runtimes: Runtimes, change: dict[str, Any], pointer: str, message: str
) -> None:
    runtime = await runtimes.start()
    error = await refusal(runtime.peer.initialize(dataclasses.replace(ECHO_ROUTE, **change)))
    assert (error.code, error.wire_message) == (ErrorCode.INVALID_PARAMS, "Invalid params")
    assert error.data == [{"pointer": pointer, "message": message}]


async def test_refuses_params_that_break_the_schema_before_any_route_check(
    runtimes: Runtimes,
) -> None:
    runtime = await runtimes.start()
    params = {"cwd": "/tmp", "provider": "x", "model": "echo-1", "maxTokens": 0}
    error = await refusal(runtime.transport.request(Method.INITIALIZE, params))
    assert error.code == ErrorCode.INVALID_PARAMS
    assert [violation["pointer"] for violation in error.data] == ["/maxTokens"]


async def test_refuses_a_null_max_tokens(runtimes: Runtimes) -> None:
    runtime = await runtimes.start()
    params = {"cwd": "/tmp", "provider": "echo", "model": "echo-1", "maxTokens": None}
    error = await refusal(runtime.transport.request(Method.INITIALIZE, params))
    assert [violation["pointer"] for violation in error.data] == ["/maxTokens"]


async def test_allows_a_retry_after_a_failed_initialize(runtimes: Runtimes) -> None:
    runtime = await runtimes.start()
    await refusal(runtime.peer.initialize(dataclasses.replace(ECHO_ROUTE, model="nope")))
    assert await runtime.peer.initialize(ECHO_ROUTE) == SERVED


async def test_refuses_a_second_initialize_after_a_successful_one_with_32600(
    runtimes: Runtimes,
) -> None:
    runtime = await runtimes.initialized()
    error = await refusal(runtime.peer.initialize(ECHO_ROUTE))
    assert (error.code, error.message) == (ErrorCode.INVALID_REQUEST, "already initialized")


async def test_refuses_session_prompt_before_initialize_with_32002(runtimes: Runtimes) -> None:
    runtime = await runtimes.start()
    error = await refusal(runtime.peer.session_prompt(PROMPT))
    assert (error.code, error.message) == (
        ErrorCode.NOT_INITIALIZED,
        "not initialized: send initialize first",
    )


async def test_still_refuses_session_prompt_after_a_failed_initialize(runtimes: Runtimes) -> None:
    runtime = await runtimes.start()
    await refusal(runtime.peer.initialize(dataclasses.replace(ECHO_ROUTE, provider="x")))
    error = await refusal(runtime.peer.session_prompt(PROMPT))
    assert error.code == ErrorCode.NOT_INITIALIZED


async def test_answers_an_unknown_method_with_32601(runtimes: Runtimes) -> None:
    runtime = await runtimes.initialized()
    error = await refusal(runtime.transport.request("session/cancel", {"sessionId": "s"}))
    assert error.code == ErrorCode.METHOD_NOT_FOUND


async def test_answers_shutdown_with_an_empty_object_and_exits_0_with_stdin_open(
    runtimes: Runtimes,
) -> None:
    runtime = await runtimes.initialized()
    # The test never closes the runtime's stdin: the runtime exits on its own.
    assert await runtime.peer.shutdown() == ShutdownResult()
    assert await runtime.exited() == 0


@pytest.mark.parametrize("params", [None, {}], ids=["null", "empty-object"])
async def test_accepts_shutdown_params_that_are_null_or_empty(
    runtimes: Runtimes, params: object
) -> None:
    runtime = await runtimes.start()
    assert await runtime.transport.request(Method.SHUTDOWN, params) == {}
    assert await runtime.exited() == 0


async def test_answers_shutdown_before_initialize_too(runtimes: Runtimes) -> None:
    runtime = await runtimes.start()
    assert await runtime.peer.shutdown() == ShutdownResult()
    assert await runtime.exited() == 0


async def test_refuses_every_request_that_follows_shutdown_with_32600() -> None:
    # Written in one go, so the runtime reads them all before it exits.
    prompt = {"sessionId": "s", "contentBlocks": [{"type": "text", "text": "hi"}]}
    requests = [
        (Method.INITIALIZE, encode(ECHO_ROUTE)),
        (Method.SHUTDOWN, None),
        (Method.SESSION_PROMPT, prompt),
        (Method.INITIALIZE, encode(ECHO_ROUTE)),
        (Method.SHUTDOWN, {}),
    ]
    lines = [
        json.dumps({"jsonrpc": "2.0", "id": id, "method": method, "params": params})
        for id, (method, params) in enumerate(requests, start=1)
    ]
    code, stdout, _ = await run_runtime("\n".join(lines) + "\n", close_stdin=False)
    assert code == 0
    answers = [json.loads(line) for line in stdout.splitlines()]
    refusal = {"code": ErrorCode.INVALID_REQUEST, "message": "shutting down"}
    assert answers[1:] == [
        {"jsonrpc": "2.0", "id": 2, "result": {}},
        {"jsonrpc": "2.0", "id": 3, "error": refusal},
        {"jsonrpc": "2.0", "id": 4, "error": refusal},
        {"jsonrpc": "2.0", "id": 5, "error": refusal},
    ]
