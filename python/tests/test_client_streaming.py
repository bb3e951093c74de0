"""Streaming the reply and stopping a run without losing it, from the Python client: `stream_text`,
a handle's `interrupt()`, a cancelled `run()` that keeps its result, and a run `timeout` that
interrupts the turn. Both reference runtimes over real pipes; what the runtime received is read
from a `tee` in front of its stdin."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

import pytest

from conftest import Clients
from dsh_sdk._gen.methods import Method
from dsh_sdk.client import (
    CapabilityNotSupportedError,
    HarnessClient,
    HarnessNotification,
    RunResult,
    RunTimeoutError,
    cancelled_run_result,
    text_delta_of,
)
from runtime_support import CHUNK_DELAY, RUNTIME_COMMANDS, RUNTIME_IDS
from stdin_tee import StdinTee
from time_budget import budget

pytestmark = pytest.mark.parametrize("runtime", RUNTIME_IDS)

PACED = {CHUNK_DELAY: "100"}
"""Chunks 100 ms apart: the reply to `LONG` (a piece per 16 code points) lasts 10 s."""
LONG = "x" * 1600
ECHO = f"Echo: {LONG}"


def first_delta(client: HarnessClient, session_id: str) -> asyncio.Event:
    """Set once the runtime streamed the first text delta of `session_id`'s reply."""
    seen = asyncio.Event()

    def listen(notification: HarnessNotification) -> None:
        if text_delta_of(notification, session_id):
            seen.set()

    client.on_notification(listen)
    return seen


def assert_cut_short(result: RunResult) -> None:
    """An interrupted reply: no `assistant/message`, some text so far, and only the reply's."""
    assert result.finish_reason == "aborted"
    assert result.final_response == ""
    assert result.partial_response != ""
    assert ECHO.startswith(result.partial_response)
    assert len(result.partial_response) < len(ECHO)


async def test_streams_the_reply_as_text_deltas(clients: Clients, runtime: str) -> None:
    client = await clients.spawn(command=RUNTIME_COMMANDS[runtime])
    prompt = "a reply long enough to stream in several pieces"
    stream = client.stream_text(prompt, session_id="text")
    deltas = [delta async for delta in stream]
    result = await stream
    assert len(deltas) > 1
    assert all(isinstance(delta, str) and delta for delta in deltas)
    assert "".join(deltas) == result.partial_response == result.final_response == f"Echo: {prompt}"
    assert result.finish_reason == "completed"


async def test_a_childs_text_is_not_the_replys(clients: Clients, runtime: str) -> None:
    client = await clients.spawn(command=RUNTIME_COMMANDS[runtime])
    stream = client.stream_text("/delegate hello child", session_id="parent")
    deltas = [delta async for delta in stream]
    result = await stream
    assert any(n.method == Method.SUBAGENT_STARTED for n in result.notifications)
    assert "".join(deltas) == result.partial_response
    root_chunks = [e for e in result.events if e.type == "assistant/chunk"]
    assert len(deltas) == len(root_chunks)


async def test_a_handle_interrupts_on_the_first_delta_and_keeps_the_text(
    clients: Clients, runtime: str, tmp_path: Path
) -> None:
    received = StdinTee(RUNTIME_COMMANDS[runtime], tmp_path)
    client = await clients.spawn(command=received.command, env=PACED)
    stream = client.stream_text(LONG, session_id="cut")
    deltas: list[str] = []
    async for delta in stream:
        deltas.append(delta)
        break  # leaving the loop does not stop the run
    assert stream.partial_response.startswith(deltas[0])
    result = await stream.interrupt()
    assert_cut_short(result)
    assert result.partial_response == stream.partial_response
    again = await client.run("again", session_id="cut", timeout=budget(20))
    assert (again.finish_reason, again.final_response) == ("completed", "Echo: again")
    assert await received.methods_once(4) == [
        Method.INITIALIZE,
        Method.SESSION_PROMPT,
        Method.SESSION_INTERRUPT,
        Method.SESSION_PROMPT,
    ]


async def test_interrupting_a_finished_handle_returns_its_result_and_sends_nothing(
    clients: Clients, runtime: str, tmp_path: Path
) -> None:
    received = StdinTee(RUNTIME_COMMANDS[runtime], tmp_path)
    client = await clients.spawn(command=received.command)
    stream = client.stream("short", session_id="done")
    finished = await stream
    assert await stream.interrupt() == finished
    await client.run("after", session_id="done")
    assert await received.methods_once(3) == [
        Method.INITIALIZE,
        Method.SESSION_PROMPT,
        Method.SESSION_PROMPT,
    ]


async def test_a_cancelled_run_raises_cancelled_error_carrying_its_aborted_result(
    clients: Clients, runtime: str
) -> None:
    client = await clients.spawn(command=RUNTIME_COMMANDS[runtime], env=PACED)
    delta = first_delta(client, "cancelled")
    run = asyncio.ensure_future(client.run(LONG, session_id="cancelled"))
    await delta.wait()
    run.cancel()
    with pytest.raises(asyncio.CancelledError) as raised:
        await run
    assert run.cancelled()
    said = [str(raised.value), str(raised.value.__context__)]  # 3.10 chains the one raised
    assert any("its turn was interrupted (finish reason aborted)" in words for words in said), said
    result = cancelled_run_result(raised.value)
    assert result is not None
    assert_cut_short(result)
    assert (
        await client.run("again", session_id="cancelled", timeout=budget(20))
    ).finish_reason == ("completed")


async def test_asyncio_timeout_around_a_run_gives_a_timeout_error_chaining_the_result(
    clients: Clients, runtime: str
) -> None:
    if sys.version_info < (3, 11):
        pytest.skip("asyncio.timeout is Python 3.11+")
    else:
        client = await clients.spawn(command=RUNTIME_COMMANDS[runtime], env=PACED)
        loop = asyncio.get_running_loop()
        with pytest.raises(TimeoutError) as raised:
            async with asyncio.timeout(None) as budget:
                # The budget runs out at the first delta: an event, not a duration.
                def expire(notification: HarnessNotification) -> None:
                    if text_delta_of(notification, "budget"):
                        budget.reschedule(loop.time())

                await client.run(LONG, session_id="budget", on_notification=expire)
        result = cancelled_run_result(raised.value)
        assert result is not None
        assert_cut_short(result)


async def test_a_run_timeout_interrupts_the_turn_and_frees_the_session(
    clients: Clients, runtime: str, tmp_path: Path
) -> None:
    received = StdinTee(RUNTIME_COMMANDS[runtime], tmp_path)
    client = await clients.spawn(command=received.command, env=PACED)
    # A generous guard: the turn has started long before 3 s; its reply lasts 10 s.
    with pytest.raises(RunTimeoutError) as raised:
        await client.run(LONG, session_id="slow", timeout=3)
    error = raised.value
    assert (error.session_id, error.stage, error.was_interrupted) == (
        "slow",
        "waiting-for-idle",
        True,
    )
    assert "session/interrupt stopped its turn" in str(error)
    assert error.partial_response != "" and ECHO.startswith(error.partial_response)
    assert await received.methods_once(3) == [
        Method.INITIALIZE,
        Method.SESSION_PROMPT,
        Method.SESSION_INTERRUPT,
    ]
    assert received.frames()[-1]["params"] == {"sessionId": "slow"}
    # The session is free again: the next prompt runs now, not after the 10 s reply.
    again = await client.run("again", session_id="slow", timeout=budget(5))
    assert (again.finish_reason, again.final_response) == ("completed", "Echo: again")


async def test_on_version_1_a_run_timeout_only_detaches(
    clients: Clients, runtime: str, tmp_path: Path
) -> None:
    received = StdinTee((*RUNTIME_COMMANDS[runtime], "--protocol-version", "1"), tmp_path)
    client = await clients.spawn(command=received.command, env=PACED)
    assert client.protocol_version == 1
    delta = first_delta(client, "v1")
    with pytest.raises(RunTimeoutError) as raised:
        await client.run(LONG, session_id="v1", timeout=3)
    assert raised.value.was_interrupted is False
    assert delta.is_set() and ECHO.startswith(raised.value.partial_response)
    stream = client.stream_text(LONG, session_id="v1-handle")
    async for _ in stream:
        break
    with pytest.raises(CapabilityNotSupportedError):
        await stream.interrupt()
    stream.result.cancel()  # detaches it: the turn goes on in the runtime
    with pytest.raises(asyncio.CancelledError) as cancelled:
        await stream
    said = [str(cancelled.value), str(cancelled.value.__context__)]
    assert any("the runtime cannot interrupt" in words for words in said), said
    # Neither the timeout nor the handle sent session/interrupt: only the two prompts went.
    assert await received.methods_once(3) == [
        Method.INITIALIZE,
        Method.SESSION_PROMPT,
        Method.SESSION_PROMPT,
    ]
