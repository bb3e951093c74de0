"""`session/interrupt` and `session/close` on both reference runtimes over real pipes: what the
exchange vectors cannot pin to exact frames (pauses cut short, children, wire order)."""

from __future__ import annotations

import asyncio
import subprocess
from collections.abc import Callable

import pytest

from conftest import Runtimes
from dsh_sdk._gen.models import (
    InitializeParams,
    SessionCloseParams,
    SessionCloseResult,
    SessionEvent,
    SessionEventNotification,
    SessionInterruptParams,
    SessionInterruptResult,
    SessionPromptParams,
    SubagentFinishedNotification,
    TextBlock,
    ToolResultEvent,
    TurnEndEvent,
)
from dsh_sdk.client import HarnessNotification
from dsh_sdk.codec import encode
from runtime_support import CHUNK_DELAY, PY_LAUNCHER, RUNTIME_COMMANDS, RUNTIME_IDS

V2 = InitializeParams(cwd="/tmp", provider="echo", model="echo-1", protocol_version=2)


def prompt(session_id: str, text: str) -> SessionPromptParams:
    return SessionPromptParams(
        session_id=session_id, content_blocks=[TextBlock(type="text", text=text)]
    )


def is_event(type_: str, session_id: str) -> Callable[[HarnessNotification], bool]:
    def test(n: HarnessNotification) -> bool:
        params = n.params
        return (
            isinstance(params, SessionEventNotification)
            and params.session_id == session_id
            and params.event.type == type_
        )

    return test


def reasons(events: list[SessionEvent]) -> list[object]:
    """The `reason` of every `turn/end` as on the wire, whole: the nested reason of an `aborted`
    one is compared too."""
    return [encode(e.data.reason) for e in events if isinstance(e, TurnEndEvent)]


ABORTED_BY_USER = {"kind": "aborted", "reason": {"kind": "user"}}
ABORTED_DISPOSED = {"kind": "aborted", "reason": {"kind": "disposed"}}
ABORTED_WITH_PARENT = {"kind": "aborted", "reason": {"kind": "parent"}}


@pytest.mark.parametrize("runtime", RUNTIME_IDS)
async def test_an_interrupt_cuts_the_pause_before_a_chunk_short(
    runtimes: Runtimes, runtime: str
) -> None:
    # A minute before every chunk: only an interrupt that ends the pause lets the turn end.
    connection = await runtimes.start(RUNTIME_COMMANDS[runtime], {CHUNK_DELAY: "60000"})
    await connection.peer.initialize(V2)
    await connection.peer.session_prompt(prompt("s", "hello"))
    await connection.wait_for(is_event("step/start", "s"))
    answer = await connection.peer.session_interrupt(SessionInterruptParams(session_id="s"))
    assert answer == SessionInterruptResult(found=True, was_running=True)
    await connection.idle("s")
    assert connection.frames_of("s") == [
        "session.status running",
        "session.event agent/inbox/spliced",
        "session.event turn/start",
        "session.event user/message",
        "session.event step/start",
        "session.event step/end",
        "session.event turn/end",
        "session.status idle",
    ]
    assert reasons(connection.events_of("s")) == [ABORTED_BY_USER]


@pytest.mark.parametrize("runtime", RUNTIME_IDS)
async def test_a_prompt_then_an_interrupt_at_once_still_gives_the_receipt(
    runtimes: Runtimes, runtime: str
) -> None:
    connection = await runtimes.start(RUNTIME_COMMANDS[runtime], {CHUNK_DELAY: "60000"})
    await connection.peer.initialize(V2)
    receipt, answer = await asyncio.gather(
        connection.peer.session_prompt(prompt("at-once", "hello")),
        connection.peer.session_interrupt(SessionInterruptParams(session_id="at-once")),
    )
    # Handled in wire order: the prompt was admitted, so its turn is the one in progress.
    assert answer == SessionInterruptResult(found=True, was_running=True)
    await connection.idle("at-once")
    events = connection.events_of("at-once")
    assert events[0].type == "agent/inbox/spliced"
    assert encode(events[0])["data"]["inserted"][0]["id"] == receipt.message_id
    assert "assistant/chunk" not in [e.type for e in events]
    assert reasons(events) == [ABORTED_BY_USER]


@pytest.mark.parametrize("runtime", RUNTIME_IDS)
async def test_interrupting_a_parent_stops_its_child_with_it(
    runtimes: Runtimes, runtime: str
) -> None:
    connection = await runtimes.start(RUNTIME_COMMANDS[runtime], {CHUNK_DELAY: "200"})
    await connection.peer.initialize(V2)
    await connection.peer.session_prompt(prompt("p", "/delegate count to ten, slowly please"))
    await connection.wait_for(is_event("assistant/chunk", "p/child1"))
    answer = await connection.peer.session_interrupt(SessionInterruptParams(session_id="p"))
    assert answer == SessionInterruptResult(found=True, was_running=True)
    await connection.idle("p")
    assert reasons(connection.events_of("p/child1")) == [ABORTED_WITH_PARENT]
    assert reasons(connection.events_of("p")) == [ABORTED_BY_USER]


@pytest.mark.parametrize("runtime", RUNTIME_IDS)
async def test_interrupting_a_child_session_stops_the_child_only(
    runtimes: Runtimes, runtime: str
) -> None:
    connection = await runtimes.start(RUNTIME_COMMANDS[runtime], {CHUNK_DELAY: "200"})
    await connection.peer.initialize(V2)
    await connection.peer.session_prompt(prompt("p", "/delegate count to ten, slowly please"))
    await connection.wait_for(is_event("assistant/chunk", "p/child1"))
    answer = await connection.peer.session_interrupt(SessionInterruptParams(session_id="p/child1"))
    assert answer == SessionInterruptResult(found=True, was_running=True)
    await connection.idle("p")
    finished = [
        n.params
        for n in connection.notifications
        if isinstance(n.params, SubagentFinishedNotification)
    ]
    assert [(f.status, f.stop_reason) for f in finished] == [("error", "aborted")]
    # Interrupted itself, not with its parent: `user`.
    assert reasons(connection.events_of("p/child1")) == [ABORTED_BY_USER]
    assert reasons(connection.events_of("p")) == [{"kind": "completed"}]
    results = [e for e in connection.events_of("p") if isinstance(e, ToolResultEvent)]
    assert [r.data.is_error for r in results] == [True]


@pytest.mark.parametrize("runtime", RUNTIME_IDS)
async def test_closing_a_parent_disposes_its_child_sessions(
    runtimes: Runtimes, runtime: str
) -> None:
    connection = await runtimes.start(RUNTIME_COMMANDS[runtime], {CHUNK_DELAY: "200"})
    await connection.peer.initialize(V2)
    await connection.peer.session_prompt(prompt("p", "/delegate count to ten, slowly please"))
    await connection.wait_for(is_event("assistant/chunk", "p/child1"))
    closed = await connection.peer.session_close(SessionCloseParams(session_id="p"))
    assert closed == SessionCloseResult(found=True)
    # Answered once disposed: the closing frames came before the answer.
    assert reasons(connection.events_of("p")) == [ABORTED_DISPOSED]
    assert reasons(connection.events_of("p/child1")) == [ABORTED_WITH_PARENT]
    child = SessionInterruptParams(session_id="p/child1")
    assert await connection.peer.session_interrupt(child) == SessionInterruptResult(
        found=False, was_running=False
    )


@pytest.mark.parametrize("runtime", RUNTIME_IDS)
async def test_a_close_right_after_prompts_drops_them(runtimes: Runtimes, runtime: str) -> None:
    connection = await runtimes.start(RUNTIME_COMMANDS[runtime], {CHUNK_DELAY: "200"})
    await connection.peer.initialize(V2)
    first, second, closed = await asyncio.gather(
        connection.peer.session_prompt(prompt("gone", "one")),
        connection.peer.session_prompt(prompt("gone", "two")),
        connection.peer.session_close(SessionCloseParams(session_id="gone")),
    )
    assert (first.message_id, second.message_id) == ("gone/m1", "gone/m2")
    assert closed == SessionCloseResult(found=True)
    events = connection.events_of("gone")
    assert reasons(events) == [ABORTED_DISPOSED]
    assert "gone/m2" not in str([encode(e) for e in events])
    assert connection.frames_of("gone")[-1] == "session.status idle"


def test_the_command_line_takes_a_protocol_version() -> None:
    helped = subprocess.run([PY_LAUNCHER, "--help"], capture_output=True, text=True, check=False)
    assert "--protocol-version N" in helped.stdout
    for bad in ("0", "3", "two", "1.5"):
        run = subprocess.run(
            [PY_LAUNCHER, "--protocol-version", bad],
            capture_output=True,
            text=True,
            input="",
            check=False,
        )
        assert run.returncode == 2
        assert "expected an integer from 1 to 2" in run.stderr
    ok = subprocess.run([PY_LAUNCHER, "--protocol-version", "1"], input="", check=False)
    assert ok.returncode == 0
