"""`HarnessClient.run` and `stream` against both reference runtimes over real pipes: receipt to
idle (the IDL's `session.status`), the session tree, images, concurrent sessions, timeouts."""

from __future__ import annotations

import asyncio
import dataclasses
import os
from pathlib import Path

import pytest

from conftest import Clients
from dsh_sdk._gen.constants import SERVER_NAME
from dsh_sdk._gen.methods import Method
from dsh_sdk._gen.models import (
    AgentInboxSplicedEvent,
    AssistantChunkEvent,
    SessionEventNotification,
    SessionPromptParams,
    SessionStatusNotification,
    SubagentFinishedNotification,
    SubagentStartedNotification,
    TextBlock,
    TurnEndEvent,
)
from dsh_sdk.client import (
    HarnessNotification,
    RunTimeoutError,
    image_from_bytes,
    image_from_file,
    text_block,
)
from dsh_sdk.errors import JsonRpcResponseError
from runtime_support import (
    CHUNK_DELAY,
    ECHO_ROUTE,
    RUNTIME_COMMANDS,
    RUNTIME_IDS,
    describe_frames,
)
from time_budget import budget

pytestmark = pytest.mark.parametrize("runtime", RUNTIME_IDS)


async def test_runs_a_prompt_from_its_receipt_to_idle(clients: Clients, runtime: str) -> None:
    client = await clients.spawn(command=RUNTIME_COMMANDS[runtime])
    assert client.server_info.name == SERVER_NAME
    result = await client.run("hello there", session_id="r1", timeout=budget(20))
    assert (result.session_id, result.message_id) == ("r1", "r1/m1")
    assert result.final_response == "Echo: hello there"
    assert result.finish_reason == "completed"
    # From the receipt on: the `running` status before it is not the run's.
    assert describe_frames(result.notifications, "r1") == [
        "session.event agent/inbox/spliced",
        "session.event turn/start",
        "session.event user/message",
        "session.event step/start",
        "session.event assistant/chunk",
        "session.event assistant/chunk",
        "session.event assistant/message",
        "session.event step/end",
        "session.event turn/end",
        "session.status idle",
    ]
    assert result.events[0].type == "agent/inbox/spliced"
    assert len(result.events) == 9


async def test_a_new_session_per_run_by_default(clients: Clients, runtime: str) -> None:
    client = await clients.spawn(command=RUNTIME_COMMANDS[runtime])
    first, second = await client.run("a"), await client.run("b")
    assert first.session_id != second.session_id
    assert first.session_id.startswith("session-")
    assert first.message_id == f"{first.session_id}/m1"


async def test_follows_the_children_subagent_started_reveals(
    clients: Clients, runtime: str
) -> None:
    client = await clients.spawn(command=RUNTIME_COMMANDS[runtime])
    seen: list[HarnessNotification] = []
    result = await client.run(
        "/delegate /delegate deep", session_id="t", on_notification=seen.append, timeout=budget(20)
    )
    assert seen == list(result.notifications)
    assert (
        result.final_response == "Delegated to t/child1: Delegated to t/child1/child1: Echo: deep"
    )
    sessions = {
        n.params.session_id
        for n in result.notifications
        if isinstance(n.params, SessionEventNotification | SessionStatusNotification)
    }
    assert sessions == {"t", "t/child1", "t/child1/child1"}
    started = [n.params for n in seen if isinstance(n.params, SubagentStartedNotification)]
    finished = [n.params for n in seen if isinstance(n.params, SubagentFinishedNotification)]
    assert [s.child_session_id for s in started] == ["t/child1", "t/child1/child1"]
    assert [f.child_session_id for f in finished] == ["t/child1/child1", "t/child1"]
    # `events` are the root session's only.
    root_events = [
        n.params.event
        for n in result.notifications
        if isinstance(n.params, SessionEventNotification) and n.params.session_id == "t"
    ]
    assert list(result.events) == root_events


async def test_reports_max_tokens_as_the_finish_reason(clients: Clients, runtime: str) -> None:
    client = await clients.spawn(
        command=RUNTIME_COMMANDS[runtime], initialize=dataclasses.replace(ECHO_ROUTE, max_tokens=1)
    )
    result = await client.run("a prompt longer than one piece")
    assert (result.final_response, result.finish_reason) == ("Echo: a prompt l", "max-tokens")


async def test_streams_the_notifications_of_a_run(clients: Clients, runtime: str) -> None:
    client = await clients.spawn(command=RUNTIME_COMMANDS[runtime], env={CHUNK_DELAY: "5"})
    stream = client.stream("x" * 60, session_id="st")
    pieces = []
    async for notification in stream:
        params = notification.params
        if isinstance(params, SessionEventNotification) and isinstance(
            params.event, AssistantChunkEvent
        ):
            delta = params.event.data.delta
            assert isinstance(delta, TextBlock)
            pieces.append(delta.text)
    result = await stream
    assert "".join(pieces) == result.final_response == "Echo: " + "x" * 60
    assert len(pieces) == 5
    assert await stream.result is result


async def test_sends_images_from_bytes_and_from_files(
    clients: Clients, runtime: str, tmp_path: Path
) -> None:
    client = await clients.spawn(command=RUNTIME_COMMANDS[runtime])
    png = b"\x89PNG\r\n\x1a\n" + os.urandom(16)
    gif = b"GIF89a" + os.urandom(16)
    path = tmp_path / "picture.bin"  # no telling extension: the signature decides
    path.write_bytes(gif)
    result = await client.run(
        [text_block("two"), image_from_bytes(png, "image/png"), image_from_file(path)],
        session_id="im",
    )
    lines = result.final_response.split("\n")
    assert lines[0] == "Echo: two"
    assert lines[1].startswith(f"[image image/png, {len(png)} bytes, sha256-")
    assert lines[2].startswith(f"[image image/gif, {len(gif)} bytes, sha256-")


async def test_runs_concurrent_sessions_and_queued_prompts(clients: Clients, runtime: str) -> None:
    client = await clients.spawn(command=RUNTIME_COMMANDS[runtime], env={CHUNK_DELAY: "5"})
    results = await asyncio.gather(
        client.run("alpha " * 5, session_id="c1"),
        client.run("beta " * 5, session_id="c2"),
        client.run("one", session_id="c3"),
        client.run("two", session_id="c3"),
        client.run("three", session_id="c3"),
    )
    assert [r.final_response for r in results] == [
        "Echo: " + "alpha " * 5,
        "Echo: " + "beta " * 5,
        "Echo: one",
        "Echo: two",
        "Echo: three",
    ]
    assert [r.message_id for r in results[2:]] == ["c3/m1", "c3/m2", "c3/m3"]
    for result in results:
        sessions = {
            n.params.session_id
            for n in result.notifications
            if isinstance(n.params, SessionEventNotification | SessionStatusNotification)
        }
        assert sessions == {result.session_id}
        receipt = result.events[0]
        assert isinstance(receipt, AgentInboxSplicedEvent)
        assert receipt.data.inserted[0].id == result.message_id
        ends = [event for event in result.events if isinstance(event, TurnEndEvent)]
        assert len(ends) == 1


async def test_fails_a_run_that_does_not_reach_idle_in_time(clients: Clients, runtime: str) -> None:
    client = await clients.spawn(command=RUNTIME_COMMANDS[runtime], env={CHUNK_DELAY: "100"})
    with pytest.raises(RunTimeoutError) as caught:
        await client.run("x" * 100, session_id="slow", timeout=0.5)
    assert (caught.value.session_id, caught.value.stage) == ("slow", "waiting-for-idle")
    # The client is still usable: the next run on another session completes.
    assert (
        await client.run("ok", session_id="next", timeout=budget(20))
    ).final_response == "Echo: ok"


async def test_a_refused_prompt_fails_the_run_with_the_wire_error(
    clients: Clients, runtime: str
) -> None:
    client = await clients.spawn(command=RUNTIME_COMMANDS[runtime])
    with pytest.raises(JsonRpcResponseError) as caught:
        await client.run([], session_id="empty")
    assert caught.value.code == -32602


async def test_a_listener_that_raises_fails_the_run(clients: Clients, runtime: str) -> None:
    client = await clients.spawn(command=RUNTIME_COMMANDS[runtime])

    def explode(notification: HarnessNotification) -> None:
        raise ValueError("listener broke")

    with pytest.raises(ValueError, match="listener broke"):
        await client.run("x", on_notification=explode)
    assert (await client.run("still fine")).final_response == "Echo: still fine"


async def test_prompt_returns_the_receipt_and_on_notification_sees_every_session(
    clients: Clients, runtime: str
) -> None:
    client = await clients.spawn(command=RUNTIME_COMMANDS[runtime])
    seen: list[HarnessNotification] = []
    unsubscribe = client.on_notification(seen.append)
    params = SessionPromptParams(session_id="raw", content_blocks=[text_block("hi")])
    receipt = await client.prompt(params)
    assert receipt.message_id == "raw/m1"
    await client.run("other", session_id="other")
    unsubscribe()
    methods = {n.method for n in seen}
    assert methods == {Method.SESSION_EVENT, Method.SESSION_STATUS}
    assert {
        n.params.session_id for n in seen if isinstance(n.params, SessionStatusNotification)
    } == {
        "raw",
        "other",
    }


async def test_shuts_down_with_the_request_and_reports_it(clients: Clients, runtime: str) -> None:
    client = await clients.spawn(command=RUNTIME_COMMANDS[runtime])
    report = await client.shutdown(timeout=budget(5))
    assert (report.ended_by, report.has_exited, report.exit_code, report.signal) == (
        "shutdown-request",
        True,
        0,
        None,
    )
    assert [step.outcome for step in report.steps] == ["answered, exited"]
    assert await client.shutdown() is report
