"""What a user of the client sees besides a run's result: notifications from the very first line,
the transport's diagnostics, the errors to catch, and who ended a call. Over real pipes."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import replace

import pytest

from conftest import Clients
from dsh_sdk import errors as protocol_errors
from dsh_sdk import peer_support
from dsh_sdk._gen.models import SessionPromptParams, SessionStatusNotification, TextBlock
from dsh_sdk.client import (
    ClientClosedError,
    ErrorCode,
    HarnessClient,
    HarnessNotification,
    JsonRpcResponseError,
    ProtocolError,
    RequestTimeoutError,
    RuntimeExitedError,
    TransportClosedError,
)
from dsh_sdk.diagnostics import TransportDiagnostic
from runtime_support import ECHO_ROUTE, fixture_command

WITH_HANDSHAKE = 23
"""Sent by the fixture in the same write as the `initialize` answer."""


async def test_a_listener_passed_to_spawn_sees_every_notification_sent_with_the_handshake(
    clients: Clients,
) -> None:
    seen: list[HarnessNotification] = []
    diagnostics: list[TransportDiagnostic] = []
    client = await clients.spawn(
        command=fixture_command("notify_with_handshake.py", str(WITH_HANDSHAKE)),
        on_notification=seen.append,
        on_diagnostic=diagnostics.append,
    )
    await client.shutdown()
    assert len(seen) == WITH_HANDSHAKE
    assert seen[0].params == SessionStatusNotification(session_id="background", status="running")
    assert diagnostics == []


async def test_without_a_listener_each_one_is_reported_as_unhandled_none_in_silence(
    clients: Clients,
) -> None:
    diagnostics: list[TransportDiagnostic] = []
    client = await clients.spawn(
        command=fixture_command("notify_with_handshake.py", str(WITH_HANDSHAKE)),
        on_diagnostic=diagnostics.append,
    )
    await client.shutdown()
    assert [d.reason for d in diagnostics] == ["unhandled-notification"] * WITH_HANDSHAKE
    assert client.transport.diagnostic_counts == {"unhandled-notification": WITH_HANDSHAKE}


def test_the_errors_a_call_raises_are_the_protocol_classes_themselves() -> None:
    assert JsonRpcResponseError is protocol_errors.JsonRpcResponseError
    assert RequestTimeoutError is protocol_errors.RequestTimeoutError
    assert TransportClosedError is protocol_errors.TransportClosedError
    assert ProtocolError is peer_support.ProtocolError


async def test_a_refused_handshake_is_a_json_rpc_response_error_with_the_wire_code() -> None:
    with pytest.raises(JsonRpcResponseError) as caught:
        await HarnessClient.spawn(initialize=replace(ECHO_ROUTE, model="echo-9"))
    assert caught.value.code == ErrorCode.INVALID_PARAMS


async def test_an_unanswered_prompt_is_a_request_timeout_error(clients: Clients) -> None:
    client = await clients.spawn(
        command=fixture_command("fixture_runtime.py", "--prompt-delay", "never"),
        request_timeout=0.2,
    )
    params = SessionPromptParams(session_id="s", content_blocks=[TextBlock(type="text", text="x")])
    with pytest.raises(RequestTimeoutError):
        await client.prompt(params)


async def test_a_run_ended_by_the_clients_own_shutdown_fails_with_client_closed_error(
    clients: Clients,
) -> None:
    # The fixture answers prompts but runs no turn: the run waits for a receipt forever.
    client = await clients.spawn(command=fixture_command("fixture_runtime.py"))
    run = asyncio.ensure_future(client.run("never finishes"))
    await asyncio.sleep(0.1)
    await client.shutdown(timeout=0.3)
    with pytest.raises(ClientClosedError) as caught:
        await run
    assert not isinstance(caught.value, RuntimeExitedError)
    assert str(caught.value) == "the client is closing: its own shutdown() ended what was pending"


async def test_a_call_after_shutdown_says_that_the_client_is_closed_and_sent_nothing(
    clients: Clients,
) -> None:
    client = await clients.spawn()
    await client.shutdown()
    params = SessionPromptParams(session_id="s", content_blocks=[TextBlock(type="text", text="x")])
    calls: list[tuple[str, Callable[[], Awaitable[object]]]] = [
        ("run()", lambda: client.run("after shutdown")),
        ("stream()", lambda: client.stream("after shutdown").result),
        ("stream_text()", lambda: client.stream_text("after shutdown").result),
        ("prompt()", lambda: client.prompt(params)),
        ("interrupt()", lambda: client.interrupt("s")),
        ("close_session()", lambda: client.close_session("s")),
    ]
    for call, start in calls:
        with pytest.raises(ClientClosedError) as caught:
            await start()
        assert str(caught.value) == (
            f"the client is closed: {call} came after its shutdown(), so nothing was sent"
        )


async def test_a_pending_request_ended_by_shutdown_fails_the_same_way(clients: Clients) -> None:
    # Never answers, not even when it is stopped: only SIGTERM ends it.
    options = ("--prompt-delay", "never", "--shutdown", "ignore", "--on-stdin-end", "stay")
    client = await clients.spawn(command=fixture_command("fixture_runtime.py", *options))
    params = SessionPromptParams(session_id="s", content_blocks=[TextBlock(type="text", text="x")])
    prompt = asyncio.ensure_future(client.prompt(params))
    await asyncio.sleep(0.1)
    await client.shutdown(timeout=0.3)
    with pytest.raises(ClientClosedError):
        await prompt
