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
from dsh_sdk._gen.models import (
    ImageAttachment,
    ImageBlock,
    SdkEncodedImageBlock,
    SessionPromptParams,
)
from dsh_sdk.client import HarnessClient, InvalidParamsError, JsonRpcResponseError, text_block
from runtime_support import ECHO_ROUTE, RUNTIME_COMMANDS, RUNTIME_IDS
from stdin_tee import StdinTee
from time_budget import budget

pytestmark = pytest.mark.parametrize("runtime", RUNTIME_IDS)


async def refusal(request: Awaitable[Any]) -> JsonRpcResponseError:
    with pytest.raises(JsonRpcResponseError) as raised:
        await request
    return raised.value


def assert_same_refusal(
    local: JsonRpcResponseError, wire: JsonRpcResponseError, attributes: dict[str, str]
) -> None:
    """`local` is `wire`, raised by the client: the same code, wire message and violations; its
    message names the `attributes` the caller wrote beside the wire's pointers."""
    assert isinstance(local, InvalidParamsError) and not isinstance(wire, InvalidParamsError)
    assert local.code == wire.code == ErrorCode.INVALID_PARAMS
    assert (local.wire_message, local.data) == (wire.wire_message, wire.data)
    named = wire.message
    for pointer, attribute in attributes.items():
        assert f"{pointer}: " in named
        named = named.replace(f"{pointer}: ", f"{pointer} ({attribute}): ")
    assert local.message == f"{named} (checked by the client: {local.method} was not sent)"


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
    assert_same_refusal(
        local, wire, {"/sessionId": "session_id", "/contentBlocks": "content_blocks"}
    )
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
        assert_same_refusal(local, wire, {"/sessionId": "session_id"})
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
    assert_same_refusal(
        local, wire, {"/maxTokens": "max_tokens", "/protocolVersion": "protocol_version"}
    )


async def test_a_nested_violation_names_the_path_to_the_attribute(
    clients: Clients, runtime: str
) -> None:
    client = await clients.spawn(command=RUNTIME_COMMANDS[runtime])
    bitmap = SdkEncodedImageBlock(type="image", data="AAAA", mime_type="image/bmp")  # type: ignore[arg-type]
    local = await refusal(client.run([text_block("what is this?"), bitmap]))
    assert local.data == [
        {
            "pointer": "/contentBlocks/1/mimeType",
            "message": "must be equal to one of the allowed values",
        }
    ]
    assert "/contentBlocks/1/mimeType (content_blocks[1].mime_type): must be" in str(local)


async def test_a_runtime_refusal_names_the_attributes_too_and_keeps_the_wire_pointers(
    clients: Clients, runtime: str
) -> None:
    client = await clients.spawn(command=RUNTIME_COMMANDS[runtime])
    reference = ImageAttachment(attachment_id="never-stored", media_type="image/png")
    params = SessionPromptParams(
        session_id="s", content_blocks=[ImageBlock(type="image", attachment=reference)]
    )
    refused = await refusal(client.prompt(params))  # valid by the schema: the runtime refuses
    assert not isinstance(refused, InvalidParamsError)
    pointer = "/contentBlocks/0/attachment/attachmentId"
    assert refused.data == [
        {"pointer": pointer, "message": 'attachment "never-stored" is not held by this runtime'}
    ]
    assert refused.message == (
        f"Invalid params: {pointer} (content_blocks[0].attachment.attachment_id): "
        'attachment "never-stored" is not held by this runtime'
    )
    # A pointer that reads as the attribute does is named once.
    wrong_model = dataclasses.replace(ECHO_ROUTE, model="gpt-9")
    handshake = await refusal(
        clients.spawn(command=RUNTIME_COMMANDS[runtime], initialize=wrong_model)
    )
    assert handshake.message.startswith("Invalid params: /model: ")


@pytest.mark.parametrize(
    ("prompt", "got"),
    [
        (42, "got an int: 42"),
        (None, "got None"),
        (
            text_block("hi"),
            "got a TextBlock: TextBlock(extra={}, type='text', text='hi') (a single",
        ),
        (["hi"], "prompt[0] is a str: 'hi'"),
        ([{"type": "text", "text": "hi"}], "prompt[0] is a dict: {'type': 'text', 'text': 'hi'}"),
    ],
)
async def test_a_prompt_that_is_not_a_str_or_blocks_raises_a_type_error_saying_what_it_may_be(
    clients: Clients, runtime: str, tmp_path: Path, prompt: Any, got: str
) -> None:
    received = StdinTee(RUNTIME_COMMANDS[runtime], tmp_path)
    client = await clients.spawn(command=received.command)
    for start in (
        lambda: client.run(prompt),
        lambda: client.stream(prompt).result,
        lambda: client.stream_text(prompt).result,
    ):
        with pytest.raises(TypeError) as raised:
            await start()
        message = str(raised.value)
        assert message.startswith(
            "a prompt is a str, or a sequence of content blocks such as text_block('…') and "
            "image_from_file('cat.png'); "
        )
        assert got in message
    await client.shutdown()
    assert await received.methods_once(2) == [Method.INITIALIZE, Method.SHUTDOWN]
