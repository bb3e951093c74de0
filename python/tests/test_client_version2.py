"""Protocol version 2 from the Python client: negotiation, interrupt and close, task cancellation,
and the local refusals against a runtime without the capabilities. Both reference runtimes over
real pipes."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

import pytest

from conftest import Clients
from dsh_sdk._gen.constants import LATEST_PROTOCOL_VERSION
from dsh_sdk._gen.models import (
    AssistantMessageEvent,
    ServerCapabilities,
    SessionCloseResult,
    SessionEventNotification,
    SessionInterruptResult,
    SessionStatusNotification,
    TurnEndEvent,
)
from dsh_sdk.client import CapabilityNotSupportedError, HarnessClient, HarnessNotification
from runtime_support import CHUNK_DELAY, ECHO_ROUTE, RUNTIME_COMMANDS, RUNTIME_IDS
from time_budget import budget

pytestmark = pytest.mark.parametrize("runtime", RUNTIME_IDS)

PACED = {CHUNK_DELAY: "150"}
"""Chunks 150 ms apart: a turn of a long prompt lasts seconds, long enough to stop it."""
LONG = "Tell me everything about the sea, slowly and in many, many words, please."


def first(client: HarnessClient, test: Callable[[HarnessNotification], bool]) -> asyncio.Event:
    """Set at the first notification of `client` that `test` accepts."""
    seen = asyncio.Event()

    def listen(notification: HarnessNotification) -> None:
        if test(notification):
            seen.set()

    client.on_notification(listen)
    return seen


def is_chunk(notification: HarnessNotification) -> bool:
    params = notification.params
    return isinstance(params, SessionEventNotification) and params.event.type == "assistant/chunk"


def is_idle(session_id: str) -> Callable[[HarnessNotification], bool]:
    def test(notification: HarnessNotification) -> bool:
        params = notification.params
        return (
            isinstance(params, SessionStatusNotification)
            and params.session_id == session_id
            and params.status == "idle"
        )

    return test


async def test_asks_for_the_latest_version_by_default(clients: Clients, runtime: str) -> None:
    client = await clients.spawn(command=RUNTIME_COMMANDS[runtime])
    assert LATEST_PROTOCOL_VERSION == 2
    assert client.protocol_version == 2
    assert client.capabilities == ServerCapabilities(session_interrupt=True, session_close=True)


async def test_without_a_version_it_is_a_version_1_client_and_sends_nothing(
    clients: Clients, runtime: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    client = await clients.spawn(command=RUNTIME_COMMANDS[runtime], protocol_version=None)
    assert client.protocol_version == 1
    assert client.capabilities == ServerCapabilities()
    sent: list[str] = []
    request = client.transport.request

    async def counting(method: str, *args: object, **kwargs: object) -> object:
        sent.append(method)
        return await request(method, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(client.transport, "request", counting)
    with pytest.raises(CapabilityNotSupportedError) as raised:
        await client.interrupt("s-1")
    assert (raised.value.capability, raised.value.protocol_version) == ("sessionInterrupt", 1)
    assert "session/interrupt was not sent" in str(raised.value)
    with pytest.raises(CapabilityNotSupportedError, match="sessionClose"):
        await client.close_session("s-1")
    assert sent == []


async def test_asked_for_version_1_the_runtime_answers_1(clients: Clients, runtime: str) -> None:
    client = await clients.spawn(command=RUNTIME_COMMANDS[runtime], protocol_version=1)
    assert client.protocol_version == 1
    assert client.capabilities == ServerCapabilities()


async def test_a_version_1_runtime_cannot_interrupt_a_cancelled_run(
    clients: Clients, runtime: str
) -> None:
    command = (*RUNTIME_COMMANDS[runtime], "--protocol-version", "1")
    client = await clients.spawn(command=command, env=PACED)
    assert (client.protocol_version, client.capabilities) == (1, ServerCapabilities())
    with pytest.raises(CapabilityNotSupportedError):
        await client.interrupt("s-1")
    chunk = first(client, is_chunk)
    run = asyncio.ensure_future(client.run(LONG, session_id="v1"))
    await chunk.wait()
    run.cancel()
    with pytest.raises(asyncio.CancelledError) as raised:
        await run
    # Python 3.11 keeps the message on the task's CancelledError; 3.10 chains the one raised.
    said = [str(raised.value), str(raised.value.__context__)]
    assert any("the runtime cannot interrupt" in words for words in said), said


async def test_cancelling_a_run_interrupts_its_turn_then_raises(
    clients: Clients, runtime: str
) -> None:
    client = await clients.spawn(command=RUNTIME_COMMANDS[runtime], env=PACED)
    seen: list[HarnessNotification] = []
    client.on_notification(seen.append)
    chunk, idle = first(client, is_chunk), first(client, is_idle("stopped"))
    run = asyncio.ensure_future(client.run(LONG, session_id="stopped"))
    await chunk.wait()
    run.cancel()
    with pytest.raises(asyncio.CancelledError):
        await run
    await asyncio.wait_for(idle.wait(), budget(5))
    events = [
        n.params.event
        for n in seen
        if isinstance(n.params, SessionEventNotification) and n.params.session_id == "stopped"
    ]
    ends = [e for e in events if isinstance(e, TurnEndEvent)]
    assert [e.data.reason.kind for e in ends] == ["aborted"]
    assert not any(isinstance(e, AssistantMessageEvent) for e in events)
    again = await client.run("again", session_id="stopped", timeout=budget(20))
    assert (again.finish_reason, again.final_response) == ("completed", "Echo: again")


async def test_cancelling_a_queued_run_spares_the_turn_before_it(
    clients: Clients, runtime: str
) -> None:
    client = await clients.spawn(command=RUNTIME_COMMANDS[runtime], env=PACED)
    seen: list[HarnessNotification] = []
    client.on_notification(seen.append)
    idle_twice = asyncio.Event()
    idles = 0

    def count_idles(notification: HarnessNotification) -> None:
        nonlocal idles
        if is_idle("queue")(notification):
            idles += 1
            if idles == 2:
                idle_twice.set()

    client.on_notification(count_idles)
    before = asyncio.ensure_future(client.run("short one", session_id="queue"))
    queued = asyncio.ensure_future(client.run(LONG, session_id="queue"))
    await asyncio.sleep(0.05)
    queued.cancel()
    assert (await before).finish_reason == "completed"
    with pytest.raises(asyncio.CancelledError):
        await queued
    # CancelledError comes once the interrupt is answered; the turn's end may follow it.
    await asyncio.wait_for(idle_twice.wait(), budget(10))
    ends = [
        n.params.event.data.reason.kind
        for n in seen
        if isinstance(n.params, SessionEventNotification)
        and isinstance(n.params.event, TurnEndEvent)
    ]
    assert ends == ["completed", "aborted"]


async def test_interrupt_stops_the_current_turn_and_the_queue_runs(
    clients: Clients, runtime: str
) -> None:
    client = await clients.spawn(command=RUNTIME_COMMANDS[runtime], env=PACED)
    chunk = first(client, is_chunk)
    current = asyncio.ensure_future(client.run(LONG, session_id="q"))
    following = asyncio.ensure_future(client.run("next", session_id="q"))
    await chunk.wait()
    assert await client.interrupt("q") == SessionInterruptResult(found=True, was_running=True)
    assert (await current).finish_reason == "aborted"
    assert (await following).final_response == "Echo: next"
    assert await client.interrupt("q") == SessionInterruptResult(found=True, was_running=False)
    assert await client.interrupt("nobody") == SessionInterruptResult(
        found=False, was_running=False
    )


async def test_close_session_disposes_it_and_the_same_id_starts_again(
    clients: Clients, runtime: str
) -> None:
    client = await clients.spawn(command=RUNTIME_COMMANDS[runtime], env=PACED)
    chunk = first(client, is_chunk)
    run = asyncio.ensure_future(client.run(LONG, session_id="c"))
    other = asyncio.ensure_future(client.run("other", session_id="d"))
    await chunk.wait()
    assert await client.close_session("c") == SessionCloseResult(found=True)
    assert (await run).finish_reason == "aborted"
    assert await client.close_session("c") == SessionCloseResult(found=False)
    assert (await other).finish_reason == "completed"
    fresh = await client.run("hello", session_id="c", timeout=budget(20))
    assert fresh.message_id == "c/m1"
    assert fresh.events[0].seq == 0


def test_the_sync_client_interrupts_and_closes(runtime: str) -> None:
    with HarnessClient.sync(
        command=RUNTIME_COMMANDS[runtime], initialize=ECHO_ROUTE, protocol_version=2
    ) as client:
        assert (client.protocol_version, client.capabilities.session_close) == (2, True)
        client.run("hi", session_id="s")
        assert client.interrupt("s") == SessionInterruptResult(found=True, was_running=False)
        assert client.close_session("s") == SessionCloseResult(found=True)
