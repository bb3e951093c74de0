"""`/delegate` on the Python reference runtime (docs/reference-runtime.md, "Delegation")."""

from __future__ import annotations

from dataclasses import replace

import pytest

from conftest import Runtimes
from dsh_sdk._gen.models import (
    AssistantMessageEvent,
    SessionEventNotification,
    SessionPromptParams,
    SessionStatusNotification,
    SubagentFinishedNotification,
    TextBlock,
    ToolCallEvent,
    ToolResultEvent,
    UserMessageEvent,
)
from dsh_sdk.client import HarnessNotification, text_of
from dsh_sdk.codec import encode
from runtime_support import ECHO_ROUTE, RUNTIME_COMMANDS, RUNTIME_IDS, RuntimeConnection
from time_budget import budget


def outline(runtime: RuntimeConnection) -> list[str]:
    """Every frame as `session detail`, across sessions, for reading whole sequences."""
    lines: list[str] = []
    for n in runtime.notifications:
        lines.append(describe(n))
    return lines


def describe(n: HarnessNotification) -> str:
    params = n.params
    if isinstance(params, SessionEventNotification):
        return f"{params.session_id} {params.event.type}"
    if isinstance(params, SessionStatusNotification):
        return f"{params.session_id} {params.status}"
    return f"{params.parent_session_id} {n.method} {params.child_session_id}"


def prompt(session_id: str, words: str) -> SessionPromptParams:
    return SessionPromptParams(
        session_id=session_id, content_blocks=[TextBlock(type="text", text=words)]
    )


async def test_runs_the_child_turn_between_the_tool_call_and_its_result(
    runtimes: Runtimes,
) -> None:
    runtime = await runtimes.initialized()
    receipt = await runtime.peer.session_prompt(prompt("p", "/delegate count to three"))
    assert receipt.message_id == "p/m1"
    await runtime.idle("p")
    assert outline(runtime) == [
        "p running",
        "p agent/inbox/spliced",
        "p turn/start",
        "p user/message",
        "p step/start",
        "p tool/call",
        "p subagent.started p/child1",
        "p/child1 running",
        "p/child1 agent/inbox/spliced",
        "p/child1 turn/start",
        "p/child1 user/message",
        "p/child1 step/start",
        "p/child1 assistant/chunk",
        "p/child1 assistant/chunk",
        "p/child1 assistant/message",
        "p/child1 step/end",
        "p/child1 turn/end",
        "p/child1 idle",
        "p subagent.finished p/child1",
        "p tool/result",
        "p assistant/chunk",
        "p assistant/chunk",
        "p assistant/chunk",
        "p assistant/message",
        "p step/end",
        "p turn/end",
        "p idle",
    ]
    child_reply = "Echo: count to three"
    parent, child = runtime.events_of("p"), runtime.events_of("p/child1")
    assert [e.seq for e in child] == list(range(len(child)))
    assert [e.seq for e in parent] == list(range(len(parent)))
    call = next(event for event in parent if isinstance(event, ToolCallEvent))
    assert encode(call.data) == {
        "turn": 0,
        "step": 0,
        "id": "p/call1",
        "name": "delegate",
        "arguments": '{"task":"count to three"}',
    }
    user = next(event for event in child if isinstance(event, UserMessageEvent))
    assert encode(user.data) == {
        "id": "p/child1/m1",
        "role": "user",
        "content": [{"type": "text", "text": "count to three"}],
        "source": {"kind": "parent"},
    }
    finished = next(
        n.params
        for n in runtime.notifications
        if isinstance(n.params, SubagentFinishedNotification)
    )
    assert encode(finished) == {
        "provider": "echo",
        "agentId": "p/child1",
        "parentSessionId": "p",
        "childSessionId": "p/child1",
        "status": "ok",
        "stopReason": "completed",
        "lastAssistantMessage": [{"type": "text", "text": child_reply}],
    }
    result = next(event for event in parent if isinstance(event, ToolResultEvent))
    assert encode(result.data) == {
        "toolCallId": "p/call1",
        "content": [{"type": "text", "text": child_reply}],
        "isError": False,
    }
    message = next(event for event in parent if isinstance(event, AssistantMessageEvent))
    assert text_of(message.data.message.content) == f"Delegated to p/child1: {child_reply}"


async def test_a_child_whose_task_delegates_delegates_again(runtimes: Runtimes) -> None:
    runtime = await runtimes.initialized()
    await runtime.peer.session_prompt(prompt("n", "/delegate /delegate deep"))
    await runtime.idle("n")
    started = [line for line in outline(runtime) if "subagent.started" in line]
    assert started == ["n subagent.started n/child1", "n/child1 subagent.started n/child1/child1"]
    inner = runtime.events_of("n/child1")
    message = next(event for event in inner if isinstance(event, AssistantMessageEvent))
    assert text_of(message.data.message.content) == "Delegated to n/child1/child1: Echo: deep"


async def test_counts_children_per_parent_session(runtimes: Runtimes) -> None:
    runtime = await runtimes.initialized()
    await runtime.peer.session_prompt(prompt("k", "/delegate one"))
    await runtime.peer.session_prompt(prompt("k", "/delegate two"))
    await runtime.idle("k", 2)
    calls = [e.data.id for e in runtime.events_of("k") if isinstance(e, ToolCallEvent)]
    assert calls == ["k/call1", "k/call2"]
    assert runtime.frames_of("k/child2")[0] == "session.status running"


async def finished_of_capped_child(
    runtimes: Runtimes, runtime: str, args: tuple[str, ...]
) -> SubagentFinishedNotification:
    """Delegates a task whose echo needs 3 pieces to a child capped at 1: it stops with
    max-tokens."""
    connection = await runtimes.start((*RUNTIME_COMMANDS[runtime], *args))
    await connection.peer.initialize(replace(ECHO_ROUTE, max_tokens=1), timeout=budget(10.0))
    await connection.peer.session_prompt(
        prompt("p", "/delegate a task long enough for three pieces")
    )
    await connection.idle("p")
    [finished] = [
        n.params
        for n in connection.notifications
        if isinstance(n.params, SubagentFinishedNotification)
    ]
    return finished


@pytest.mark.parametrize("runtime", RUNTIME_IDS)
async def test_a_child_stopped_by_max_tokens_finishes_with_status_error(
    runtimes: Runtimes, runtime: str
) -> None:
    finished = await finished_of_capped_child(runtimes, runtime, ())
    assert (finished.stop_reason, finished.status) == ("max-tokens", "error")


@pytest.mark.parametrize("runtime", RUNTIME_IDS)
async def test_max_tokens_is_ok_when_the_runtime_counts_it_as_success(
    runtimes: Runtimes, runtime: str
) -> None:
    finished = await finished_of_capped_child(runtimes, runtime, ("--max-tokens-is-success",))
    assert (finished.stop_reason, finished.status) == ("max-tokens", "ok")
